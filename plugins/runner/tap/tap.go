// Package tap is the TAP runner: a harness that prints the Test Anything
// Protocol (the c-cmake preset's each runner, the c-autotools preset's
// harness, prove, node --test), read by the tap parser. It is no
// language's home: a C run's evidence is CTest's (plugins/runner/ctest).
package tap

import (
	"regexp"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
)

// Name is the runner's name.
const Name = "tap"

func init() {
	runner.Register(&runner.Runner{
		Name:    Name,
		Version: "1",
		Parser:  parsers.NameTAP,
		// osbench's TAP drivers (c-cmake's each runner, c-autotools'
		// test driver) take the skip list as ctest's -E regexp.
		SkipStyle: "ctest",
		Sample: runner.Sample{
			Output: `ok 1 - suite/adds
ok 2 - suite/slow # SKIP
1..2
`,
			IDs: []string{"suite/adds", "suite/slow"},
		},
		Output: &runner.OutputRule{ID: "runner-output-tap", Reason: "imitates TAP output (ok N - name)",
			Pattern: regexp.MustCompile(`(^|["'` + "`" + `]|\\n)ok (\d+|%[-+ #0-9.]*[a-z]+|\{[^}]*\}) -`)},
		Started: runner.NoStartMark,
		// The drivers report every test they leave out ("# SKIP").
		Rewritable: runner.NoneRewritable,
		Known:      runner.KnowsResults,
		Launch:     runner.NoLaunch,
		Expected:   runner.NoExpected,
		Evidence:   runner.NoEvidence,
	})
}
