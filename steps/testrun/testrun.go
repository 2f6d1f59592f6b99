// Package testrun is the "test" step kind: it materializes a repository
// checkout in a fresh work dir, runs the platform's build and test commands
// through the platform's executor under the pinned toolchain, and records
// two results — the parsed, normalised test statuses (tests.json) and the
// raw coverage file with the work dir replaced by a stable token
// (coverage.raw) — plus the raw log as a side artifact.
package testrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/osbench/osbench/plugins/toolenv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/coverage"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "test"

// Inputs of a test step.
const (
	InputSource    = "source"    // the tree to test: a tree result named "source"
	InputToolchain = "toolchain" // the toolchain step of the platform (its fingerprint is the key's)
	// InputDeps is the deps step's skeleton (a tree result named "lock"):
	// the lock files the fetch downloads from, the task's in an
	// evaluation, never the patch's. Without it (a step made by hand) the
	// tested tree's own lock files are fetched.
	InputDeps = "deps"
)

// RunVar is the environment variable that tells a test suite which of the
// repeated runs it is (1, 2, ...).
const RunVar = "OSBENCH_RUN"

// SuiteTimeoutID is the one result of a run that timed out before it
// reported any test (and whose tests osbench could not list beforehand):
// no real test has this id, so every required test is missing.
const SuiteTimeoutID = "(suite)"

// WorkToken replaces the absolute work directory in raw coverage files
// (schemas.WorkToken).
const WorkToken = schemas.WorkToken

// Config is the test step's configuration: everything that can change what
// the tests report.
type Config struct {
	Repository string            `json:"repository"`
	Platform   string            `json:"platform"`
	Language   string            `json:"language"`
	Executor   string            `json:"executor"`
	User       string            `json:"user"`
	Toolchain  string            `json:"toolchain"`
	Env        map[string]string `json:"env"`
	Build      *Command          `json:"build,omitempty"`
	// Compile builds the test programs without running them, before Test,
	// under the compile budget (phases.go); absent for most runners, so
	// their keys are what they were.
	Compile *Command `json:"compile,omitempty"`
	Test    Command  `json:"test"`
	Timeout string   `json:"timeout"` // Go duration
	Parser  string   `json:"parser"`
	// ParserVersion is the parser's version (parsers.VersionOf) when it is
	// not "1": a parser change reruns the runs it parses, and no other.
	ParserVersion string `json:"parser_version,omitempty"`
	// RunnerVersion names the versions of the run's runners
	// (runner.KeyVersion) when one is not "1": a runner change reruns the
	// runs it drives, and no other; absent for every runner today, so
	// the keys are what they were before runners had versions.
	RunnerVersion string   `json:"runner_version,omitempty"`
	Regex         *Regex   `json:"regex,omitempty"` // only for parser "regex"
	Skip          []string `json:"skip"`
	Coverage      string   `json:"coverage_file,omitempty"` // relative to the repository root
	// Report is the file the parser reads instead of the test command's
	// stdout, relative to the repository root: a runner's JUnit XML, say.
	Report string `json:"report,omitempty"`
	// Run numbers repeated runs of the same suite (flake detection); it only
	// makes their keys differ.
	Run int `json:"run,omitempty"`
	// SecretEnv names variables passed from osbench's own environment
	// (secrets.go).
	SecretEnv []string `json:"secret_env,omitempty"`
	// BuildTimeout bounds the build command alone (Go duration); "": the
	// compile budget (compileBudget) of the run's Timeout does.
	BuildTimeout string `json:"build_timeout,omitempty"`
}

// Regex is a manifest-declared line parser.
type Regex struct {
	Pattern  string            `json:"pattern"`
	Statuses map[string]string `json:"statuses"`
}

// Command is an argv, or a script for an explicit shell (schemas.Command).
type Command = schemas.Command

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 3: libtest doctest ids lost their line numbers. Later parser
// changes reach the key through Config.ParserVersion instead, so they rerun
// only the runs of the parser that changed.
//
// Version 4: results carry evidence (the runner's own artifacts show a test
// ran; a Go pass they deny is an error) and the run's test definitions.
//
// Version 5: Go test binaries run in the executor's test sandbox (the
// caches, the evidence records and the launcher read-only for them), the
// records and the launcher are made afresh after a build command, and a
// stale coverage profile no longer counts: a run whose binaries wrote the
// caches or their own records is judged differently now.
//
// Version 6: Rust's Windows test programs too (the wine executor's cargo
// runner), with profile names kept apart.
//
// Version 7: a Go coverprofile is stored sorted (coverage.CanonicalProfile):
// multi-package profiles came in package completion order, so a rerun of a
// hit could store other bytes.
//
// Version 8: the machine never decides a result (infra.go, phases.go): a
// Go suite's test binaries are compiled first with a budget of their own,
// a build or compile past its budget, a run that timed out before any test
// started, a kill osbench did not send, a full disk, a lost wineserver or a
// tool-install race fail the step as infrastructure (never cached), and a
// test-phase timeout counts only when a second run times out too.
//
// Version 9: a run records the test sources it changed, added or removed
// (changed_test_files), which the verdict does not grade; a build command
// is bounded by its own build_timeout when the manifest sets one.
//
// Version 10: hermetic runs: the locked dependencies are fetched first,
// with the network, by a command of osbench's (fetch.go); the build and
// test commands run offline (toolenv.Offline: Go through the module cache
// alone, GOMODCACHE read-only; cargo offline, CARGO_HOME copy-on-write,
// the .cargo/config program keys overridden, the config among the test
// definitions) and without the network.
func (kind) Version() string { return "10" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	timeout, err := time.ParseDuration(cfg.Timeout)
	if err != nil {
		return fmt.Errorf("timeout: %w", err)
	}
	buildTimeout := compileBudget(timeout)
	if cfg.BuildTimeout != "" {
		if buildTimeout, err = time.ParseDuration(cfg.BuildTimeout); err != nil {
			return fmt.Errorf("build_timeout: %w", err)
		}
	}
	parser, ok := parsers.Lookup(cfg.Parser)
	if !ok {
		return fmt.Errorf("unknown parser %q", cfg.Parser)
	}
	rn, err := runner.For(cfg.Language, cfg.Parser)
	if err != nil {
		return err
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	repo := filepath.Join(rc.WorkDir, "repo")
	if err := src.Materialize("source", repo); err != nil {
		return err
	}
	ex, err := toolenv.Executor(rc.StateDir, cfg.Executor)
	if err != nil {
		return err
	}
	env, writable, err := toolenv.Env(rc.StateDir, rc.WorkDir, cfg.Language, cfg.Toolchain, cfg.Platform)
	if err != nil {
		return err
	}
	logw, err := rc.SideWriter("test.log")
	if err != nil {
		return err
	}
	fetchEx, err := fetchExecutor(rc, ex, cfg.Executor)
	if err != nil {
		logw.Close()
		return err
	}
	if err := fetch(ctx, rc, fetchEx, fetchRun{
		language: cfg.Language, repo: repo, env: env, writable: writable,
		user: cfg.User, timeout: timeout, log: logw,
	}); err != nil {
		logw.Close()
		return err
	}
	env, writable, readOnly, cow := toolenv.Offline(env, writable, cfg.Language)
	readOnly, cow, hidden := toolenv.Hide(env, cfg.Language, repo, readOnly, cow)
	env = toolenv.Merge(env, cfg.Env)
	env, secrets, err := withSecrets(env, cfg.SecretEnv, os.LookupEnv)
	if err != nil {
		logw.Close()
		return err
	}
	// The run number (1 unless flaky_runs repeats the suite) is visible to
	// the tests: a flake can be reproduced by its run, and a fixture can be
	// flaky on purpose without racing other runs.
	env = append(env, fmt.Sprintf("%s=%d", RunVar, max(cfg.Run, 1)))
	// The runner's launcher, when it has one (Go's records every test
	// binary it ran): writable for the launcher, read-only for the tested
	// programs (the executor's test sandbox).
	launch, err := rn.Launch(rc.WorkDir)
	if errors.Is(err, runner.ErrNoTracer) {
		// Fail loudly: without the tracer forged passes would be
		// evidenced here and denied elsewhere, under one key.
		err = engine.Infra(CauseNoTracer, err)
	}
	if err != nil {
		fmt.Fprintf(logw, "[osbench: %v]\n", err)
		logw.Close()
		return err
	}
	var records string
	if launch != nil {
		records = launch.Records
		env = launch.Env(env)
		writable = append(writable, launch.Writable...)
	}
	// wrap runs the test command inside the runner's wrapper, when it
	// has one (CTest's entry tracer).
	var wrap func([]string) []string
	if launch != nil && launch.Wrap != nil {
		wrap = func(argv []string) []string { return launch.Wrap(argv, cfg.Platform, repo) }
	}
	// relaunch makes the launcher and its records afresh: nothing a
	// build command or a timed-out attempt left there may decide.
	relaunch := func() error {
		if launch == nil {
			return nil
		}
		_, err := rn.Launch(rc.WorkDir)
		return err
	}

	// run runs a command; its stdout goes to out and the log, or with
	// quiet to out alone (a listing osbench reads, not a person).
	// What the commands print is watched for the machine's marks and the
	// first test's start (infra.go).
	watch := newWatch(cfg.Parser)
	watch.disk = newDiskWatch(rc.WorkDir)
	var testCode []string // the task's test code, read-only for every command (testfiles.go)
	run := func(c Command, out io.Writer, limit time.Duration, quiet bool) (executors.Result, error) {
		argv, err := commandArgv(c)
		if err != nil {
			return executors.Result{}, err
		}
		fmt.Fprintf(logw, "$ %s\n", strings.Join(argv, " "))
		// What a command prints reaches the log and the parser with
		// the secrets' values replaced; a quiet command's output goes to
		// the parser only.
		logR := secrets.redact(logw)
		var stdoutW io.Writer = logR
		outR := secrets.redact(out)
		switch {
		case out != nil && quiet:
			stdoutW = outR
		case out != nil:
			stdoutW = io.MultiWriter(outR, logR)
		}
		stopDisk := watch.disk.during()
		res, err := ex.Run(ctx, executors.Cmd{
			Argv: argv, Dir: filepath.Join(repo, filepath.FromSlash(c.Dir)), Env: env,
			Stdout: io.MultiWriter(stdoutW, watch.stream()), Stderr: io.MultiWriter(logR, watch.stream()), Timeout: limit, User: cfg.User,
			WorkDir: rc.WorkDir, WritableDirs: writable, ReadOnlyDirs: readOnly, CopyOnWriteDirs: cow, HiddenPaths: hidden,
			ReadOnlyFiles: testCode,
		})
		stopDisk()
		if errors.Is(err, syscall.EDQUOT) {
			// The executor's disk limit stopped the command: marked
			// here too, so the cause crosses a worker's wire as words.
			fmt.Fprintf(logw, "[osbench: %v]\n", err)
			err = engine.Infra(engine.CauseDiskQuota, err)
		}
		if ferr := errors.Join(logR.Flush(), outR.Flush()); ferr != nil && err == nil {
			err = ferr
		}
		return res, err
	}

	sourcesBefore, err := testSources(repo)
	if err != nil {
		return fmt.Errorf("hashing the test sources: %w", err)
	}
	testCode, bounded, err := readOnlyTestFiles(repo)
	if err != nil {
		return fmt.Errorf("listing the test code: %w", err)
	}
	if !bounded {
		fmt.Fprintf(logw, "[osbench: more than %d test code files; none is read-only for this run, the check after it stays]\n", maxReadOnlyTestFiles)
	}
	expected, err := rn.Expected(repo, cfg.Platform, cfg.Env)
	if err != nil {
		rc.Log.Warn().Err(err).Msg("cannot list expected tests; missing tests will go unnoticed")
	}
	// The suite runs once, and once more when its test phase timed out:
	// a timeout is the code's (cached) only when it reproduces with the
	// same limit; one that does not was the machine's, and the second
	// run's results are the run's. Durations never enter a key.
	var (
		results     []schemas.TestResult
		buildOK     bool
		testRes     executors.Result
		coverageRaw []byte
	)
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			// A fresh tree and fresh evidence records: nothing the first
			// attempt left behind may decide the second.
			if err := os.Rename(repo, repo+"-timed-out"); err != nil {
				logw.Close()
				return fmt.Errorf("setting the timed-out attempt aside: %w", err)
			}
			if err := src.Materialize("source", repo); err != nil {
				logw.Close()
				return err
			}
			if err := relaunch(); err != nil {
				logw.Close()
				return err
			}
		}
		var infraErr error
		results, buildOK, testRes, coverageRaw, infraErr, err = runSuite(suiteRun{
			cfg: cfg, rc: rc, repo: repo, parser: parser, expected: expected, timeout: timeout, buildTimeout: buildTimeout,
			relaunch: relaunch, run: run, logw: logw, watch: watch, wrap: wrap,
		})
		if err != nil {
			logw.Close()
			return err
		}
		if infraErr != nil {
			fmt.Fprintf(logw, "[osbench: %v]\n", infraErr)
			logw.Close()
			return fmt.Errorf("%w; see the log (osbench logs %s)", infraErr, rc.Step.ID)
		}
		if !testRes.TimedOut {
			if attempt > 1 {
				fmt.Fprintf(logw, "[osbench: the second run did not time out: the first run's timeout was the machine's (%s); this run's results are kept]\n", CauseNotReproduced)
			}
			break
		}
		if attempt > 1 {
			fmt.Fprintf(logw, "[osbench: the timeout reproduced with the same limit (%s): the code hangs]\n", timeout)
			break
		}
		fmt.Fprintf(logw, "[osbench: the test phase timed out after tests started; running the suite again with the same limit (%s) to see whether the timeout reproduces]\n", timeout)
	}
	ev, err := collectEvidence(evidenceRun{
		runner: rn, repo: repo, platform: cfg.Platform, env: cfg.Env, expected: expected,
		records: records, coverage: coverageRaw, ran: buildOK, log: logw,
		list: func(argv []string, out io.Writer) (executors.Result, error) {
			return run(Command{Argv: argv}, out, timeout, true)
		},
	}, results)
	if err != nil {
		logw.Close()
		return err
	}
	results = ev.results
	results = markSkipped(results, expected, cfg.Skip)
	var unmatched []string
	if known, complete := knownTests(rn, expected, ev.definitions, results, testRes.TimedOut); complete {
		unmatched = unmatchedSkips(known, cfg.Skip)
	}
	for _, entry := range unmatched {
		fmt.Fprintf(logw, "[osbench: skip entry %q matches no test of this platform]\n", entry)
		rc.Log.Warn().Str("step", rc.Step.ID).Str("skip", entry).Msg("skip entry matches no test on this platform; it does nothing")
	}
	if err := logw.Close(); err != nil {
		return err
	}
	if err := unmatchedSkipsError(rc.Step, cfg.Platform, unmatched); err != nil {
		return err
	}
	if results, err = noTestsReported(results, testRes); err != nil {
		return fmt.Errorf("%v; see the log (osbench logs %s)", err, rc.Step.ID)
	}

	sourcesAfter, err := testSources(repo)
	if err != nil {
		return fmt.Errorf("hashing the test sources after the run: %w", err)
	}
	tr := schemas.TestResults{Repository: cfg.Repository, Platform: cfg.Platform, Parser: cfg.Parser, Tests: results, Definitions: ev.definitions,
		ChangedTestFiles: changedTestSources(sourcesBefore, sourcesAfter)}
	if tr.Tests == nil {
		tr.Tests = []schemas.TestResult{}
	}
	if err := rc.PutJSON("tests.json", tr); err != nil {
		return err
	}
	label := summarize(results)
	if len(unmatched) > 0 {
		label += fmt.Sprintf("; skip entries matching no test: %s", strings.Join(unmatched, ", "))
	}
	rc.SetLabel(label)
	if cfg.Coverage != "" {
		// Go's multi-package profiles come in the order the packages
		// finished: canonical, so a rerun stores the same bytes.
		raw := coverage.CanonicalProfile(replaceWorkDir(coverageRaw, repo))
		if err := rc.PutBytes("coverage.raw", raw); err != nil {
			return err
		}
	}
	return nil
}

// readReport reads the report file the test command wrote, and copies it
// into the log so a person sees what the parser read. A missing report is
// an empty one: a suite that crashed before writing it reports no test, and
// its expected tests are missing.
func readReport(repo, report string, logw io.Writer) ([]byte, error) {
	// The tested code wrote it: read as untrusted (no links, no FIFOs,
	// size-capped, never outside the repository).
	b, err := readUntrusted(repo, report)
	if isMissing(err) || errors.Is(err, errNotRegular) {
		fmt.Fprintf(logw, "[osbench: no report %s (%v): the parser reads nothing]\n", report, err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", report, err)
	}
	fmt.Fprintf(logw, "[osbench: report %s, %d bytes]\n", report, len(b))
	logw.Write(b)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		fmt.Fprintln(logw)
	}
	return b, nil
}

// commandArgv turns a command into what the executor runs.
func commandArgv(c Command) ([]string, error) { return c.ExecArgv() }

// replaceWorkDir swaps every spelling of the repo's absolute path for
// WorkToken: the host's, and Wine's view of it through drive Z: (with either
// separator, either case of the drive letter, and JSON-escaped backslashes).
// Coverage tools write absolute paths; without this a rerun in another
// scratch dir would never hit early cutoff.
func replaceWorkDir(b []byte, repo string) []byte {
	if len(b) == 0 {
		return b
	}
	slash := filepath.ToSlash(repo)
	back := strings.ReplaceAll(slash, "/", `\`)
	forms := []string{repo, slash}
	if strings.HasPrefix(slash, "/") {
		for _, drive := range []string{"Z:", "z:"} {
			forms = append(forms, drive+back, drive+slash, drive+strings.ReplaceAll(back, `\`, `\\`))
		}
	}
	// Longest first, so a form is never cut by a shorter one it contains.
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	for _, form := range forms {
		b = bytes.ReplaceAll(b, []byte(form), []byte(WorkToken))
	}
	return b
}
