// Package ctest is the CTest runner: ctest's text output, read by the ctest
// parser; the home runner of C and C++ (the programs CMake registers with
// add_test). Its definitions are CTest's listing of the tests CMake
// generated, and its evidence gcov's counts of each test program's main
// (evidence.go) and the entry tracer's, which runs the whole test command
// (launcher.go; on Linux by ptrace, under Wine by osbench's Windows
// debugger) — for every C run, whichever runner prints
// its results (the c-cmake preset's gtest and each runners too).
package ctest

import (
	"os"
	"path/filepath"
	"regexp"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// Name is the runner's name.
const Name = "ctest"

func init() {
	runner.Register(&runner.Runner{
		Name: Name,
		// 2: the entry tracer's evidence on Linux (launcher.go), and
		// under Wine the Windows debugger's (PlatformVersions, since
		// Windows runs kept version 1's keys until then: Windows C test
		// steps rerun once). A change to
		// what plugins/executors/wineshim/entrytrace.c records is a
		// bump of the Windows version (the executors'
		// TestTracerSourceChangeBumpsGoTestVersion says so).
		Version:          "2",
		VersionPlatforms: []string{"linux"},
		PlatformVersions: map[string]string{"windows": "2"},
		Parser:           parsers.NameCTest,
		SkipStyle:        "ctest",
		Home:             "c",
		Sample: runner.Sample{
			Output: `Test project /w/repo/_osbench_build
      Start  1: sep
 1/2 Test  #1: sep ..............................   Passed    0.00 sec
      Start  2: abs
 2/2 Test  #2: abs ..............................   Passed    0.00 sec

100% tests passed, 0 tests failed out of 2
`,
			IDs: []string{"abs", "sep"},
		},
		Output: &runner.OutputRule{ID: "runner-output-ctest", Reason: "imitates CTest output (Test #N: ... Passed, tests passed/failed summary)",
			Pattern: regexp.MustCompile(`Test +#(\d+|%[-+ #0-9.]*[a-z]+|\{[^}]*\}).{0,200}Passed|tests passed, .{0,40}tests failed`)},
		// CTest's "Start N:" or "Test #N:".
		Started:    regexp.MustCompile(`^\s*(Start\s+\d+:|\d+/\d+ Test\s+#\d+:)`),
		Rewritable: runner.NoneRewritable,
		Known:      known,
		Launch:     launch,
		Expected:   runner.NoExpected,
		Evidence:   evidence,
	})
}

// known: CTest's registered tests are all of them, when CTest listed them.
func known(k runner.KnownRun) ([]string, bool) {
	defs := k.Definitions
	if defs == nil || defs.Runner != "ctest" || len(defs.Tests) == 0 {
		return nil, false
	}
	names := make([]string, len(defs.Tests))
	for i, d := range defs.Tests {
		names[i] = d.Name
	}
	return names, true
}

// evidence asks CTest for the tests CMake generated, marks the passes
// whose program entered its main often enough by gcov's counts, and, on
// Linux and under Wine, denies those whose program the entry tracer saw
// enter main too seldom (launcher.go).
func evidence(r runner.Run, results []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error) {
	defs, err := listCTest(r)
	if err != nil {
		return results, nil, err
	}
	results = cEvidence(results, defs, r.Coverage)
	if r.Ran && r.Records != "" && (r.Platform == "linux" || r.Platform == "windows") {
		results = traceEvidence(results, defs, r.Records, r.Platform, r.Read)
	}
	return results, defs, nil
}

// listCTest asks CTest for the tests CMake generated, once the tests ran:
// nil when the run has no CTest build directory (another build system, a
// build that failed before configuring).
func listCTest(r runner.Run) (*schemas.TestDefinitions, error) {
	if st, err := os.Lstat(filepath.Join(r.Repo, CTestBuildDir, "CTestTestfile.cmake")); err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	return runner.ListDefinitions(r, "ctest", ctestListArgv, func(b []byte, _ string) (*schemas.TestDefinitions, error) {
		return ctestDefinitions(b, r.WorkToken)
	})
}
