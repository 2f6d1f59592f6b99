package schemas

// TestResult is one test's normalised outcome. ID is stable across operating
// systems: package or binary, then the test name, joined with "/".
type TestResult struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	// Evidence is EvidenceRan when a channel other than the test output
	// shows the test's code ran (see Evidence*); "" when the run has no
	// such channel for this test. A test whose channel denies that it ran
	// is not a pass, whatever the output said.
	Evidence string `json:"evidence,omitempty"`
	// Reason says why the status is not the one the output reported (a
	// pass the evidence denies); "" otherwise.
	Reason string `json:"reason,omitempty"`
}

// TestResult.Evidence values.
const (
	// EvidenceRan: the runner's own artifacts show the test's code ran: Go,
	// the test binary wrote its coverage profile at the end of M.Run; C and
	// C++, the gcov counts of the test program's main cover the test's
	// runs; Rust, the llvm-cov counts of the test function are non-zero.
	EvidenceRan = "ran"
	// EvidenceDenied: the channel exists and shows the test's code did not
	// run to its end; the status is then error.
	EvidenceDenied = "denied"
)

// TestDefinitions are what counts as a test in a run, as the runner lists
// them (CTest's --show-only=json-v1, cargo's targets with their harness
// settings, the Go test functions of the restored test files): names, commands and properties with the work dir replaced by
// a stable token. Recorded in the task from the complete run, and compared
// at evaluation: a patch may change build files, not what a test runs.
type TestDefinitions struct {
	Runner string           `json:"runner"` // "ctest" | "go" | "cargo"
	Digest string           `json:"digest"` // "sha256:<hex>" of the canonical JSON of Tests
	Tests  []TestDefinition `json:"tests"`
}

// TestDefinition is one test as its runner defines it.
type TestDefinition struct {
	Name       string            `json:"name"`
	Command    []string          `json:"command,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
}

// TestResults is the tests.json artifact of one test run on one platform.
// Tests are sorted by ID and IDs are unique.
type TestResults struct {
	Repository string       `json:"repository"`
	Platform   string       `json:"platform"`
	Parser     string       `json:"parser"`
	Tests      []TestResult `json:"tests"`
	// Definitions are the run's test definitions, nil when its runner has
	// no listing osbench reads.
	Definitions *TestDefinitions `json:"definitions,omitempty"`
	// ChangedTestFiles are the test sources of the repository (files a
	// language names as tests: x_test.go, x_test.c) the run changed, added or
	// removed, sorted: a test program may not rewrite the tests the runner
	// compiles after it. Absent when none.
	ChangedTestFiles []string `json:"changed_test_files,omitempty"`
}

// FileCoverage is the coverage of one source file. A file that appears here
// was compiled on the platform; Executed lists the lines that ran, Instrumented
// the lines the tool could have reported (executed or not). A file absent from
// Coverage.Files was not compiled there, which is not the same as "compiled,
// not executed" (a file listed with an empty Executed).
type FileCoverage struct {
	Path         string `json:"path"`
	Executed     []int  `json:"executed"`
	Instrumented []int  `json:"instrumented"`
}

// Coverage is the coverage.json artifact: repo-relative, "/"-separated paths,
// files sorted by path, line numbers ascending and unique.
type Coverage struct {
	Repository string         `json:"repository"`
	Platform   string         `json:"platform"`
	Format     string         `json:"format"`
	Files      []FileCoverage `json:"files"`
}

// PlatformEvidence is what a task records of its complete runs on one
// platform, for the evaluation to hold a patched run to: the digest of the
// test definitions, and the required tests whose runner artifacts showed
// them running in every complete run.
type PlatformEvidence struct {
	// Definitions is TestDefinitions.Digest of the complete runs; "" when
	// the runner has no listing osbench reads.
	Definitions string `json:"test_definitions,omitempty"`
	// Ran are the required tests (sorted) that an evaluated run must also
	// show evidence for; a pass without it is not a pass.
	Ran []string `json:"ran"`
}
