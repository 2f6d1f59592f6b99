package schemas

// TestResult is one test's normalised outcome. ID is stable across operating
// systems: package or binary, then the test name, joined with "/".
type TestResult struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
}

// TestResults is the tests.json artifact of one test run on one platform.
// Tests are sorted by ID and IDs are unique.
type TestResults struct {
	Repository string       `json:"repository"`
	Platform   string       `json:"platform"`
	Parser     string       `json:"parser"`
	Tests      []TestResult `json:"tests"`
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
