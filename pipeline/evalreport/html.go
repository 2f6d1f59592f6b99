package evalreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

//go:embed report.html.tmpl
var pageSource string

// pageTemplate escapes every value it prints: model names, instance IDs and
// failure reasons come from predictions and are untrusted.
var pageTemplate = template.Must(template.New("report.html").Funcs(template.FuncMap{
	"pct":    pct,
	"pctCI":  pctCI,
	"graded": gradedText,
	"add":    func(a, b int) int { return a + b },
	"sub":    func(a, b int) int { return a - b },
}).Parse(pageSource))

// page is everything report.html shows, worked out before rendering.
type page struct {
	Models    []schemas.ModelSummary
	Agents    []schemas.AttemptSummary
	Colors    []string
	Charts    []chart
	Instances []instanceRow
}

type instanceRow struct {
	Model, Instance, Direction string
	Outcome, OutcomeClass      string
	StageI, StageII            string
	Apply, ApplyDetail         string
	// Tamper is "clean", "suspected: <rules>" or "not scanned";
	// TamperDetail lists the findings (file, patch line, reason).
	Tamper, TamperDetail string
}

// HTML writes report.html: one self-contained page (inline CSS, inline SVG,
// no script, and a content security policy that forbids loading anything)
// with an overall chart, a chart per breakdown and a table of every
// instance.
func HTML(w io.Writer, s schemas.EvalSummary, reports []schemas.EvalReport) error {
	p := page{Models: s.Models, Agents: s.Agents}
	for i := range s.Models {
		p.Colors = append(p.Colors, modelColor(i))
	}
	p.Charts = append(p.Charts, overallChart(s))
	for _, b := range breakdowns {
		p.Charts = append(p.Charts, breakdownChart(s, b))
	}

	sorted := append([]schemas.EvalReport(nil), reports...)
	sortReports(sorted)
	for i := range sorted {
		p.Instances = append(p.Instances, newInstanceRow(&sorted[i]))
	}
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("evalreport: rendering %s: %w", ReportHTML, err)
	}
	return nil
}

func newInstanceRow(r *schemas.EvalReport) instanceRow {
	row := instanceRow{
		Model: r.Model, Instance: r.InstanceID, Direction: r.Direction(),
		Outcome: r.Outcome, OutcomeClass: outcomeClass(r.Outcome),
		StageI: stageText(r.StageI), StageII: stageText(r.StageII),
		Apply: r.Apply.Method, ApplyDetail: r.Apply.Reason,
	}
	if r.Apply.Outcome != schemas.ApplyApplied {
		row.Apply = r.Apply.Outcome
	}
	if n := len(r.Apply.RestoredTestFiles); n > 0 {
		row.Apply += " (" + strconv.Itoa(n) + " test files restored)"
	}
	row.Tamper, row.TamperDetail = tamperText(r)
	return row
}

// tamperText is the instance table's scan cell: which rules fired, and in
// its title where.
func tamperText(r *schemas.EvalReport) (text, detail string) {
	switch {
	case r.TamperRules == "" && !r.TamperSuspected:
		return "not scanned", ""
	case !r.TamperSuspected:
		return "clean", ""
	}
	var rules, where []string
	for _, f := range r.TamperFindings {
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
		where = append(where, fmt.Sprintf("%s (patch line %d): %s", f.File, f.PatchLine, f.Reason))
	}
	return "suspected: " + strings.Join(rules, ", "), strings.Join(where, "\n")
}

// outcomeClass maps an outcome to a CSS class from a fixed set, so that a
// report's own strings never choose the page's styling.
func outcomeClass(outcome string) string {
	switch outcome {
	case schemas.OutcomeResolved:
		return "resolved"
	case schemas.OutcomeUnresolved:
		return "unresolved"
	case schemas.OutcomePatchRejected, schemas.OutcomePatchFailed:
		return "patch"
	case schemas.OutcomeInfraFailure:
		return "infra"
	}
	return "other"
}

func stageText(st schemas.StageResult) string {
	switch {
	case st.InfraFailure != "":
		return "infra failure: " + st.InfraFailure
	case !st.Ran:
		return "not run"
	case st.Passed:
		return "passed"
	}
	return "failed (" + strconv.Itoa(len(st.Failing)) + " of " + strconv.Itoa(len(st.Tests)) + " required tests)"
}
