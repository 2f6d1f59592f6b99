// Package evalreport turns the per-instance reports of an osbench
// evaluation run (OUT/<model>/<instance_id>/report.json, DESIGN §2.7) into
// the run's summary: summary.json, summary.md and a self-contained
// report.html with charts, plus the plain-text table the CLI prints. Every
// output is a pure function of the reports, so the same reports give the
// same bytes.
package evalreport

import (
	"math"
	"sort"

	"github.com/osbench/osbench/schemas"
)

// Uncategorized is the ByCategory key of a report whose task has no
// categories, so that every report is counted in that breakdown.
const Uncategorized = "uncategorized"

// Summarize counts the reports per model, overall and by direction,
// language, category and difficulty. Models come out sorted by name; every
// map is non-nil, so the JSON always has the same shape.
func Summarize(reports []schemas.EvalReport) schemas.EvalSummary {
	byModel := map[string]*schemas.ModelSummary{}
	for i := range reports {
		r := &reports[i]
		m := byModel[r.Model]
		if m == nil {
			m = &schemas.ModelSummary{
				Model:        r.Model,
				ByDirection:  map[string]schemas.EvalCounts{},
				ByLanguage:   map[string]schemas.EvalCounts{},
				ByCategory:   map[string]schemas.EvalCounts{},
				ByDifficulty: map[string]schemas.EvalCounts{},
			}
			byModel[r.Model] = m
		}
		add(&m.EvalCounts, r)
		switch {
		case r.Apply.Outcome == schemas.ApplyApplied:
			m.Applied++
		case r.Apply.Outcome == schemas.OutcomePatchRejected:
			m.PatchRejected++
		case r.Apply.Outcome == schemas.OutcomePatchFailed:
			m.PatchFailed++
		}
		switch {
		case r.Outcome == schemas.OutcomeInfraFailure:
			m.InfraFailures++
		case r.StageI.NotGraded != "" || r.StageII.NotGraded != "":
			m.NotGraded++
		}
		if r.TamperSuspected {
			m.TamperSuspected++
		}
		addTo(m.ByDirection, r.Direction(), r)
		addTo(m.ByLanguage, r.Language, r)
		addTo(m.ByDifficulty, r.Difficulty, r)
		for _, c := range categories(r) {
			addTo(m.ByCategory, c, r)
		}
	}

	names := make([]string, 0, len(byModel))
	for name := range byModel {
		names = append(names, name)
	}
	sort.Strings(names)
	s := schemas.EvalSummary{Models: make([]schemas.ModelSummary, 0, len(names))}
	for _, name := range names {
		m := byModel[name]
		m.EvalCounts = withRates(m.EvalCounts)
		m.Graded = m.Total - m.InfraFailures - m.NotGraded
		for _, breakdown := range []map[string]schemas.EvalCounts{m.ByDirection, m.ByLanguage, m.ByCategory, m.ByDifficulty} {
			for k, c := range breakdown {
				breakdown[k] = withRates(c)
			}
		}
		s.Models = append(s.Models, *m)
	}
	s.Agents = attemptSummaries(reports)
	return s
}

// add counts one report. Target-only success is Stage I alone, whatever
// Stage II gave: what a benchmark that only ran the target would report.
func add(c *schemas.EvalCounts, r *schemas.EvalReport) {
	c.Total++
	if r.Resolved {
		c.Resolved++
	}
	if r.StageI.Passed {
		c.TargetOnly++
	}
	c.Gap = c.TargetOnly - c.Resolved
}

func addTo(breakdown map[string]schemas.EvalCounts, key string, r *schemas.EvalReport) {
	c := breakdown[key]
	add(&c, r)
	breakdown[key] = c
}

// categories lists the report's categories once each, so a task listing a
// category twice is not counted twice under it.
func categories(r *schemas.EvalReport) []string {
	if len(r.Categories) == 0 {
		return []string{Uncategorized}
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range r.Categories {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func withRates(c schemas.EvalCounts) schemas.EvalCounts {
	c.ResolvedRate = percent(c.Resolved, c.Total)
	c.TargetOnlyRate = percent(c.TargetOnly, c.Total)
	c.GapRate = percent(c.Gap, c.Total)
	c.ResolvedCI = interval(c.Resolved, c.Total)
	c.TargetOnlyCI = interval(c.TargetOnly, c.Total)
	return c
}

// interval is the 95% Wilson interval of n of total, in percent rounded
// like the rates.
func interval(n, total int) schemas.Interval {
	lo, hi := Wilson(n, total)
	return schemas.Interval{Low: round1(100 * lo), High: round1(100 * hi)}
}

func round1(v float64) float64 { return math.Round(10*v) / 10 }

// percent is n of total as a percentage rounded to one decimal; 0 for an
// empty set rather than NaN, which JSON cannot carry.
func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return math.Round(1000*float64(n)/float64(total)) / 10
}
