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
		"Tamper suspected: patches whose static scan found forgery patterns (see each report's tamper_findings); evidence to check by hand, not part of the outcome.\n\n")
	if len(s.Models) == 0 {
		fmt.Fprint(bw, "No reports.\n")
		return flush(bw)
	}

	fmt.Fprint(bw, "| model | total | resolved | target-only | gap | resolved % | target-only % | gap % | applied | rejected | patch failed | infra failures | tamper suspected |\n")
	fmt.Fprint(bw, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, m := range s.Models {
		fmt.Fprintf(bw, "| %s | %d | %d | %d | %d | %s | %s | %s | %d | %d | %d | %d | %d |\n",
			mdText(m.Model), m.Total, m.Resolved, m.TargetOnly, m.Gap,
			pct(m.ResolvedRate), pct(m.TargetOnlyRate), pct(m.GapRate),
			m.Applied, m.PatchRejected, m.PatchFailed, m.InfraFailures, m.TamperSuspected)
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
					fraction(c.Resolved, c.Total, c.ResolvedRate),
					fraction(c.TargetOnly, c.Total, c.TargetOnlyRate),
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
