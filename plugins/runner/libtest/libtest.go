// Package libtest is the libtest runner: `cargo test`, whose test programs
// print libtest's lines, read by the libtest parser; the home runner of
// Rust. Its definitions are cargo's targets (cargo metadata) and the
// repository's .cargo/config (definitions.go); its evidence, the function
// counts of the llvm-cov export the cargo preset writes (evidence.go),
// and the test functions the entry tracer saw each test program enter
// through the cargo runner it installs (launcher.go): on Linux by ptrace,
// under Wine by osbench's Windows debugger.
package libtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// Name is the runner's name.
const Name = "libtest"

func init() {
	runner.Register(&runner.Runner{
		Name: Name,
		// 2: the entry tracer's evidence on Linux (launcher.go), and
		// under Wine the Windows debugger's (PlatformVersions, since
		// Windows runs kept version 1's keys until then: Windows Rust
		// test steps rerun once). A change to what
		// plugins/executors/wineshim/entrytrace.c records is a bump of
		// the Windows version (the executors'
		// TestTracerSourceChangeBumpsGoTestVersion says so).
		Version:          "2",
		VersionPlatforms: []string{"linux"},
		PlatformVersions: map[string]string{"windows": "2"},
		Parser:           parsers.NameLibtest,
		SkipStyle:        "libtest",
		Home:             "rust",
		Sample: runner.Sample{
			Output: `     Running unittests src/lib.rs (target/debug/deps/rsplat-3a36f829b9c35289)

running 1 test
test paths::tests::separators ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests rsplat

running 1 test
test src/lib.rs - paths::join (line 12) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.21s

`,
			IDs:        []string{"doctest/src/lib.rs - paths::join", "src/lib.rs/paths::tests::separators"},
			Rewritable: []string{"doctest/src/lib.rs - paths::join"},
		},
		Output: &runner.OutputRule{ID: "runner-output-libtest", Reason: "imitates cargo test (libtest) output (test result: ok, test ... ok)",
			Pattern: regexp.MustCompile(`test result: ok\b|\btest \S.{0,200} \.\.\. ok\b`)},
		// libtest's "running N tests".
		Started: regexp.MustCompile(`^running \d+ tests?$`),
		// A doctest is a code block in a doc comment: source text, which
		// the apply step does not put back (the #[cfg(test)] items it
		// does are unit tests, not doctests).
		Rewritable: isDoctest,
		// libtest's --skip drops the tests it leaves out from its output.
		Known:    runner.KnowsNone,
		Launch:   launch,
		Expected: runner.NoExpected,
		Evidence: evidence,
	})
}

// evidence lists cargo's targets as the run's definitions, marks the
// passes whose #[test] function the coverage export saw entered, and
// denies those whose function the entry tracer armed and never saw
// entered.
func evidence(r runner.Run, results []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error) {
	defs, err := listCargo(r)
	if err != nil {
		return results, nil, err
	}
	results = rustEvidence(results, r.Coverage)
	if r.Ran && r.Records != "" {
		results = traceEvidence(results, readRustRecords(r.Records, r.Read), defs)
	}
	return results, defs, nil
}

// listCargo asks cargo for the packages' targets: nil when the repository
// has no Cargo.toml at its root.
func listCargo(r runner.Run) (*schemas.TestDefinitions, error) {
	if st, err := os.Lstat(filepath.Join(r.Repo, "Cargo.toml")); err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	return runner.ListDefinitions(r, "cargo", cargoMetadataArgv, func(b []byte, repo string) (*schemas.TestDefinitions, error) {
		return cargoDefinitions(b, repo, r.Read)
	})
}

// isDoctest: the libtest parser's ids of doctests ("doctest/src/lib.rs -
// add"), rustdoc's programs for the examples in doc comments.
func isDoctest(id string) bool { return strings.HasPrefix(id, "doctest/") }
