package manifests

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// errorAt builds an error diagnostic whose subject is rng.
func errorAt(rng hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// position formats where a range starts as file:line:col, the form people
// paste into an editor.
func position(rng hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", rng.Filename, rng.Start.Line, rng.Start.Column)
}

// quotedList renders names as "a", "b", "c" in sorted order.
func quotedList(names []string) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	quoted := make([]string, len(sorted))
	for i, n := range sorted {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(quoted, ", ")
}

// didYouMean returns ` Did you mean "x"?` when a candidate is close enough to
// be the intended spelling of name, and "" otherwise.
func didYouMean(name string, candidates []string) string {
	best, bestDistance := "", 0
	for _, c := range candidates {
		d := editDistance(name, c)
		if best == "" || d < bestDistance || (d == bestDistance && c < best) {
			best, bestDistance = c, d
		}
	}
	// A suggestion further away than a third of the word is a guess, not a
	// typo fix.
	if best == "" || bestDistance == 0 || bestDistance > max(1, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// editDistance is the optimal string alignment distance between a and b, in
// bytes: insertions, deletions, substitutions and transpositions of
// neighbours, the four usual typos, each cost 1.
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
