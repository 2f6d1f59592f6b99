package evalreport

import (
	"sort"
	"strconv"

	"github.com/osbench/osbench/schemas"
)

// breakdown is one way the summary splits a model's results. Markdown and
// HTML both walk this list, so the two always show the same tables.
type breakdown struct {
	Key   string // the data-chart name of its chart
	Title string
	Group string // what a group is: "direction", "language", ...
	// order lists groups that have a natural order; others follow sorted.
	order []string
	of    func(*schemas.ModelSummary) map[string]schemas.EvalCounts
}

var breakdowns = []breakdown{
	{Key: "direction", Title: "By direction", Group: "direction",
		of: func(m *schemas.ModelSummary) map[string]schemas.EvalCounts { return m.ByDirection }},
	{Key: "language", Title: "By language", Group: "language",
		of: func(m *schemas.ModelSummary) map[string]schemas.EvalCounts { return m.ByLanguage }},
	{Key: "category", Title: "By category", Group: "category",
		of: func(m *schemas.ModelSummary) map[string]schemas.EvalCounts { return m.ByCategory }},
	{Key: "difficulty", Title: "By difficulty", Group: "difficulty", order: []string{"easy", "medium", "hard"},
		of: func(m *schemas.ModelSummary) map[string]schemas.EvalCounts { return m.ByDifficulty }},
}

// groups lists every group any model has in the breakdown: the known ones in
// their natural order, then the rest sorted. Models evaluated on different
// tasks may lack a group another model has.
func (b breakdown) groups(s schemas.EvalSummary) []string {
	present := map[string]bool{}
	for i := range s.Models {
		for g := range b.of(&s.Models[i]) {
			present[g] = true
		}
	}
	var out []string
	for _, g := range b.order {
		if present[g] {
			out = append(out, g)
			delete(present, g)
		}
	}
	rest := make([]string, 0, len(present))
	for g := range present {
		rest = append(rest, g)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// pct spells a rate the way every output shows it: one decimal.
func pct(rate float64) string { return strconv.FormatFloat(rate, 'f', 1, 64) }
