package testrun

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
)

// applyOutcome folds how the command ended into the results: when the
// executor killed the suite on timeout, tests that never reported a final
// status did not pass, and are marked timeout.
func applyOutcome(results []schemas.TestResult, res executors.Result) []schemas.TestResult {
	if !res.TimedOut {
		return results
	}
	for i := range results {
		if results[i].Status == schemas.StatusMissing || results[i].Status == schemas.StatusError {
			results[i].Status = schemas.StatusTimeout
		}
	}
	return results
}

// noTestsReported decides a run that reported no test: a suite that hung
// before reporting anything is a measured result (a hung placeholder, a
// hung patch: one SuiteTimeoutID timeout), not a failed step; a command
// that failed otherwise without a word is an error (no evidence its suite
// ran); a clean exit with no tests is an empty result.
func noTestsReported(results []schemas.TestResult, res executors.Result) ([]schemas.TestResult, error) {
	switch {
	case len(results) > 0:
		return results, nil
	case res.TimedOut:
		return []schemas.TestResult{{ID: SuiteTimeoutID, Status: schemas.StatusTimeout}}, nil
	case res.ExitCode != 0:
		return nil, fmt.Errorf("test command exited %d and reported no test", res.ExitCode)
	}
	return results, nil
}

// markSkipped reports tests the manifest leaves out on this platform as
// skip, so a later stage sees them rather than a hole.
func markSkipped(results []schemas.TestResult, expected, skip []string) []schemas.TestResult {
	if len(skip) == 0 {
		return results
	}
	byID := map[string]int{}
	for i, r := range results {
		byID[r.ID] = i
	}
	for _, id := range expected {
		name := id[strings.LastIndexByte(id, '/')+1:]
		if !slices.ContainsFunc(skip, func(entry string) bool { return globMatch(entry, name) }) {
			continue
		}
		if i, ok := byID[id]; ok {
			if results[i].Status == schemas.StatusMissing {
				results[i].Status = schemas.StatusSkip
			}
			continue
		}
		results = append(results, schemas.TestResult{ID: id, Status: schemas.StatusSkip})
	}
	sort.Slice(results, func(i, j int) bool { return results[i].ID < results[j].ID })
	return results
}

// summarize is the step's label: counts by status.
func summarize(results []schemas.TestResult) string {
	counts := map[schemas.Status]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	var parts []string
	for _, s := range schemas.Statuses {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	if len(parts) == 0 {
		return "no tests"
	}
	return strings.Join(parts, ", ")
}

// globMatch reports whether name matches a skip entry: a whole name, or a
// glob whose '*' stands for any run of characters and '?' for one (the
// manifest's skip entries, spelled for the runner the same way).
func globMatch(pattern, name string) bool {
	p, n := []rune(pattern), []rune(name)
	// star and mark remember the last '*' and the name position it took,
	// to backtrack when the rest fails: never exponential.
	i, j, star, mark := 0, 0, -1, 0
	for j < len(n) {
		switch {
		case i < len(p) && (p[i] == '?' || p[i] == n[j]):
			i++
			j++
		case i < len(p) && p[i] == '*':
			star, mark = i, j
			i++
		case star >= 0:
			mark++
			i, j = star+1, mark
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
