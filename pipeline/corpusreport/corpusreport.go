// Package corpusreport is the corpus table that `make corpus` prints and
// writes to docs/corpus.md: for every repository of a manifest set, what one
// build made of it (candidate tasks, validated tasks, rejections with their
// reasons, the steps that failed) and how the gold and empty patches fared in
// the evaluation, with totals per language and per migration direction.
//
// It reads only what the build and the evaluation wrote: the build's step
// report (build-steps.json, which says which steps of this run succeeded),
// its build-report.json (or, when the tasks step could not run because some
// repository's steps failed, the outcome.json of every task step that did
// run), and the evaluation's per-instance report.json files. A repository
// that gave nothing still has its row, with the reason.
package corpusreport

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/evalrun"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/taskbuild"
)

// Repository is what the manifest says of one repository.
type Repository struct {
	Name     string
	Language string
	// Pin is the upstream source as the manifest pins it, e.g.
	// "github.com/gofrs/flock@v0.12.1".
	Pin string
	// Directions are the manifest's migrate directions, "linux->windows".
	Directions []string
}

// Inputs is everything the table is made of.
type Inputs struct {
	Repositories []Repository
	// Steps is the build's step report (nil when the build wrote none).
	Steps *engine.Report
	// Entries are the build report's entries, one per repository and
	// direction that reached task construction.
	Entries []taskbuild.ReportEntry
	// Eval are the evaluation's reports (of every model; only gold and
	// empty are counted).
	Eval []schemas.EvalReport
	// WallTime is how long the whole corpus run took (0: not measured).
	WallTime time.Duration
	// Note is said under the title, e.g. why the figures are partial.
	Note string
	// Preservation is the check of the exported tasks against the source
	// platforms' coverage (CheckPreservation).
	Preservation Preservation
}

// Row is one repository's line of the table.
type Row struct {
	Repository
	Candidates int // directions that reached task construction
	Tasks      int // validated tasks
	Rejected   int
	Reasons    []string // "linux->windows: no FAIL_TO_PASS test", "windows/test failed: …"
	Gold       int      // tasks the gold patch resolved
	Empty      int      // tasks the empty patch resolved
	Evaluated  int      // tasks with a gold report
	FailedStep int      // steps of this repository that failed in the build
}

// Totals sums rows under one key (a language or a direction).
type Totals struct {
	Key          string
	Repositories int
	Candidates   int
	Tasks        int
	Rejected     int
	Gold         int
	Empty        int
	Evaluated    int
}

// Table is the whole corpus table.
type Table struct {
	Rows          []Row
	ByLanguage    []Totals
	ByDirection   []Totals
	All           Totals
	BuildDuration time.Duration
	StepsFailed   int
	StepsTotal    int
	WallTime      time.Duration
	Note          string
	// Masks counts the tasks by how their masked target run failed (quiet,
	// crash, hang); FailToPass and ByAssertion count their FAIL_TO_PASS
	// tests and those that failed by their own assertions there.
	Masks       map[string]int
	FailToPass  int
	ByAssertion int
	// Preservation is Inputs.Preservation.
	Preservation Preservation
}

// Make computes the table. Entries and eval reports of repositories or
// instances the manifests do not name (left in the output directory by an
// earlier build) are ignored.
func Make(in Inputs) Table {
	t := Table{WallTime: in.WallTime, Note: in.Note, Preservation: in.Preservation}
	failures := map[string][]string{} // repository → "step: error"
	failedCount := map[string]int{}
	if in.Steps != nil {
		t.BuildDuration = in.Steps.Duration
		t.StepsTotal = len(in.Steps.Steps)
		for _, s := range in.Steps.Steps {
			if s.Status != engine.StatusFailed {
				continue
			}
			t.StepsFailed++
			failedCount[s.Group]++
			failures[s.Group] = append(failures[s.Group], stepName(s)+" failed: "+firstLine(s.Error))
		}
	}
	known := map[string]bool{}
	for _, r := range in.Repositories {
		known[r.Name] = true
	}
	entries := map[string][]taskbuild.ReportEntry{}
	instanceRepo := map[string]string{}
	for _, e := range in.Entries {
		if !known[e.Repository] {
			continue
		}
		entries[e.Repository] = append(entries[e.Repository], e)
		if e.Accepted {
			instanceRepo[e.InstanceID] = e.Repository
			if e.MaskClass != "" {
				if t.Masks == nil {
					t.Masks = map[string]int{}
				}
				t.Masks[e.MaskClass]++
				t.FailToPass += e.FailToPass
				t.ByAssertion += e.FailToPassByAssertion
			}
		}
	}
	type verdicts struct{ gold, empty, evaluated int }
	eval := map[string]*verdicts{}
	for _, r := range in.Eval {
		repo, ok := instanceRepo[r.InstanceID]
		if !ok {
			continue
		}
		v := eval[repo]
		if v == nil {
			v = &verdicts{}
			eval[repo] = v
		}
		switch r.Model {
		case evalrun.Gold:
			v.evaluated++
			if r.Resolved {
				v.gold++
			}
		case evalrun.Empty:
			if r.Resolved {
				v.empty++
			}
		}
	}

	repos := append([]Repository(nil), in.Repositories...)
	sort.Slice(repos, func(i, j int) bool {
		if repos[i].Language != repos[j].Language {
			return repos[i].Language < repos[j].Language
		}
		return repos[i].Name < repos[j].Name
	})
	lang := map[string]*Totals{}
	dir := map[string]*Totals{}
	total := func(m map[string]*Totals, key string) *Totals {
		if m[key] == nil {
			m[key] = &Totals{Key: key}
		}
		return m[key]
	}
	for _, r := range repos {
		row := Row{Repository: r, FailedStep: failedCount[r.Name]}
		es := entries[r.Name]
		sort.Slice(es, func(i, j int) bool { return es[i].Direction < es[j].Direction })
		seen := map[string]bool{}
		for _, e := range es {
			seen[e.Direction] = true
			row.Candidates++
			d := total(dir, e.Direction)
			d.Candidates++
			if e.Accepted {
				row.Tasks++
				d.Tasks++
			} else {
				row.Rejected++
				d.Rejected++
				row.Reasons = append(row.Reasons, entryReason(e))
			}
		}
		for _, d := range r.Directions {
			if !seen[d] {
				total(dir, d) // the direction is listed even with no candidate
			}
		}
		row.Reasons = append(row.Reasons, failures[r.Name]...)
		if len(es) == 0 && len(failures[r.Name]) == 0 {
			row.Reasons = append(row.Reasons, "no task step ran for it in this build")
		}
		if v := eval[r.Name]; v != nil {
			row.Gold, row.Empty, row.Evaluated = v.gold, v.empty, v.evaluated
		}
		for _, tt := range []*Totals{total(lang, r.Language), &t.All} {
			tt.Repositories++
			tt.Candidates += row.Candidates
			tt.Tasks += row.Tasks
			tt.Rejected += row.Rejected
			tt.Gold += row.Gold
			tt.Empty += row.Empty
			tt.Evaluated += row.Evaluated
		}
		t.Rows = append(t.Rows, row)
	}
	// Per direction, the gold and empty figures come from the reports
	// themselves (a repository's row mixes its directions).
	for _, r := range in.Eval {
		if _, ok := instanceRepo[r.InstanceID]; !ok {
			continue
		}
		d := total(dir, r.SourceOS+"->"+r.TargetOS)
		switch r.Model {
		case evalrun.Gold:
			d.Evaluated++
			if r.Resolved {
				d.Gold++
			}
		case evalrun.Empty:
			if r.Resolved {
				d.Empty++
			}
		}
	}
	for _, r := range repos {
		seen := map[string]bool{}
		for _, d := range r.Directions {
			if !seen[d] {
				seen[d] = true
				total(dir, d).Repositories++
			}
		}
	}
	t.ByLanguage = sorted(lang)
	t.ByDirection = sorted(dir)
	return t
}

func sorted(m map[string]*Totals) []Totals {
	out := make([]Totals, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// stepName is a step's id without the repository it belongs to.
func stepName(s *engine.StepResult) string {
	if s.Group != "" {
		if rest, ok := strings.CutPrefix(s.ID, s.Group+"/"); ok {
			return rest
		}
	}
	return s.ID
}

// firstLine keeps a reason to one table cell.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	const max = 160
	if len(s) > max {
		s = s[:max] + "…"
	}
	if s == "" {
		return "no error message"
	}
	return s
}

// fraction writes "n/of", or "—" when there is nothing to count.
func fraction(n, of int) string {
	if of == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d", n, of)
}

// entryReason says why a candidate is no task: "DIRECTION: reason", with
// the group of a split direction ("windows->linux group 2 of 3: …"). A
// candidate whose task step never ran (a step before it failed) says so;
// the failed step itself is listed with the repository's failures.
func entryReason(e taskbuild.ReportEntry) string {
	where := e.Direction
	if e.Group != nil {
		where += fmt.Sprintf(" group %d of %d", e.Group.Index, e.Group.Of)
	}
	why := e.Rejected
	if why == "" {
		why = "no task step ran (a step before it failed)"
	}
	return where + ": " + why
}
