package evalreport

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/osbench/osbench/schemas"
)

// Table writes the overall line of each model as an aligned plain-text
// table, the one `osbench eval` and `make demo` print last.
func Table(w io.Writer, s schemas.EvalSummary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tTOTAL\tRESOLVED\tTARGET-ONLY\tGAP\tRESOLVED%\tTARGET-ONLY%\tREJECTED\tPATCH-FAILED\tINFRA\tTAMPER?")
	for _, m := range s.Models {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%d\n",
			terminalText(m.Model), m.Total, m.Resolved, m.TargetOnly, m.Gap,
			pct(m.ResolvedRate), pct(m.TargetOnlyRate), m.PatchRejected, m.PatchFailed, m.InfraFailures, m.TamperSuspected)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	return nil
}

// terminalText quotes a name holding a tab, a line break or another
// non-printing character: such a name would otherwise break the columns or
// send control sequences to the terminal.
func terminalText(s string) string {
	if s == "" || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) >= 0 {
		return strconv.QuoteToGraphic(s)
	}
	return s
}
