package corpusreport

import (
	"fmt"
	"strings"
	"time"
)

// Markdown renders the table as docs/corpus.md has it.
func (t Table) Markdown() string {
	var b strings.Builder
	b.WriteString("# The bundled real corpus\n\n")
	b.WriteString("Written by `make corpus` (`osbench corpus`): `osbench build manifests/corpus`, then `osbench eval` of every task's gold and empty patch. ")
	b.WriteString("A candidate is a repository and migration direction that reached task construction; a task is a candidate that passed validation ")
	b.WriteString("(the gold patch restores the repository, the source suite still passes on the masked one). ")
	b.WriteString("Gold must resolve every task and empty none.\n\n")
	if t.Note != "" {
		b.WriteString(t.Note + "\n\n")
	}
	var timing []string
	if t.WallTime > 0 {
		timing = append(timing, "wall time "+duration(t.WallTime))
	}
	if t.StepsTotal > 0 {
		timing = append(timing, fmt.Sprintf("build %s, %d steps, %d failed", duration(t.BuildDuration), t.StepsTotal, t.StepsFailed))
	}
	if len(timing) > 0 {
		b.WriteString(capitalize(strings.Join(timing, "; ")) + ".\n\n")
	}

	b.WriteString("| repository | language | source | candidates | tasks | rejected | gold resolved | empty resolved | rejections and failures |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s | %s | `%s` | %d | %d | %d | %s | %s | %s |\n", cell(r.Name), cell(r.Language), cell(r.Pin),
			r.Candidates, r.Tasks, r.Rejected, fraction(r.Gold, r.Evaluated), fraction(r.Empty, r.Evaluated), cell(strings.Join(r.Reasons, "; ")))
	}
	// The totals are rows of the same table, so it reads as one.
	for _, l := range t.ByLanguage {
		totalRow(&b, "all "+l.Key, l.Key, "", l)
	}
	for _, d := range t.ByDirection {
		totalRow(&b, "all "+d.Key, "", "", d)
	}
	totalRow(&b, "all", "", "", t.All)
	if len(t.Masks) > 0 {
		fmt.Fprintf(&b, "\nMasked target runs of the tasks (DESIGN §2.4: placeholders fail quietly): %d quiet, %d crash, %d hang; "+
			"%d of their %d FAIL_TO_PASS tests failed by their own assertions (the rest errored, went missing with a crashed binary, or timed out).\n",
			t.Masks["quiet"], t.Masks["crash"], t.Masks["hang"], t.ByAssertion, t.FailToPass)
	}
	if p := t.Preservation; p.Tasks > 0 || len(p.Unchecked) > 0 {
		fmt.Fprintf(&b, "\nSource preservation, checked from the exports (each gold patch's restored lines against its source platform's coverage): "+
			"%d masked lines in %d tasks, %d executed by the source's tests", p.MaskedLines, p.Tasks, violatedLines(p.Violations))
		for _, v := range p.Violations {
			fmt.Fprintf(&b, "; %s", v)
		}
		if len(p.Unchecked) > 0 {
			fmt.Fprintf(&b, "; not checked (no source coverage exported): %s", strings.Join(p.Unchecked, ", "))
		}
		b.WriteString(".\n")
	}
	return b.String()
}

func violatedLines(vs []Violation) int {
	n := 0
	for _, v := range vs {
		n += len(v.Lines)
	}
	return n
}

// totalRow is a bold row of totals; its source column counts repositories.
func totalRow(b *strings.Builder, name, language, reasons string, t Totals) {
	fmt.Fprintf(b, "| **%s** | %s | %s | %d | %d | %d | %s | %s | %s |\n", cell(name), cell(language), plural(t.Repositories, "repository", "repositories"),
		t.Candidates, t.Tasks, t.Rejected, fraction(t.Gold, t.Evaluated), fraction(t.Empty, t.Evaluated), reasons)
}

// cell keeps text inside one Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func duration(d time.Duration) string {
	return d.Round(time.Second).String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
