package testrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// goCompileArgv turns a `go test` command into the compile phase osbench
// runs before it: the same packages with the same build flags, compiled
// and linked with -c into /dev/null and never run (so no init code of the
// repository runs, as `-run='^$'` would), which leaves every compiled
// package in GOCACHE for the timed `go test` after it. It returns false
// for a command that is not a plain `go test` (a script, a shell): those
// runners get no compile phase, and a timeout before their first test is
// the machine's (infra.go).
func goCompileArgv(argv []string) ([]string, bool) {
	if len(argv) < 2 || argv[0] != "go" || argv[1] != "test" {
		return nil, false
	}
	out := []string{"go", "test", "-c", "-o", "/dev/null"}
	for i := 2; i < len(argv); i++ {
		a := argv[i]
		if a == "-args" || a == "--args" {
			break // what follows is for the test binary
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a) // a package pattern
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if takesValue[name] && !hasValue {
			i++ // -flag value
			if buildFlags[name] && i < len(argv) {
				out = append(out, a, argv[i])
			}
			continue
		}
		if buildFlags[name] {
			out = append(out, a)
		}
		// Flags of the test run (-json, -count, -timeout, -run, -skip,
		// -coverprofile, -v …) change nothing that is compiled.
	}
	return out, true
}

// buildFlags are go test's flags that change what is compiled: kept in
// the compile phase so its packages are the ones the test run finds in
// GOCACHE.
var buildFlags = map[string]bool{
	"a": true, "race": true, "msan": true, "asan": true, "cover": true, "covermode": true, "coverpkg": true,
	"tags": true, "ldflags": true, "gcflags": true, "asmflags": true, "gccgoflags": true, "trimpath": true,
	"mod": true, "modfile": true, "modcacherw": true, "buildvcs": true, "pgo": true, "overlay": true,
	"installsuffix": true, "compiler": true, "buildmode": true, "linkshared": true, "toolexec": true,
	"vet": true, "p": true, "x": true, "work": true, "C": true,
}

// takesValue are the flags (build and test) that may take their value as
// the next argument.
var takesValue = map[string]bool{
	"covermode": true, "coverpkg": true, "tags": true, "ldflags": true, "gcflags": true, "asmflags": true,
	"gccgoflags": true, "mod": true, "modfile": true, "pgo": true, "overlay": true, "installsuffix": true,
	"compiler": true, "buildmode": true, "toolexec": true, "vet": true, "p": true, "C": true,
	"run": true, "skip": true, "count": true, "timeout": true, "coverprofile": true, "parallel": true,
	"cpu": true, "bench": true, "benchtime": true, "blockprofile": true, "cpuprofile": true,
	"memprofile": true, "mutexprofile": true, "outputdir": true, "trace": true, "shuffle": true,
	"list": true, "fuzz": true, "fuzztime": true, "exec": true, "o": true, "json": false,
}

// runFunc runs one command of the step with a time limit; quiet commands'
// output goes to out alone (a listing osbench reads, not a person).
type runFunc func(c Command, out io.Writer, limit time.Duration, quiet bool) (executors.Result, error)

// suiteRun is one attempt at a platform's suite: the build command, the
// compile phase, the test command, the coverage file.
type suiteRun struct {
	cfg      Config
	rc       *engine.RunContext
	repo     string
	parser   parsers.Parser
	expected []string
	timeout  time.Duration
	// buildTimeout bounds the build command: the manifest's build
	// timeout, or compileBudget(timeout).
	buildTimeout time.Duration
	// relaunch makes the runner's launcher afresh (a no-op without one).
	relaunch func() error
	// wrap is the runner's wrapper of the test command's argv, nil none.
	wrap  func(argv []string) []string
	run   runFunc
	logw  io.Writer
	watch *watch
}

// runSuite runs one attempt. err is a failure of osbench's; infraErr says
// the machine decided how the attempt ended (infra.go); otherwise the
// results are the code's.
func runSuite(sr suiteRun) (results []schemas.TestResult, buildOK bool, testRes executors.Result, coverageRaw []byte, infraErr, err error) {
	cfg, logw := sr.cfg, sr.logw
	sr.watch.reset()
	buildOK = true
	if cfg.Build != nil {
		res, err := sr.run(*cfg.Build, nil, sr.buildTimeout, false)
		if err != nil {
			return nil, false, testRes, nil, nil, err
		}
		// The same marker as the test command's: `make bench` sums them
		// to tell the commands' own time from osbench's.
		fmt.Fprintf(logw, "[osbench: build exit %d, timed out %v, %s]\n", res.ExitCode, res.TimedOut, res.Duration.Round(time.Millisecond))
		if res.TimedOut {
			return nil, false, testRes, nil, engine.Infra(CauseCompileTimout,
				fmt.Errorf("the build command ran past its budget of %s (a compile does not hang on the code; the machine was too slow)", sr.buildTimeout)), nil
		}
		if ierr := machineFailure(res, sr.watch, -1, -1, cfg.Executor == "wine"); ierr != nil {
			return nil, false, testRes, nil, ierr, nil
		}
		if res.ExitCode != 0 {
			buildOK = false
			fmt.Fprintf(logw, "[osbench: build command failed: exit %d, timed out %v]\n", res.ExitCode, res.TimedOut)
			for _, id := range sr.expected {
				results = append(results, schemas.TestResult{ID: id, Status: schemas.StatusBuildFailed})
			}
		}
	}
	// The compile phase: the test block's compile command (cargo test
	// --no-run), or the one derived from a plain go test command.
	var compile *Command
	switch {
	case cfg.Compile != nil:
		compile = cfg.Compile
	case cfg.Test.Shell == "":
		if argv, ok := goCompileArgv(cfg.Test.Argv); ok {
			compile = &Command{Argv: argv, Dir: cfg.Test.Dir}
		}
	}
	if buildOK && compile != nil {
		res, err := sr.run(*compile, nil, compileBudget(sr.timeout), false)
		if err != nil {
			return nil, false, testRes, nil, nil, err
		}
		fmt.Fprintf(logw, "[osbench: compile phase exit %d, timed out %v, %s]\n", res.ExitCode, res.TimedOut, res.Duration.Round(time.Millisecond))
		if res.TimedOut {
			return nil, false, testRes, nil, engine.Infra(CauseCompileTimout,
				fmt.Errorf("compiling the test programs ran past its budget of %s (the machine was too slow)", compileBudget(sr.timeout))), nil
		}
		if ierr := machineFailure(res, sr.watch, -1, -1, false); ierr != nil {
			return nil, false, testRes, nil, ierr, nil
		}
		// What does not compile is reported by the test command itself
		// (go test: build-failed per test; cargo: the build error, every
		// expected test missing), as without the phase.
		sr.watch.reset()
	}
	if buildOK && (cfg.Build != nil || compile != nil) {
		// The build command and the compile phase may run the patch's
		// code (a Makefile, a script, a cargo build script) with the
		// record and launcher directories writable: whatever they left
		// there is replaced before the tests run.
		if err := sr.relaunch(); err != nil {
			return nil, false, testRes, nil, nil, err
		}
	}
	if !buildOK {
		return results, false, testRes, nil, nil, nil
	}
	opts := parsers.Options{Expected: sr.expected}
	if cfg.Regex != nil {
		opts.Regex = &parsers.RegexOptions{Pattern: cfg.Regex.Pattern, Statuses: cfg.Regex.Statuses}
	}
	var (
		parseResults []schemas.TestResult
		parseErr     error
	)
	test := cfg.Test
	if sr.wrap != nil {
		// The runner's wrapper (CTest's entry tracer) runs the whole
		// test command.
		argv, err := commandArgv(test)
		if err != nil {
			return nil, false, testRes, nil, nil, err
		}
		test = Command{Argv: sr.wrap(argv), Dir: test.Dir}
	}
	oomBefore := oomKills()
	if cfg.Report == "" {
		// The parser reads the output while the tests write it, so
		// memory stays bounded however much a suite prints.
		parsed := streamParse(sr.parser, opts)
		testRes, err = sr.run(test, parsed, sr.timeout, false)
		parseResults, parseErr = parsed.finish()
	} else {
		testRes, err = sr.run(test, nil, sr.timeout, false)
	}
	if err != nil {
		return nil, false, testRes, nil, nil, err
	}
	fmt.Fprintf(logw, "[osbench: exit %d, timed out %v, %s]\n", testRes.ExitCode, testRes.TimedOut, testRes.Duration.Round(time.Millisecond))
	if ierr := machineFailure(testRes, sr.watch, oomBefore, oomKills(), cfg.Executor == "wine"); ierr != nil {
		return nil, false, testRes, nil, ierr, nil
	}
	if cfg.Report != "" {
		input, err := readReport(sr.repo, cfg.Report, logw)
		if err != nil {
			return nil, false, testRes, nil, nil, err
		}
		parseResults, parseErr = sr.parser.Parse(bytes.NewReader(input), opts)
	}
	if parseErr != nil {
		return nil, false, testRes, nil, nil, fmt.Errorf("parse %s output: %w", cfg.Parser, parseErr)
	}
	if testRes.TimedOut && !sr.watch.Started(countReported(parseResults)) {
		// The runner was still building, linking or downloading when
		// the limit came (with a compile phase before it: linking on a
		// loaded machine): nothing about the tests is known. A test
		// binary that hangs in its init looks the same, and fails as
		// infrastructure too — never as a cached result.
		return nil, false, testRes, nil, engine.Infra(CauseNotStarted,
			fmt.Errorf("the test command ran %s without starting a test (still building or downloading)", testRes.Duration.Round(time.Second))), nil
	}
	if testRes.TimedOut {
		logCPU(logw, testRes)
		if ierr := starvedTimeout(testRes, commandCPUs()); ierr != nil {
			return nil, false, testRes, nil, ierr, nil
		}
	}
	results = applyOutcome(parseResults, testRes)
	if cfg.Coverage != "" {
		raw, err := readUntrusted(sr.repo, cfg.Coverage)
		switch {
		case isMissing(err):
			raw = nil // no coverage written (e.g. build failed): an empty profile
		case errors.Is(err, errNotRegular):
			// Planted by the tested code: no coverage, and a note for people.
			sr.rc.Log.Warn().Str("coverage", cfg.Coverage).Msg("coverage path is not a regular file; recorded as no coverage")
			raw = nil
		case err != nil:
			return nil, false, testRes, nil, nil, err
		}
		coverageRaw = raw
	}
	return results, true, testRes, coverageRaw, nil, nil
}

// countReported counts results a parser took from the output (not the
// expected tests it filled in as missing).
func countReported(results []schemas.TestResult) int {
	n := 0
	for _, r := range results {
		if r.Status != schemas.StatusMissing {
			n++
		}
	}
	return n
}
