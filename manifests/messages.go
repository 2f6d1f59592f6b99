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

// editDistance is the Levenshtein distance between a and b in bytes.
func editDistance(a, b string) int {
	previous := make([]int, len(b)+1)
	current := make([]int, len(b)+1)
	for j := range previous {
		previous[j] = j
	}
	for i := 1; i <= len(a); i++ {
		current[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			current[j] = min(previous[j]+1, current[j-1]+1, previous[j-1]+cost)
		}
		previous, current = current, previous
	}
	return previous[len(b)]
}
