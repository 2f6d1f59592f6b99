package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/osbench/osbench/manifests"
)

// writeSkips lists, per repository and platform, the tests its runs leave
// out under the executor that will run it (after --executor), and the
// skip_under entries of other executors that do not apply: what a curator
// checks before a Wine list reaches a real Windows machine, or the reverse.
func writeSkips(w io.Writer, set *manifests.Set) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REPOSITORY\tPLATFORM\tEXECUTOR\tSKIPPED\tNOT APPLIED (other executors)")
	for _, r := range set.Repositories {
		for _, p := range r.Platforms {
			var other []string
			for _, ex := range sortedExecutors(p.Test.SkipUnder) {
				if ex != p.Executor && len(p.Test.SkipUnder[ex]) > 0 {
					other = append(other, fmt.Sprintf("under %s: %s", ex, strings.Join(p.Test.SkipUnder[ex], ", ")))
				}
			}
			if len(p.Test.Skip) == 0 && len(other) == 0 {
				continue
			}
			skipped := "-"
			if len(p.Test.Skip) > 0 {
				skipped = fmt.Sprintf("%d: %s", len(p.Test.Skip), strings.Join(p.Test.Skip, ", "))
			}
			notApplied := "-"
			if len(other) > 0 {
				notApplied = strings.Join(other, "; ")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, p.Name, p.Executor, skipped, notApplied)
		}
	}
	tw.Flush()
}

func sortedExecutors(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
