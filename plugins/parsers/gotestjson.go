package parsers

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// GoTestJSON parses the event stream of `go test -json` (cmd/test2json).
//
// A test id is "<import path>/<test name>", where a subtest keeps its own
// "/"-separated path: "example.com/m/pkg/TestA/sub_case". Tests, subtests,
// benchmarks, examples and fuzz targets are all results of their own.
//
// The rules, which turn a stream that may be cut short or interleaved with
// plain text (compiler errors, vet output) into one status per id:
//
//   - pass, skip and fail events give pass, skip and fail. A "--- BENCH"
//     report or a benchmark's result line gives pass, since benchmarks that
//     succeed print no "--- PASS".
//   - A test package that failed to build is recognised by a package-level
//     fail event with FailedBuild (Go 1.24+), by the text
//     "FAIL\t<pkg> [build failed]" or "[setup failed]" (older Go, or
//     GODEBUG=gotestjsonbuildtext=1), or by compiler output for a package
//     ("# <pkg>" printed as text, or a build-fail event) that then reported
//     no test and did not pass. Every Expected test of that package is
//     build-failed; when none is expected the package's import path itself
//     is reported build-failed, so a build failure is never silent.
//   - A crash ("panic: " or "fatal error: " at the start of an output line,
//     in a package that did not pass): the tests whose fail reports come
//     right around it, with no other test event between, are the one that
//     panicked and the parents it took down (test2json reports a parent's
//     failure only after the panic text); they get error.
//   - "panic: test timed out after": the tests the panic lists as running,
//     and every other test of the package that started and never finished,
//     get timeout.
//   - Otherwise a test that started and never finished gets pass if its
//     package passed (the binary vouched for it) and error if not (the binary
//     died or the stream was cut), as if a fail event had been synthesised.
//   - A package that failed without reporting a single test gets its import
//     path as an id with error (timeout if it timed out), unless Expected
//     names tests in it.
//   - Expected tests never seen are missing.
//   - An id reported more than once (-count=N) keeps its worst status, in the
//     order pass < skip < missing < fail < timeout < error < build-failed.
type GoTestJSON struct{}

var _ Parser = (*GoTestJSON)(nil)

// Parse implements Parser. It fails only when r cannot be read.
func (*GoTestJSON) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	run := &goRun{pkgs: map[string]*goPackage{}}
	lines := newLineScanner(r)
	lineNo := 0
	for lines.Scan() {
		lineNo++
		line := lines.Bytes()
		if len(line) > 0 && line[0] == '{' {
			var ev goEvent
			if json.Unmarshal(line, &ev) == nil {
				run.handleEvent(&ev)
				continue
			}
		}
		run.handleText(string(line))
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("go-test-json: reading line %d: %w", lineNo+1, err)
	}
	return run.results(opts.Expected), nil
}

// goEvent is one test2json event, limited to the fields the parser reads.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
	// ImportPath is set instead of Package on the build-output and build-fail
	// events of Go 1.24+.
	ImportPath string
}

// goRun is the state of one parse: what each package has reported so far.
type goRun struct {
	pkgs map[string]*goPackage
}

// goPackage is what one test package has reported.
type goPackage struct {
	tests map[string]*goTest
	// result is the package-level verdict ("pass", "fail", "skip"); empty
	// while the stream has not given one.
	result string
	// buildFailed: the test binary was never built (or set up).
	buildFailed bool
	// compileErrors: compiler output named the package. It proves a build
	// failure only if the package then reports nothing (warnings print
	// headers too); results decides.
	compileErrors bool
	crashed       bool
	timedOut      bool
	// listingRunning: the timeout panic's "running tests:" list is being read.
	listingRunning bool
	// failChain holds the tests whose fail reports came since the last other
	// test event: after a panic, the panicking test and its parents.
	failChain []string
	// inCrashChain: a crash was printed and no other test event has come
	// since, so a fail event now is a parent that test2json reports late.
	inCrashChain  bool
	crashSuspects []string
}

// goTest is what one test has reported.
type goTest struct {
	status schemas.Status // worst terminal status so far; empty while none
	open   bool           // started and not finished
}

func (t *goTest) finish(s schemas.Status) {
	t.open = false
	if t.status == "" {
		t.status = s
		return
	}
	t.status = worse(t.status, s)
}

func (r *goRun) pkg(path string) *goPackage {
	p, ok := r.pkgs[path]
	if !ok {
		p = &goPackage{tests: map[string]*goTest{}}
		r.pkgs[path] = p
	}
	return p
}

func (p *goPackage) test(name string) *goTest {
	t, ok := p.tests[name]
	if !ok {
		t = &goTest{}
		p.tests[name] = t
	}
	return t
}

func (r *goRun) handleEvent(ev *goEvent) {
	switch ev.Action {
	case "build-output":
		// Headers here also precede mere warnings; build-fail is the signal.
		return
	case "build-fail":
		if pkg, ok := testPackageOf(ev.ImportPath); ok {
			r.pkg(pkg).compileErrors = true
		}
		return
	}
	p := r.pkg(ev.Package)
	if ev.Test == "" {
		r.handlePackageEvent(p, ev)
		return
	}
	switch ev.Action {
	case "run":
		p.test(ev.Test).open = true
		p.endFailChain()
	case "pause", "cont":
		p.endFailChain()
	case "pass", "bench":
		p.test(ev.Test).finish(schemas.StatusPass)
		p.endFailChain()
	case "skip":
		p.test(ev.Test).finish(schemas.StatusSkip)
		p.endFailChain()
	case "fail":
		p.test(ev.Test).finish(schemas.StatusFail)
		p.failChain = append(p.failChain, ev.Test)
		if p.inCrashChain {
			p.crashSuspects = append(p.crashSuspects, ev.Test)
		}
	case "output":
		for _, line := range outputLines(ev.Output) {
			p.handleOutputLine(line)
			if isBenchmarkResult(ev.Test, line) {
				p.test(ev.Test).finish(schemas.StatusPass)
			}
		}
	}
	// Other actions (attr, artifacts, and any added later) carry no status.
}

func (r *goRun) handlePackageEvent(p *goPackage, ev *goEvent) {
	switch ev.Action {
	case "pass", "skip":
		// A fail seen earlier (a stream of several runs) is not overturned.
		if p.result != "fail" {
			p.result = ev.Action
		}
	case "fail":
		p.result = "fail"
		if ev.FailedBuild != "" {
			p.buildFailed = true
		}
	case "output":
		for _, line := range outputLines(ev.Output) {
			p.handleOutputLine(line)
			if pkg, ok := buildFailedPackage(line); ok {
				r.pkg(pkg).buildFailed = true
			}
		}
	}
}

// handleText reads a line that is not a JSON event: the go command's own
// messages about builds, printed as text by Go before 1.24.
func (r *goRun) handleText(line string) {
	if pkg, ok := buildFailedPackage(line); ok {
		r.pkg(pkg).buildFailed = true
		return
	}
	if pkg, ok := compilerHeaderPackage(line); ok {
		r.pkg(pkg).compileErrors = true
	}
}

// handleOutputLine looks for the runtime's crash and timeout messages in a
// line of the test binary's output.
func (p *goPackage) handleOutputLine(line string) {
	if strings.HasPrefix(line, "panic: test timed out after") {
		p.timedOut = true
		p.listingRunning = true
		return
	}
	if p.listingRunning {
		if line == "\trunning tests:" {
			return
		}
		if name, ok := runningTestName(line); ok {
			p.test(name).open = true
			return
		}
		p.listingRunning = false
	}
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
		p.crashed = true
		p.inCrashChain = true
		p.crashSuspects = append(p.crashSuspects, p.failChain...)
	}
}

// endFailChain notes a test event other than a failure: the failures before
// it cannot be the parents of a test that panics after it. (test2json holds a
// parent's fail report back until the next framing line, so a panicking
// subtest's parent may report its failure only after the panic.)
func (p *goPackage) endFailChain() {
	p.failChain = nil
	p.inCrashChain = false
}

// results applies the rules of GoTestJSON to what the stream reported.
func (r *goRun) results(expected []string) []schemas.TestResult {
	expectedIn := map[string]int{}
	for _, id := range expected {
		if owner, ok := r.owner(id); ok {
			expectedIn[owner]++
		}
	}
	set := resultSet{}
	for path, p := range r.pkgs {
		reported := p.hasResults()
		if p.compileErrors && !reported && p.result != "pass" && p.result != "skip" {
			p.buildFailed = true
		}
		for name, t := range p.tests {
			status := t.status
			if t.open {
				status = p.unfinishedStatus()
				if t.status != "" {
					status = worse(t.status, status)
				}
			}
			if status != "" {
				set.add(testID(path, name), status)
			}
		}
		if p.crashed && p.result != "pass" {
			for _, name := range p.crashSuspects {
				set.add(testID(path, name), schemas.StatusError)
			}
		}
		if !reported && expectedIn[path] == 0 {
			switch {
			case p.buildFailed:
				set.add(path, schemas.StatusBuildFailed)
			case p.result == "fail" || p.result == "":
				set.add(path, p.unfinishedStatus())
			}
		}
	}
	for _, id := range expected {
		if _, seen := set[id]; seen {
			continue
		}
		status := schemas.StatusMissing
		if owner, ok := r.owner(id); ok && r.pkgs[owner].buildFailed {
			status = schemas.StatusBuildFailed
		}
		set.add(id, status)
	}
	return set.sorted()
}

// hasResults reports whether any test of the package started or finished.
func (p *goPackage) hasResults() bool {
	for _, t := range p.tests {
		if t.open || t.status != "" {
			return true
		}
	}
	return false
}

// unfinishedStatus is the status of a test of p that started and never got a
// terminal event.
func (p *goPackage) unfinishedStatus() schemas.Status {
	switch {
	case p.timedOut:
		return schemas.StatusTimeout
	case p.result == "pass":
		return schemas.StatusPass
	default:
		return schemas.StatusError
	}
}

// owner returns the package of the stream that test id belongs to: the
// longest package path followed by "/" and a name that looks like a test
// function, so that "example.com/m/sub/TestX" is never attributed to
// "example.com/m" when only the latter appears in the stream.
func (r *goRun) owner(id string) (string, bool) {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] != '/' {
			continue
		}
		if _, ok := r.pkgs[id[:i]]; ok && isTestName(id[i+1:]) {
			return id[:i], true
		}
	}
	// test2json run without -p reports tests without a package.
	if _, ok := r.pkgs[""]; ok && isTestName(id) {
		return "", true
	}
	return "", false
}

// testID joins a package path and a test name into an id.
func testID(pkg, test string) string {
	if pkg == "" {
		return test
	}
	return pkg + "/" + test
}

// isTestName reports whether name starts like a name the testing package
// runs: a test, benchmark, example or fuzz target, perhaps with subtests.
func isTestName(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// outputLines splits an event's output into lines without their newline.
// test2json sends one line per event, but a long line may come in pieces.
func outputLines(output string) []string {
	output = strings.TrimSuffix(output, "\n")
	lines := strings.Split(output, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimSuffix(line, "\r")
	}
	return lines
}

// runningTestName reads one entry of the "running tests:" list a timeout
// panic prints: "\t\tTestName (2s)".
func runningTestName(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "\t\t")
	if !ok {
		return "", false
	}
	name, duration, ok := strings.Cut(rest, " (")
	if !ok || name == "" || !strings.HasSuffix(duration, ")") {
		return "", false
	}
	return name, true
}

// isBenchmarkResult reports whether line is the result line the testing
// package prints for benchmark name: the name, an optional "-GOMAXPROCS"
// suffix, blanks, then the iteration count.
func isBenchmarkResult(name, line string) bool {
	if !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	rest, ok := strings.CutPrefix(line, name)
	if !ok {
		return false
	}
	if procs, ok := strings.CutPrefix(rest, "-"); ok {
		rest = strings.TrimLeft(procs, "0123456789")
		if len(rest) == len(procs) {
			return false
		}
	}
	count := strings.TrimLeft(rest, " \t")
	return len(count) < len(rest) && count != "" && count[0] >= '0' && count[0] <= '9'
}

// buildFailedPackage recognises the line go test prints for a test package
// that was not built or set up: "FAIL\t<pkg> [build failed]" or
// "FAIL\t<pkg> [setup failed]".
func buildFailedPackage(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "FAIL\t")
	if !ok {
		return "", false
	}
	for _, suffix := range []string{" [build failed]", " [setup failed]"} {
		if pkg, ok := strings.CutSuffix(rest, suffix); ok && isImportPath(pkg) {
			return pkg, true
		}
	}
	return "", false
}

// compilerHeaderPackage recognises the "# <pkg>" line the go command prints
// above a package's compiler output, and returns the test package whose
// build it concerns (see testPackageOf).
func compilerHeaderPackage(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "# ")
	if !ok {
		return "", false
	}
	return testPackageOf(rest)
}

// testPackageOf reads a package as the go command names it in build output,
// "<pkg>" or "<pkg> [<test pkg>.test]", and returns the test package whose
// build it concerns: the package itself, or the one whose test binary the
// variant was compiled for (which is how an external "_test" package or a
// dependency recompiled for a test is reported).
func testPackageOf(name string) (string, bool) {
	pkg, variant, hasVariant := strings.Cut(name, " ")
	if hasVariant {
		inner, ok := strings.CutPrefix(variant, "[")
		if !ok {
			return "", false
		}
		if inner, ok = strings.CutSuffix(inner, ".test]"); !ok {
			return "", false
		}
		pkg = inner
	}
	if !isImportPath(pkg) {
		return "", false
	}
	return pkg, true
}

// isImportPath is a loose check that s can be a package path: the go command
// never prints one that is empty or contains blanks.
func isImportPath(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\r\n")
}
