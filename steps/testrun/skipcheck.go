package testrun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// A skip entry that matches no test is a mistake (a typo, a test renamed
// upstream, an id spelled another way than the runner's), and it does
// nothing: the test it meant runs. Only a run can tell, since only a run
// lists the tests, so the test step judges it, and in a build it fails,
// naming the manifest line of the skip list: the entry is in the step's
// key, so correcting it reruns the step anyway, and nothing downstream is
// worth building on a run that did not leave out what the curator said.
// `validate` cannot know the tests, and a warning was easy to miss (issue
// 22: an entry spelled PROGRAM/NAME validated, was listed by validate
// --skips and never matched).
//
// A run says which tests exist only where its runner lists them whatever
// the skip list: Go's tests from the test files (expected), CTest's
// registered tests (its json-v1 listing), and the runners whose own output
// reports the tests they left out, as TAP "# SKIP" lines (the c-cmake
// each runner, the c-autotools harness). GoogleTest's filter and libtest's
// --skip drop the tests from the output: there the step says nothing.

// knownTests are the test ids (or names) a run shows exist, and whether
// they are all of them: the expected tests when the language's runner
// lists them beforehand (Go's), else what the run's runner knows (CTest's
// definitions, the results of a runner that reports what it skipped and
// was not cut short: runner.Runner.Known).
func knownTests(rn *runner.Runner, expected []string, defs *schemas.TestDefinitions, results []schemas.TestResult, timedOut bool) ([]string, bool) {
	if len(expected) > 0 {
		return expected, true
	}
	return rn.Known(runner.KnownRun{Definitions: defs, Results: results, TimedOut: timedOut})
}

// unmatchedSkips lists the skip entries that match none of the known
// tests. An entry matches a test id whole ("suite/adds" for the each
// runner's PROGRAM/NAME, "tests/adds" for automake's), or its last element
// (the test's own name: "adds", or Go's "TestA" of example.com/m/TestA),
// or, for a subtest entry, through its first level (Go's "TestB/case": the
// subtests are not listed). Globs match as the runners' flags do.
func unmatchedSkips(known, skip []string) []string {
	var unmatched []string
	for _, entry := range skip {
		top, _, _ := strings.Cut(entry, "/")
		if !slices.ContainsFunc(known, func(id string) bool {
			name := id[strings.LastIndexByte(id, '/')+1:]
			return globMatch(entry, id) || globMatch(entry, name) || globMatch(top, name)
		}) {
			unmatched = append(unmatched, entry)
		}
	}
	return unmatched
}

// unmatchedSkipsError is the step's error for entries that match no test,
// at the skip list's position in the manifest; nil for a run whose
// configuration has no manifest position (an evaluation: the task's list,
// which its build checked).
func unmatchedSkipsError(step *engine.Step, platform string, unmatched []string) error {
	if len(unmatched) == 0 {
		return nil
	}
	at := ""
	for _, f := range step.Config {
		if f.Name == "skip" {
			at = f.Source
		}
	}
	if at == "" {
		return nil
	}
	quoted := make([]string, len(unmatched))
	for i, e := range unmatched {
		quoted[i] = fmt.Sprintf("%q", e)
	}
	return fmt.Errorf("%s: skip entr%s %s match%s no test of the %s run: correct or remove %s (osbench logs %s lists the tests)",
		at, plural(len(unmatched), "y", "ies"), strings.Join(quoted, ", "), plural(len(unmatched), "es", ""), platform,
		plural(len(unmatched), "it", "them"), step.ID)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
