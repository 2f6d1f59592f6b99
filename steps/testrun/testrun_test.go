package testrun

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
	_ "github.com/osbench/osbench/plugins/lang/all"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

func fixture(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "repos", name)
}

func TestExpectedTestsFollowBuildConstraints(t *testing.T) {
	linux, err := expectedTests("go", fixture("fsapi"), "linux", nil)
	if err != nil {
		t.Fatal(err)
	}
	windows, err := expectedTests("go", fixture("fsapi"), "windows", map[string]string{"GOARCH": "amd64", "CGO_ENABLED": "0"})
	if err != nil {
		t.Fatal(err)
	}
	has := func(ids []string, suffix string) bool {
		for _, id := range ids {
			if strings.HasPrefix(id, "example.com/fsapi/") && strings.HasSuffix(id, suffix) {
				return true
			}
		}
		return false
	}
	if len(linux) == 0 || len(windows) == 0 {
		t.Fatalf("no expected tests: linux %v windows %v", linux, windows)
	}
	// Tests of the shared file are expected on both; tests in
	// attrs_unix_test.go only on linux (and the reverse for windows).
	if !has(linux, "/TestSymlinkResolve") || !has(windows, "/TestSymlinkResolve") {
		t.Errorf("shared test missing: linux %v windows %v", linux, windows)
	}
	if reflect.DeepEqual(linux, windows) {
		t.Errorf("build-tagged test files should make the lists differ: %v", linux)
	}
	if none, _ := expectedTests("rust", fixture("fsapi"), "linux", nil); none != nil {
		t.Errorf("non-Go languages list nothing yet, got %v", none)
	}
}

func TestReplaceWorkDir(t *testing.T) {
	in := []byte("SF:/tmp/w/repo/a.c\nSF:/tmp/w/repo/b/c.c\nSF:/elsewhere/x.c\n")
	got := string(replaceWorkDir(in, "/tmp/w/repo"))
	if got != "SF:$WORK/a.c\nSF:$WORK/b/c.c\nSF:/elsewhere/x.c\n" {
		t.Errorf("replaceWorkDir = %q", got)
	}
	wine := `SF:Z:\tmp\w\repo\a.c` + "\n" + `{"file":"z:/tmp/w/repo/b.c"}` + "\n" + `{"file":"Z:\\tmp\\w\\repo\\c.c"}`
	got = string(replaceWorkDir([]byte(wine), "/tmp/w/repo"))
	if got != `SF:$WORK\a.c`+"\n"+`{"file":"$WORK/b.c"}`+"\n"+`{"file":"$WORK\\c.c"}` {
		t.Errorf("replaceWorkDir(wine) = %q", got)
	}
}

func TestMarkSkippedAndTimeout(t *testing.T) {
	results := []schemas.TestResult{{ID: "m/TestA", Status: schemas.StatusPass}, {ID: "m/TestB", Status: schemas.StatusMissing}}
	got := markSkipped(results, []string{"m/TestA", "m/TestB", "m/TestC"}, []string{"TestB", "TestC"})
	want := []schemas.TestResult{{ID: "m/TestA", Status: schemas.StatusPass}, {ID: "m/TestB", Status: schemas.StatusSkip}, {ID: "m/TestC", Status: schemas.StatusSkip}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("markSkipped = %v", got)
	}
	timedOut := applyOutcome([]schemas.TestResult{{ID: "a", Status: schemas.StatusMissing}, {ID: "b", Status: schemas.StatusPass}}, executors.Result{TimedOut: true})
	if timedOut[0].Status != schemas.StatusTimeout || timedOut[1].Status != schemas.StatusPass {
		t.Errorf("applyOutcome = %v", timedOut)
	}
}

func TestCommandArgv(t *testing.T) {
	for _, tc := range []struct {
		c    Command
		want []string
		err  bool
	}{
		{Command{Argv: []string{"go", "test"}}, []string{"go", "test"}, false},
		{Command{Argv: []string{"make check"}, Shell: "bash"}, []string{"bash", "-eo", "pipefail", "-c", "make check"}, false},
		{Command{}, nil, true},
		{Command{Argv: []string{"x"}, Shell: "zsh"}, nil, true},
	} {
		got, err := commandArgv(tc.c)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: argv = %v, %v", tc.c, got, err)
		}
	}
}

func TestNoTestsReported(t *testing.T) {
	some := []schemas.TestResult{{ID: "p/TestA", Status: schemas.StatusFail}}
	tests := []struct {
		name    string
		results []schemas.TestResult
		res     executors.Result
		want    []schemas.TestResult
		wantErr string
	}{
		{"results are kept", some, executors.Result{ExitCode: 1}, some, ""},
		{"hung before a word", nil, executors.Result{ExitCode: -1, TimedOut: true}, []schemas.TestResult{{ID: SuiteTimeoutID, Status: schemas.StatusTimeout}}, ""},
		{"died without a word", nil, executors.Result{ExitCode: 2}, nil, "exited 2 and reported no test"},
		{"clean and empty", nil, executors.Result{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := noTestsReported(tt.results, tt.res)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// The parser reads a report file when the test block names one; the log
// shows what it read, and a missing report reads as nothing.
func TestReadReport(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	report := "<testsuites><testsuite name=\"s\"><testcase name=\"a\"/></testsuite></testsuites>"
	if err := os.WriteFile(filepath.Join(repo, "out", "report.xml"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	got, err := readReport(repo, "out/report.xml", &log)
	if err != nil || string(got) != report {
		t.Fatalf("readReport = %q, %v; want the file", got, err)
	}
	if !strings.Contains(log.String(), report+"\n") || !strings.Contains(log.String(), "report out/report.xml") {
		t.Errorf("log = %q, want the report in it", log.String())
	}
	log.Reset()
	got, err = readReport(repo, "out/missing.xml", &log)
	if err != nil || got != nil {
		t.Errorf("missing report = %q, %v; want nothing, no error", got, err)
	}
	if !strings.Contains(log.String(), "no report out/missing.xml") {
		t.Errorf("log = %q, want it to say the report is missing", log.String())
	}
}

func TestUnmatchedSkips(t *testing.T) {
	goIDs := []string{"example.com/m/TestA", "example.com/m/sub/TestB", "example.com/m/TestWineLink"}
	tests := []struct {
		name        string
		known, skip []string
		want        []string
	}{
		{"go: names, subtests through their test, globs", goIDs,
			[]string{"TestA", "TestB/case_one", "TestWine*", "TestNope", "TestNope/x", "Tes?"},
			[]string{"TestNope", "TestNope/x", "Tes?"}},
		// The each runner's ids are PROGRAM/NAME; the entry may be either.
		{"each: the id osbench prints or the bare name", []string{"suite/adds", "suite/slow_one", "other/adds"},
			[]string{"suite/adds", "slow_one", "suite/slow_*", "other/nope", "suite"},
			[]string{"other/nope", "suite"}},
		{"ctest: registered names", []string{"unit_adds", "generated_1"},
			[]string{"generated_*", "unit_wrong"}, []string{"unit_wrong"}},
		{"nothing known", nil, []string{"anything"}, []string{"anything"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unmatchedSkips(tt.known, tt.skip); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("unmatched = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestKnownTests: the step judges skip entries only from a complete list
// of the run's tests; a runner that drops skipped tests from its output,
// a run cut short or a failed listing leaves it saying nothing.
func TestKnownTests(t *testing.T) {
	ctestDefs := &schemas.TestDefinitions{Runner: "ctest", Tests: []schemas.TestDefinition{{Name: "unit_adds"}, {Name: "suite"}}}
	tap := []schemas.TestResult{{ID: "suite/adds", Status: schemas.StatusPass}, {ID: "suite/slow", Status: schemas.StatusSkip}}
	tests := []struct {
		name         string
		parser       string
		expected     []string
		defs         *schemas.TestDefinitions
		results      []schemas.TestResult
		timedOut     bool
		want         []string
		wantComplete bool
	}{
		{"go lists its tests beforehand", "go-test-json", []string{"m/TestA"}, nil, nil, true, []string{"m/TestA"}, true},
		{"ctest's registered tests", "ctest", nil, ctestDefs, nil, false, []string{"unit_adds", "suite"}, true},
		{"a failed ctest listing", "ctest", nil, runner.Unlisted("ctest"), nil, false, nil, false},
		{"gtest drops filtered tests", "junit", nil, ctestDefs, tap, false, nil, false},
		{"the each runner reports its skips", "tap", nil, ctestDefs, tap, false, []string{"suite/adds", "suite/slow"}, true},
		{"a tap run cut short", "tap", nil, nil, tap, true, nil, false},
		{"libtest drops skipped tests", "libtest", nil, nil, tap, false, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rn, err := runner.For("", tt.parser)
			if err != nil {
				t.Fatal(err)
			}
			got, complete := knownTests(rn, tt.expected, tt.defs, tt.results, tt.timedOut)
			if !reflect.DeepEqual(got, tt.want) || complete != tt.wantComplete {
				t.Errorf("knownTests = %v, %v; want %v, %v", got, complete, tt.want, tt.wantComplete)
			}
		})
	}
}

// TestUnmatchedSkipsError: a build's run fails at the skip list's line;
// an evaluation's (no manifest position) only notes it in the log.
func TestUnmatchedSkipsError(t *testing.T) {
	step := &engine.Step{ID: "demo/linux/test", Config: []engine.Field{{Name: "skip", Value: []string{"TestNope"}, Source: "demo.hcl:12:7"}}}
	err := unmatchedSkipsError(step, "linux", []string{"TestNope"})
	if err == nil || !strings.HasPrefix(err.Error(), `demo.hcl:12:7: skip entry "TestNope" matches no test of the linux run`) {
		t.Errorf("err = %v, want one at demo.hcl:12:7 naming the entry", err)
	}
	if err := unmatchedSkipsError(step, "linux", nil); err != nil {
		t.Errorf("nothing unmatched: %v", err)
	}
	step.Config[0].Source = ""
	if err := unmatchedSkipsError(step, "linux", []string{"TestNope"}); err != nil {
		t.Errorf("no manifest position: %v, want nothing", err)
	}
}

// TestChangedTestSources: a run that rewrites, adds or removes a test
// source is named; data files under testdata/ and non-test sources are
// the suite's business.
func TestChangedTestSources(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"a/a.go":               "package a\n",
		"a/a_test.go":          "package a\n",
		"b/b_test.go":          "package b\n",
		"b/testdata/input.txt": "data\n",
		"tests/it_test.rs":     "fn main() {}\n",
		"build/tests/gen.c":    "int x;\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, err := testSources(repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 3 {
		t.Fatalf("test sources %v, want a/a_test.go, b/b_test.go, tests/it_test.rs", before)
	}
	write := func(p, text string) {
		if err := os.WriteFile(filepath.Join(repo, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", "package a // the patch's code may change\n")
	write("b/testdata/input.txt", "rewritten by the suite\n")
	if after, _ := testSources(repo); changedTestSources(before, after) != nil {
		t.Fatalf("changed %v, want none", changedTestSources(before, after))
	}
	write("b/b_test.go", "package b\n\nfunc TestForged(t *testing.T) {}\n")
	write("a/main_test.go", "package a\n")
	write("build/tests/gen.c", "int y; /* a build's generated source */\n")
	if err := os.Remove(filepath.Join(repo, "tests/it_test.rs")); err != nil {
		t.Fatal(err)
	}
	after, err := testSources(repo)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/main_test.go", "b/b_test.go", "tests/it_test.rs"}
	if got := changedTestSources(before, after); !slices.Equal(got, want) {
		t.Errorf("changed %v, want %v", got, want)
	}
}

// TestReadOnlyTestFiles: the task's test code — test files, by directory or
// name, in a language osbench knows, and the sources of a language with
// test code inside them (Rust) — is what every command of a run gets
// read-only; test data, Go and C sources and a build's outputs are not,
// and a tree with more than the bound gets none.
func TestReadOnlyTestFiles(t *testing.T) {
	repo := t.TempDir()
	for _, p := range []string{
		"a/a.go", "a/a_test.go", "a/testdata/input.txt", "a/testdata/fixture.go",
		"src/lib.rs", "tests/it.rs", "tests/data/golden.txt", "benches/b.rs",
		"tests/test_alloc.c", "tests/helpers.h", "tests/CMakeLists.txt", "lib/parse_test.c",
		".git/objects/x_test.go",
	} {
		if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, p), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a_test.go", filepath.Join(repo, "a/link_test.go")); err != nil {
		t.Fatal(err)
	}
	got, bounded, err := readOnlyTestFiles(repo)
	if err != nil || !bounded {
		t.Fatalf("readOnlyTestFiles = %v, %v, %v", got, bounded, err)
	}
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(repo, p)
		rel = append(rel, filepath.ToSlash(r))
	}
	// Every Rust source: #[cfg(test)] items and doctests live there.
	want := []string{"a/a_test.go", "a/testdata/fixture.go", "benches/b.rs", "lib/parse_test.c", "src/lib.rs", "tests/helpers.h", "tests/it.rs", "tests/test_alloc.c"}
	if !slices.Equal(rel, want) {
		t.Errorf("read-only test code %q, want %q", rel, want)
	}
	for i := range maxReadOnlyTestFiles {
		if err := os.WriteFile(filepath.Join(repo, "tests", fmt.Sprintf("t%d.rs", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, bounded, err := readOnlyTestFiles(repo); err != nil || bounded || got != nil {
		t.Errorf("over the bound: %d files, bounded %v, %v; want none, false", len(got), bounded, err)
	}
}
