package testrun

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors"
	_ "github.com/osbench/osbench/plugins/lang/all"
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

func TestGoBuildContext(t *testing.T) {
	if c := goBuildContext("windows", map[string]string{"GOARCH": "arm64", "CGO_ENABLED": "0"}); c.GOOS != "windows" || c.GOARCH != "arm64" || c.CgoEnabled {
		t.Errorf("windows/arm64 without cgo: %s/%s cgo %v", c.GOOS, c.GOARCH, c.CgoEnabled)
	}
	if c := goBuildContext("linux", nil); c.GOARCH != runtime.GOARCH {
		t.Errorf("default GOARCH %s, want the host's %s", c.GOARCH, runtime.GOARCH)
	}
	if c := goBuildContext("windows", nil); runtime.GOOS != "windows" && c.CgoEnabled {
		t.Errorf("cgo on for a cross build without CGO_ENABLED")
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
	expected := []string{"example.com/m/TestA", "example.com/m/sub/TestB", "example.com/m/TestWineLink"}
	got := unmatchedSkips(expected, []string{"TestA", "TestB/case_one", "TestWine*", "TestNope", "TestNope/x", "Tes?"})
	want := []string{"TestNope", "TestNope/x", "Tes?"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unmatched = %v, want %v", got, want)
	}
	if got := unmatchedSkips(nil, []string{"anything"}); got != nil {
		t.Errorf("with no expected tests: %v, want nothing said", got)
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
