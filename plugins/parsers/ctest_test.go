package parsers

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The CTest recordings, made by recordCTestub from testdata/ctestub: the
// text of `ctest --output-junit junit.xml` (read by the ctest parser), the
// JUnit report it wrote and GoogleTest's XML report of the gtest_stub
// binary (both read by the junit parser). Recorded with CMake 3.25 and
// GoogleTest 1.12.
const (
	ctestRecorded      = "ctestub-ctest.txt"
	ctestJUnitRecorded = "ctestub-junit.xml"
	gtestRecorded      = "ctestub-gtest.xml"
)

func TestCTestGolden(t *testing.T) {
	if *update {
		recordCTestub(t)
	}
	got := checkGolden(t, &CTest{}, ctestRecorded, "ctestub-ctest.golden.json", Options{})
	checkStatuses(t, got, ctestubStatuses)
}

// What the stub project was written to show; the junit parser reads CTest's
// own report of the same run (see TestJUnitGolden).
var ctestubStatuses = results{
	"passes":           "pass",
	"fails":            "fail",
	"segfaults":        "error",
	"aborts":           "error",
	"times_out":        "timeout",
	"disabled":         "skip",
	"skipped":          "skip",
	"no_executable":    "build-failed",
	"name with spaces": "pass",
	"output_mismatch":  "fail",
	"expected_failure": "pass",
	"fixture_setup":    "fail",
	"needs_fixture":    "error",
}

// recordCTestub configures, builds and tests the stub project in a
// temporary build directory.
func recordCTestub(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Logf("cmake not found; keeping the recorded %s, %s and %s", ctestRecorded, ctestJUnitRecorded, gtestRecorded)
		return
	}
	src, err := filepath.Abs(filepath.Join("testdata", "ctestub"))
	if err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	for _, args := range [][]string{
		{"-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Debug"},
		{"--build", build},
	} {
		if out, err := exec.Command("cmake", args...).CombinedOutput(); err != nil {
			t.Fatalf("cmake %v: %v\n%s", args, err, out)
		}
	}
	recorder{tool: "ctest", args: []string{"--output-junit", "junit.xml"}, dir: build}.record(t, ctestRecorded)
	copyFile(t, filepath.Join(build, "junit.xml"), filepath.Join("testdata", ctestJUnitRecorded))
	gtest := filepath.Join(build, "gtest_stub")
	if _, err := os.Stat(gtest); err != nil {
		t.Logf("GoogleTest not installed; keeping the recorded %s", gtestRecorded)
		return
	}
	report := filepath.Join(build, "gtest.xml")
	cmd := exec.Command(gtest, "--gtest_output=xml:"+report)
	cmd.Dir = build
	var exit *exec.ExitError
	if out, err := cmd.CombinedOutput(); err != nil && !errors.As(err, &exit) {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	copyFile(t, report, filepath.Join("testdata", gtestRecorded))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var ctestCases = []parserCase{
	{
		name: "each marker",
		input: stream(
			"Test project /w/build",
			"    Start 1: a",
			"1/9 Test #1: a ................   Passed    0.01 sec",
			"2/9 Test #2: b ................***Failed    0.01 sec",
			"3/9 Test #3: c ................***Exception: SegFault  0.01 sec",
			"4/9 Test #4: d ................***Exception: Numerical  0.01 sec",
			"5/9 Test #5: e ................Subprocess aborted***Exception:   0.00 sec",
			"6/9 Test #6: f ................***Timeout   1.00 sec",
			"7/9 Test #7: g ................***Not Run (Disabled)   0.00 sec",
			"8/9 Test #8: h ................***Skipped   0.00 sec",
			"9/9 Test #9: i ................***Something new   0.00 sec",
		),
		want: results{"a": "pass", "b": "fail", "c": "error", "d": "error", "e": "error", "f": "timeout", "g": "skip", "h": "skip", "i": "fail"},
	},
	{
		name: "not run: build-failed only when the executable is missing",
		input: stream(
			"    Start 1: unbuilt",
			"Could not find executable /w/build/unbuilt",
			"Looked in the following places:",
			"/w/build/unbuilt",
			"1/3 Test #1: unbuilt ..........***Not Run   0.00 sec",
			"    Start 2: needs_db",
			"Failed test dependencies: setup_db",
			"2/3 Test #2: needs_db .........***Not Run   0.00 sec",
			"Unable to find executable: gone",
			"3/3 Test #3: gone .............***Not Run   0.00 sec",
		),
		want: results{"unbuilt": "build-failed", "needs_db": "error", "gone": "build-failed"},
	},
	{
		name: "names with blanks, dots and long names without padding",
		input: stream(
			" 1/4 Test  #1: name with spaces ....   Passed    0.01 sec",
			" 2/4 Test  #2: v1.2 .x ............   Passed    0.01 sec",
			" 3/4 Test  #3: a_name_longer_than_the_column   Passed    0.01 sec",
			" 4/4 Test  #4: another_long_name_past_the_col***Failed    0.01 sec",
			"10/12 Test #10: ten ...............   Passed    0.00 sec",
		),
		want: results{"name with spaces": "pass", "v1.2 .x": "pass", "a_name_longer_than_the_column": "pass", "another_long_name_past_the_col": "fail", "ten": "pass"},
	},
	{
		name: "a failure reason that spans lines",
		input: stream(
			"1/1 Test #1: mismatch .....***Failed  Required regular expression not found. Regex=[never printed",
			"]  0.00 sec",
		),
		want: results{"mismatch": "fail"},
	},
	{
		name: "started and never finished, repeats keep the worst",
		input: stream(
			"      Start 1: hangs",
			"      Start 2: flaky",
			"1/2 Test #2: flaky ...........***Failed    0.01 sec",
			"      Start 2: flaky",
			"1/2 Test #2: flaky ...........   Passed    0.01 sec",
		),
		want: results{"hangs": "error", "flaky": "fail"},
	},
	{
		name: "lookalikes in test output are not results",
		input: stream(
			"Start 1: not indented, so test output",
			"    Start x: not a number",
			"    Start 1:",
			"1/2 Tests #1: a .... Passed",
			"x/2 Test #1: a ....   Passed",
			"1/2 Test 1: a ....   Passed",
			"1/2 Test #a: a ....   Passed",
			"1/2 Test #1: a .... Passed",
			"1/2 Test #1:  ....   Passed",
			"100% tests passed, 0 tests failed out of 2",
			"The following tests FAILED:",
			"\t  2 - fails (Failed)",
		),
		want: results{},
	},
	{
		name:     "CRLF, and expected tests never seen are missing",
		input:    "1/1 Test #1: a ....   Passed    0.01 sec\r\n",
		expected: []string{"a", "b"},
		want:     results{"a": "pass", "b": "missing"},
	},
	{
		name:  "empty input",
		input: "",
		want:  results{},
	},
}

func TestCTestEdgeCases(t *testing.T) {
	checkTable(t, &CTest{}, ctestCases)
}

func FuzzCTest(f *testing.F) {
	fuzzParser(f, &CTest{}, ctestCases, false)
}
