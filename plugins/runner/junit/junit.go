// Package junit is the JUnit-report runner: a runner that writes JUnit XML
// (GoogleTest's --gtest_output=xml, as the c-cmake preset's gtest runner
// runs it; Ant, Surefire, pytest's --junitxml), read by the junit parser
// from the report file the manifest names. It is no language's home: a C
// run's evidence is CTest's (plugins/runner/ctest).
package junit

import (
	"regexp"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
)

// Name is the runner's name.
const Name = "junit"

func init() {
	runner.Register(&runner.Runner{
		Name:    Name,
		Version: "1",
		Parser:  parsers.NameJUnit,
		// The JUnit writer osbench's presets drive is GoogleTest, whose
		// --gtest_filter leaves tests out.
		SkipStyle: "gtest",
		Sample: runner.Sample{
			Output: `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="0" errors="0" name="AllTests">
  <testsuite name="Paths" tests="1" failures="0" errors="0">
    <testcase name="Separators" status="run" result="completed" classname="Paths" />
  </testsuite>
</testsuites>
`,
			IDs: []string{"Paths/Separators"},
		},
		Output: &runner.OutputRule{ID: "runner-output-junit", Reason: "writes JUnit-style test report elements (<testcase, <testsuite)",
			Pattern: regexp.MustCompile(`<testcase\b|<testsuites?\b`)},
		Started: runner.NoStartMark,
		// GoogleTest's filter drops the tests it leaves out from the report.
		Rewritable: runner.NoneRewritable,
		Known:      runner.KnowsNone,
		Launch:     runner.NoLaunch,
		Expected:   runner.NoExpected,
		Evidence:   runner.NoEvidence,
	})
}
