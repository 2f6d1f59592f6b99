// Package gotest is the go-test runner: `go test -json`, read by the
// go-test-json parser, the home runner of Go. It knows the tests of the
// restored _test.go files before the run, runs every test binary through
// a launcher of osbench's that records whether the binary ran its tests to
// the end, and denies the passes of a binary that did not (launcher.go).
package gotest

import (
	"fmt"
	"regexp"
	"runtime"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// Name is the runner's name.
const Name = "go-test"

func init() {
	runner.Register(&runner.Runner{
		Name: Name,
		// 2: the entry tracer's evidence (launcher.go); 3 on Windows:
		// the Windows entry tracer's under Wine (a change to what
		// plugins/executors/wineshim/entrytrace.c records is a bump
		// here, since the tracer's source is in no key; the executors'
		// TestTracerSourceChangeBumpsGoTestVersion fails until it is).
		// 4 on Windows: the launcher names the debugger by its full
		// path (wine ran an osbench-entrytrace.exe a test binary could
		// leave in its package directory first), so cached Windows
		// verdicts are judged again.
		Version:          "2",
		PlatformVersions: map[string]string{"windows": "4"},
		Parser:           parsers.NameGoTestJSON,
		SkipStyle:        "go",
		Home:             "go",
		Sample: runner.Sample{
			Output: `{"Action":"run","Package":"ex","Test":"TestA"}
{"Action":"output","Package":"ex","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"ex","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Package":"ex","Test":"TestA","Elapsed":0}
{"Action":"output","Package":"ex","Output":"ok  \tex\t0.002s\n"}
{"Action":"pass","Package":"ex","Elapsed":0.002}
`,
			IDs: []string{"ex/TestA"},
		},
		Output: &runner.OutputRule{ID: "runner-output-go", Reason: "imitates go test output (--- PASS, === RUN, an ok package line, a test2json pass event)",
			Pattern: regexp.MustCompile(`--- PASS:|=== (RUN|CONT|PAUSE)\b|(^|["'` + "`" + `]|\\n)ok {1,2}(\t|\\t)|\\?"Action\\?"\s*:\s*\\?"(pass|run|output)\\?"`)},
		// A test2json run event.
		Started: regexp.MustCompile(`"Action":"(run|pass|fail|skip)"`),
		// The expected tests, which the step takes first, are all of them.
		Rewritable: runner.NoneRewritable,
		Known:      runner.KnowsNone,
		Launch:     launch,
		Expected:   expectedTests,
		Evidence:   evidence,
	})
}

// launch writes the launcher and its record directory. The launcher is a
// POSIX shell script: on a Windows host (a future worker) there is none,
// and Go runs there give no evidence.
func launch(work string) (*runner.Launch, error) {
	if runtime.GOOS == "windows" {
		return nil, nil
	}
	tracer, err := runner.Tracer()
	if err != nil {
		return nil, err
	}
	launcher, dirs, err := goLauncher(work)
	if err != nil {
		return nil, err
	}
	return &runner.Launch{
		Env: func(env []string) []string {
			env = withGoExec(env, launcher)
			if tracer != "" {
				env = append(env, "OSBENCH_ENTRYTRACE="+tracer)
			}
			return env
		},
		Writable: []string{dirs.Records, dirs.Bin},
		Records:  dirs.Records,
	}, nil
}

// evidence lists the Go tests of the restored test files as the run's
// definitions and marks each result with its package's launcher record.
func evidence(r runner.Run, results []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error) {
	defs, err := goDefinitions(r.Expected)
	if err != nil {
		return results, nil, err
	}
	if !r.Ran || r.Records == "" {
		return results, defs, nil
	}
	_, dirs, err := goTests(r.Repo, r.Platform, r.Env)
	if err != nil {
		return results, defs, nil // no packages known: nothing to check against
	}
	records, err := readGoRecords(r.Records, r.Repo, r.Read)
	if err != nil {
		// The directory is gone (the tests removed it): no binary is
		// proven to have run.
		fmt.Fprintf(r.Log, "[osbench: go test launcher records unreadable: %v]\n", err)
		records = map[string]goRecord{}
	}
	return goEvidence(results, records, dirs), defs, nil
}

// goDefinitions are the Go tests of the restored test files: go test runs
// exactly these, and the patch cannot change them (go test -list would run
// the patched binary, whose init can print any list).
func goDefinitions(expected []string) (*schemas.TestDefinitions, error) {
	defs := make([]schemas.TestDefinition, 0, len(expected))
	for _, id := range expected {
		defs = append(defs, schemas.TestDefinition{Name: id})
	}
	return runner.NewDefinitions("go", defs)
}
