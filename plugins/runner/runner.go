// Package runner is where a test runner lives (issue 21): one package per
// runner under plugins/runner (gotest, libtest, ctest, junit, tap, trx,
// regex), each registering a Runner that holds everything the test step
// and the checks around it know about that runner — its parser, its skip
// style, the tests it is known to run, the launcher it installs, the tests
// it expects from the restored test files, the evidence and test
// definitions it collects, the output imitations the tamper scan looks
// for — and plugins/runner/all, which imports every one. The test step
// wires what a run's runner holds and never asks which runner it is.
//
// A run is named by its language and its parser (the manifest's), and its
// runner has two sides (For):
//
//   - what reads the output follows the parser: the runner registered for
//     the run's parser reads it, says which tests the run shows exist
//     (Known), and is what the tamper scan's output rule imitates;
//   - what proves the tests ran follows the language: the programs a
//     language's build makes are what its home runner's launcher, expected
//     tests and evidence know (Go's test binaries, cargo's targets, the
//     programs CMake registers with CTest), whatever prints their results.
//     A c-cmake run read by the junit runner (its gtest runner) is
//     evidenced by CTest's listing and gcov, as every c-cmake run is.
//
// Every part of a Runner is set: a runner without one says so with this
// package's None value (NoOutput, NoSkipStyle, KnowsNone, NoLaunch,
// NoExpected, NoEvidence), so the conformance suite (runnertest) can tell
// a part forgotten from a part the runner does not have.
package runner

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/entrytrace"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/registry"
	"github.com/osbench/osbench/schemas"
)

// Runner is one test runner.
type Runner struct {
	// Name is the runner's stable name ("go-test", "libtest", ...).
	Name string
	// Version names the rules the runner follows now: "1" until its
	// behaviour changes on purpose. Like a parser's, it enters the key of
	// the test steps it drives only when it is not "1" (KeyVersion), so
	// today's keys are what they were.
	Version string
	// VersionPlatforms, when set, are the only platforms whose runs
	// Version's change concerns (the entry tracer of libtest's and
	// CTest's version 2 runs on Linux alone): on any other the runner
	// behaves as at version 1, and its runs keep the keys — and the
	// cached results — they had (KeyVersion). nil: every platform.
	VersionPlatforms []string
	// PlatformVersions, when set, are versions of their own for the runs
	// on some platforms, ahead of Version (go-test's Windows runs, whose
	// evidence changed with the Windows entry tracer after the Linux
	// runs' had): a platform listed here has that version, whatever
	// VersionPlatforms says.
	PlatformVersions map[string]string
	// Parser is the name of the parser (plugins/parsers) that reads the
	// runner's output; no two runners share one.
	Parser string
	// SkipStyle is the skip style (plugins/lang) that tells the runner to
	// leave tests out, as presets and `osbench init` name it; NoSkipStyle
	// when the runner has no flag for it.
	SkipStyle string
	// Home is the language whose build makes the programs this runner
	// drives ("go", "rust", "c"), "" for none: the language-bound parts
	// (Launch, Expected, Evidence) of every run of that language are this
	// runner's. A runner that is no language's home has the None ones.
	Home string
	// Sample is a piece of the runner's own output, for the conformance
	// suite: the parser reads its tests, the output rule flags it.
	Sample Sample
	// Output is the tamper scan's rule for text that imitates the
	// runner's output (NoOutput: the runner's output has no shape a
	// pattern can tell, as a manifest's regex).
	Output *OutputRule
	// Started is the mark of a line that says the runner began running
	// tests (not only building or downloading), which tells the machine's
	// timeouts from the code's (steps/testrun/infra.go); NoStartMark when
	// the runner prints none, and any run counts as started.
	Started *regexp.Regexp
	// Rewritable says of a test id the runner's parser reads whether the
	// test is defined where a patch may rewrite it and nothing puts it
	// back: libtest's doctests live in the doc comments of source files
	// (and in the files those include), which the apply step restores no
	// more than any other source text. Such a test is never FAIL_TO_PASS
	// (plugins/label): a patch would pass it by editing the example, not
	// the code. NoneRewritable when every test the runner reports is
	// defined in test files or in-source test code the task restores.
	Rewritable func(id string) bool
	// Known lists the tests a run shows exist, and whether that is all
	// of them (the skip check judges entries only against a complete
	// list); KnowsNone when the runner's output cannot tell.
	Known func(KnownRun) ([]string, bool)
	// Launch installs the runner's launcher in the step's work dir before
	// the suite runs, and again before the tests when a build command ran
	// (which could have rewritten it); nil Launch result: none. NoLaunch
	// for runners without one.
	Launch func(work string) (*Launch, error)
	// Expected lists the tests the restored test files define, before the
	// run (the parser marks those never reported as missing); NoExpected
	// when only a run can tell.
	Expected func(repo, platform string, env map[string]string) ([]string, error)
	// Evidence marks results with what the runner's own artifacts show
	// ran, and lists the run's test definitions (nil: none); NoEvidence
	// when the runner leaves none.
	Evidence func(Run, []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error)
}

// Sample is a recorded piece of a runner's output.
type Sample struct {
	Output  string          // what the runner prints (or writes to its report)
	Options parsers.Options // what the parser is given besides (a regex's pattern)
	IDs     []string        // the test ids the runner's parser reads from it, sorted
	// Rewritable are those of IDs the runner's Rewritable names.
	Rewritable []string
}

// OutputRule is a tamper-scan rule: a pattern over single patch lines
// (added ones; every scanned file, since a script or a build file can
// print as well as a source file).
type OutputRule struct {
	ID      string // "runner-output-<runner>"
	Reason  string // what a finding says
	Pattern *regexp.Regexp
}

// KnownRun is what Known reads of a finished run.
type KnownRun struct {
	Definitions *schemas.TestDefinitions
	Results     []schemas.TestResult
	TimedOut    bool
}

// Launch is a launcher a runner installed for one run.
type Launch struct {
	// Env adds the launcher to the run's environment.
	Env func(env []string) []string
	// Writable are the launcher's directories: writable for the launcher,
	// which the executor's test sandbox keeps read-only for the tested
	// programs.
	Writable []string
	// Records is the directory the launcher records the programs it ran
	// in, which Evidence reads (Run.Records).
	Records string
	// Wrap, when set, is what the test command (its executor argv) runs
	// inside, on platform, for the repository at repo (an absolute path):
	// for runners that start their test programs with no launcher hook
	// (CTest), the wrapper follows the whole command. nil: none.
	Wrap func(argv []string, platform, repo string) []string
}

// Run is what Evidence reads of a finished run.
type Run struct {
	Repo, Platform string
	Env            map[string]string // the manifest's environment
	Expected       []string          // Expected's tests
	Records        string            // the launcher's record directory, "" none
	Coverage       []byte            // the raw coverage file the run wrote
	Ran            bool              // the build succeeded and the tests ran
	Log            io.Writer         // the step's log
	// List runs a listing command in the run's environment; its stdout
	// goes to out only.
	List func(argv []string, out io.Writer) (executors.Result, error)
	// Read reads a file the tested code could have written: no links, no
	// FIFOs, size-capped, never outside dir (the step's reader).
	Read func(dir, name string) ([]byte, error)
	// WorkToken replaces the repository's absolute path (every spelling)
	// with schemas.WorkToken, so definitions do not name the scratch dir.
	WorkToken func(b []byte) []byte
}

// The None parts.
var (
	// NoOutput: no output rule.
	NoOutput = &OutputRule{ID: "none"}
	// NoStartMark: no line says the tests started (StartMark is nil).
	NoStartMark = regexp.MustCompile(`$none^`)
)

// NoneRewritable: every test the runner reports is defined in code the
// task restores before a run (test files, in-source test items).
func NoneRewritable(string) bool { return false }

// StartMark is r's Started, nil for NoStartMark.
func (r *Runner) StartMark() *regexp.Regexp {
	if r.Started == NoStartMark {
		return nil
	}
	return r.Started
}

// NoSkipStyle: no skip style.
const NoSkipStyle = "none"

// KnowsNone: the run's output does not tell which tests exist.
func KnowsNone(KnownRun) ([]string, bool) { return nil, false }

// NoLaunch: no launcher.
func NoLaunch(string) (*Launch, error) { return nil, nil }

// NoExpected: no tests known before a run.
func NoExpected(string, string, map[string]string) ([]string, error) { return nil, nil }

// NoEvidence: the results as they are, no definitions.
func NoEvidence(_ Run, results []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error) {
	return results, nil, nil
}

// KnowsResults: a runner that reports every test it leaves out (TAP's
// "# SKIP") shows every test in its results, unless the run was cut short.
func KnowsResults(k KnownRun) ([]string, bool) {
	if k.TimedOut || len(k.Results) == 0 {
		return nil, false
	}
	ids := make([]string, len(k.Results))
	for i, r := range k.Results {
		ids[i] = r.ID
	}
	return ids, true
}

var builtin = registry.New[*Runner]("test runner")

// Register makes a runner available; called from the runner packages'
// init functions. A runner without a name, or a name or parser taken
// twice, is a programming error and panics (the registries' rule).
func Register(r *Runner) {
	for _, n := range builtin.Names() {
		if o, _ := builtin.Lookup(n); o.Parser == r.Parser {
			panic(fmt.Sprintf("register test runner %q: parser %q is runner %q's", r.Name, r.Parser, o.Name))
		}
	}
	builtin.Register(r.Name, r)
}

// Lookup returns the runner registered under name.
func Lookup(name string) (*Runner, bool) { return builtin.Lookup(name) }

// Names returns the registered runners' names, sorted.
func Names() []string { return builtin.Names() }

// ForParser is the runner that reads parser's output.
func ForParser(parser string) (*Runner, bool) {
	for _, n := range builtin.Names() {
		if r, _ := builtin.Lookup(n); r.Parser == parser {
			return r, true
		}
	}
	return nil, false
}

// Home is the home runner of language, nil when it has none.
func Home(language string) *Runner {
	if language == "" {
		return nil
	}
	for _, n := range builtin.Names() {
		if r, _ := builtin.Lookup(n); r.Home == language {
			return r
		}
	}
	return nil
}

// For is the runner of a run of language's tests read by parser: the
// parser's runner, with the language-bound parts (Launch, Expected,
// Evidence) of the language's home runner, or the None ones when the
// language has none (see the package comment).
func For(language, parser string) (*Runner, error) {
	r, ok := ForParser(parser)
	if !ok {
		return nil, fmt.Errorf("no test runner reads parser %q (plugins/runner/all registers them)", parser)
	}
	out := *r
	if h := Home(language); h != nil {
		out.Launch, out.Expected, out.Evidence = h.Launch, h.Expected, h.Evidence
	} else {
		out.Launch, out.Expected, out.Evidence = NoLaunch, NoExpected, NoEvidence
	}
	return &out, nil
}

// KeyVersion is what a run's runners put in the key of a run on
// platform: "" while both the parser's runner and the language's home
// runner are at version 1 there (every key made before runners had
// versions), else their versions, named.
func KeyVersion(language, parser, platform string) string {
	var parts []string
	if r, ok := ForParser(parser); ok && r.versionOn(platform) != "1" {
		parts = append(parts, r.Name+"="+r.versionOn(platform))
	}
	if h := Home(language); h != nil && h.versionOn(platform) != "1" && h.Parser != parser {
		parts = append(parts, h.Name+"="+h.versionOn(platform))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// versionOn is the runner's version for runs on platform.
func (r *Runner) versionOn(platform string) string {
	if v, ok := r.PlatformVersions[platform]; ok {
		return v
	}
	if r.VersionPlatforms == nil || slices.Contains(r.VersionPlatforms, platform) {
		return r.Version
	}
	return "1"
}

// ErrNoTracer is the error of a Launch that wanted the entry tracer on a
// host that has one (Linux on amd64) where ptrace is not permitted: the
// test step fails the run as the machine's (never cached, retried,
// reported), since a run without the tracer would give other verdicts
// than the same run elsewhere — forged passes evidenced — and the step's
// key cannot tell the two machines apart.
var ErrNoTracer = errors.New("the entry tracer cannot trace here")

// Tracer is the program a launcher runs as the entry tracer
// (entrytrace.Program), "" on a platform that has none, or ErrNoTracer
// when this host should have one and ptrace is not permitted.
func Tracer() (string, error) {
	p := entrytrace.Program()
	if p == "" {
		return "", nil
	}
	if err := entrytrace.Available(); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoTracer, err)
	}
	return p, nil
}
