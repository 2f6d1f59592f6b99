// Package trx is the TRX runner: `dotnet test --logger trx`, whose Visual
// Studio test results file the trx parser reads (the dotnet preset prints
// it after the run). It has no launcher, evidence or definitions yet, and
// the tamper scan no pattern for TRX elements.
package trx

import (
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
)

// Name is the runner's name.
const Name = "trx"

func init() {
	runner.Register(&runner.Runner{
		Name:    Name,
		Version: "1",
		Parser:  parsers.NameTRX,
		// The dotnet preset sets no skip_style: a repository that must
		// leave tests out writes its own --filter.
		SkipStyle: runner.NoSkipStyle,
		Sample: runner.Sample{
			Output: `<?xml version="1.0" encoding="UTF-8"?>
<TestRun id="1" name="run" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>
    <UnitTestResult executionId="e1" testId="t1" testName="Joins" outcome="Passed" />
  </Results>
  <TestDefinitions>
    <UnitTest name="Joins" id="t1">
      <TestMethod className="Paths.Tests, Paths.Tests, Version=1.0.0.0" name="Joins" />
    </UnitTest>
  </TestDefinitions>
</TestRun>
`,
			IDs: []string{"Paths.Tests/Joins"},
		},
		Output:     runner.NoOutput,
		Started:    runner.NoStartMark,
		Rewritable: runner.NoneRewritable,
		Known:      runner.KnowsNone,
		Launch:     runner.NoLaunch,
		Expected:   runner.NoExpected,
		Evidence:   runner.NoEvidence,
	})
}
