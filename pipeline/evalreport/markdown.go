package evalreport

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Markdown writes summary.md: the overall table, one row per model, then a
// table per breakdown with the models side by side, one row per group.
func Markdown(w io.Writer, s schemas.EvalSummary) error {
	bw := bufio.NewWriter(w)
	fmt.Fprint(bw, "# osbench evaluation summary\n\n")
	fmt.Fprint(bw, "Resolved: Stage I (target tests) and Stage II (source tests) both pass. "+
		"Target-only: Stage I passes, whatever Stage II gives. "+
		"Gap: target-only minus resolved, the patches a target-only benchmark would count as solved though they break the source platform. "+
		"Tamper suspected: patches whose static scan found forgery patterns (see each report's tamper_findings); evidence to check by hand, not part of the outcome. "+
		"Intervals are 95% Wilson score intervals over the tasks given. "+
		"Graded: the predictions given minus infrastructure failures and runs not graded (a patch changed what a test runs), which say nothing about the model.\n\n")
	if len(s.Models) == 0 {
		fmt.Fprint(bw, "No reports.\n")
		return flush(bw)
	}

	fmt.Fprint(bw, "| model | total | graded | resolved | target-only | gap | resolved % (95% CI) | target-only % (95% CI) | gap % | applied | rejected | patch failed | infra failures | not graded | tamper suspected |\n")
	fmt.Fprint(bw, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, m := range s.Models {
		fmt.Fprintf(bw, "| %s | %d | %d | %d | %d | %d | %s | %s | %s | %d | %d | %d | %d | %d | %d |\n",
			mdText(m.Model), m.Total, m.Graded, m.Resolved, m.TargetOnly, m.Gap,
			pctCI(m.ResolvedRate, m.ResolvedCI), pctCI(m.TargetOnlyRate, m.TargetOnlyCI), pct(m.GapRate),
			m.Applied, m.PatchRejected, m.PatchFailed, m.InfraFailures, m.NotGraded, m.TamperSuspected)
	}
	fmt.Fprint(bw, "\n")
	for _, m := range s.Models {
		fmt.Fprintf(bw, "- %s: %s\n", mdText(m.Model), gradedText(m))
	}
	if len(s.Agents) > 0 {
		fmt.Fprint(bw, "\n## Attempts\n\n"+
			"pass@k: the chance that at least one of k attempts resolves a task; pass^k: that all k do "+
			"(unbiased estimators over the attempts made, on the tasks every attempt was evaluated on).\n\n")
		fmt.Fprint(bw, "| agent | attempts | tasks | k | pass@k % | pass^k % |\n|---|--:|--:|--:|--:|--:|\n")
		for _, a := range s.Agents {
			for _, p := range a.PassK {
				fmt.Fprintf(bw, "| %s | %d | %d | %d | %s | %s |\n", mdText(a.Agent), a.Attempts, a.Tasks, p.K, pct(p.PassAt), pct(p.PassHat))
			}
		}
	}

	for _, b := range breakdowns {
		fmt.Fprintf(bw, "\n## %s\n\n", b.Title)
		fmt.Fprintf(bw, "| %s |", b.Group)
		for _, m := range s.Models {
			name := mdText(m.Model)
			fmt.Fprintf(bw, " %s resolved | %s target-only | %s gap |", name, name, name)
		}
		fmt.Fprint(bw, "\n|---|"+strings.Repeat("--:|", 3*len(s.Models))+"\n")
		for _, g := range b.groups(s) {
			fmt.Fprintf(bw, "| %s |", mdText(g))
			for i := range s.Models {
				c, ok := b.of(&s.Models[i])[g]
				if !ok {
					fmt.Fprint(bw, " – | – | – |")
					continue
				}
				fmt.Fprintf(bw, " %s | %s | %s |",
					rateCI(c.ResolvedRate, c.ResolvedCI, c.Total, c.Resolved),
					rateCI(c.TargetOnlyRate, c.TargetOnlyCI, c.Total, c.TargetOnly),
					fraction(c.Gap, c.Total, c.GapRate))
			}
			fmt.Fprint(bw, "\n")
		}
	}
	return flush(bw)
}

func flush(bw *bufio.Writer) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	return nil
}

// pctCI is a rate with its interval: "33.3 (6.1–79.2)".
func pctCI(rate float64, ci schemas.Interval) string {
	return pct(rate) + " (" + pct(ci.Low) + "–" + pct(ci.High) + ")"
}

// gradedText says how many of a model's predictions were graded and why
// the others were not.
func gradedText(m schemas.ModelSummary) string {
	t := fmt.Sprintf("graded %d of %d given", m.Graded, m.Total)
	if m.Graded == m.Total {
		return t
	}
	return t + fmt.Sprintf(" (%d infrastructure failures, %d not graded)", m.InfraFailures, m.NotGraded)
}

func fraction(n, total int, rate float64) string {
	return fmt.Sprintf("%d/%d (%s%%)", n, total, pct(rate))
}

// mdEscaper neutralises what a model name or group could use to break out
// of a table cell or inject markup: a line break ends the table, "|" ends
// the cell, and the rest would turn into HTML, links or emphasis when the
// file is rendered. CommonMark lets any ASCII punctuation be
// backslash-escaped.
var mdEscaper = strings.NewReplacer(
	"\r\n", " ", "\r", " ", "\n", " ",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "&", `\&`, "|", `\|`, "~", `\~`, "!", `\!`,
)

func mdText(s string) string { return mdEscaper.Replace(s) }
