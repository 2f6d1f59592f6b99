// Package entrytrace runs a program and reports which of a chosen set of
// its functions it entered, as seen from outside the program: the evidence
// a tested process cannot write.
//
// Today a test run's proof that a test ran — test2json's framing, a Go
// coverage profile, gcov's .gcda files, a .profraw — is written by the
// tested process itself, so a patch's init() can write all of it without
// running a test (docs/security.md, "Forging results"). entrytrace is the
// channel the process cannot reach: a tracer, another process, puts a
// breakpoint on the first instruction of every chosen function (a test
// function of the restored test files), and records each one the first
// time a thread of the program executes it. The tracer then takes the
// breakpoint away, so a test costs one trap, whatever it does.
//
// What an entry proves: the program executed the first instruction of
// that function (or jumped to its address after rewriting its own text,
// which needs mprotect on code — a forger that does so has left the
// harness far behind, and the in-process channels still judge pass or
// fail). What it does not prove: that the test passed. Entry evidence is
// a second, unforgeable condition beside the runner's own report, never a
// replacement for it.
//
// Only Linux on amd64 has a tracer (ptrace); elsewhere Trace returns
// ErrUnsupported. Under Wine it does not apply (Wine uses ptrace itself
// and a PE image is not the ELF file being run): there a Windows debugger
// does the same (wine.go).
package entrytrace

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrUnsupported is returned where no tracer exists for the platform.
var ErrUnsupported = errors.New("entrytrace: function-entry tracing needs Linux on amd64")

// Result is what a traced run showed.
type Result struct {
	// Entered are the chosen functions the program entered, sorted.
	Entered []string
	// Entries counts, for each entered function, the processes that
	// entered it (a breakpoint is taken away at its first trap in each
	// process; a process that execs the image again counts again).
	Entries map[string]int
	// Armed are the chosen functions a breakpoint was set on, sorted:
	// those of the symbol table that the selector accepted.
	Armed []string
	// ExitCode is the program's exit status; -1 when a signal ended it.
	ExitCode int
	// Signal names the signal that ended the program, if one did.
	Signal string
	// Images counts the processes of the traced tree that started the
	// target: 0 means the target never ran, so no entry could be seen.
	Images int
}

// Record is what the tracer MainArg starts wrote of one program: the
// functions it armed and those a thread entered.
type Record struct {
	Images  int // processes that started the target
	Armed   map[string]bool
	Entered map[string]bool
	Entries map[string]int // processes that entered each function
}

// NotEntered reports a function the tracer armed and never saw entered:
// the one fact the evidence denies a pass on.
func (r *Record) NotEntered(name string) bool {
	return r != nil && r.Armed[name] && !r.Entered[name]
}

// ParseRecord reads a record the tracer wrote; nil when it could not
// trace (its "untraced" line), or the target never ran, so it saw
// nothing either way.
func ParseRecord(b []byte) *Record {
	r := &Record{Armed: map[string]bool{}, Entered: map[string]bool{}, Entries: map[string]int{}}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "untraced":
			return nil
		case "images":
			fmt.Sscan(val, &r.Images)
		case "armed":
			r.Armed[val] = true
		case "entered":
			r.Entered[val] = true
			r.Entries[val]++
		}
	}
	if r.Images == 0 {
		return nil
	}
	return r
}

// Program is what a launcher runs as the tracer (PROGRAM MainArg …): this
// program — osbench, a worker, or a test binary of osbench's packages,
// each of which links this package, whose init answers MainArg — on the
// one platform that has a tracer; "" elsewhere.
func Program() string {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}

// GoTest reports whether an ELF symbol of a Go test binary is a test,
// example, benchmark or fuzz target of the package under test, and its
// name as `go test` reports it. Symbols look like
// "example.com/m/pkg.TestName" (a test in the package) or
// "example.com/m/pkg_test.TestName" (an external test package); methods,
// closures ("….TestName.func1") and ABI wrappers are not tests.
func GoTest(symbol string) (name string, ok bool) {
	rest := symbol[strings.LastIndexByte(symbol, '/')+1:]
	dot := strings.IndexByte(rest, '.')
	if dot < 0 || strings.ContainsAny(rest[dot+1:], ".()*[]") {
		return "", false
	}
	name = rest[dot+1:]
	for _, prefix := range []string{"Test", "Example", "Benchmark", "Fuzz"} {
		if goTestName(name, prefix) {
			return name, true
		}
	}
	return "", false
}

// CMain selects the main function of a C or C++ program: a test program
// CTest runs (or the c-cmake preset's runner) enters it once per test
// command, and a constructor that ends the process before main never
// does.
func CMain(symbol string) (string, bool) {
	return "main", symbol == "main"
}

// goTestName is the go command's rule (cmd/go's isTest): the prefix, then
// nothing or a character that is not a lower-case letter.
func goTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MainArg, as the first argument of any program that links this package
// on linux/amd64 (the one platform with a tracer)
// (osbench, its workers, a test binary of osbench's own packages), makes
// it the tracer instead of itself:
//
//	PROGRAM __osbench_entrytrace__ [-select=KIND] [-wine|-wine-tree] RECORD TARGET ARGV...
//
// runs ARGV under Trace, watching the tests of the executable TARGET,
// writes RECORD and exits as ARGV did. KIND names the selector: "go"
// (GoTest, the default), "rust" (RustTests of TARGET's crate) or "c"
// (CMain; TARGET is then a directory, and every program run from below it
// is watched: Command.Within). With -wine, ARGV is a Wine launcher and
// the Windows program TARGET with its arguments, and the tracer is the
// Windows debugger osbench builds into its Wine prefixes (wine.go); the
// go-test and libtest runners' launchers use it for Windows test
// programs. With -select=c -wine-tree, TARGET is the repository and ARGV
// a test command (CTest's) that runs its Windows programs through wine:
// each program below TARGET runs under the debugger (winetree). The test
// launchers of the go-test and libtest runners and the ctest runner's
// wrapper use it, with PROGRAM the osbench binary that runs the step.
const MainArg = "__osbench_entrytrace__"
