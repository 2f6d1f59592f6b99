package parsers

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// event renders one test2json event as a line of the stream.
func event(action, pkg, test string) string {
	return marshalEvent(map[string]string{"Action": action, "Package": pkg, "Test": test})
}

// output renders an output event; test may be empty for package output.
func output(pkg, test, text string) string {
	return marshalEvent(map[string]string{"Action": "output", "Package": pkg, "Test": test, "Output": text})
}

func marshalEvent(fields map[string]string) string {
	for k, v := range fields {
		if v == "" {
			delete(fields, k)
		}
	}
	b, err := json.Marshal(fields)
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(b)
}

func stream(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

type results = map[string]schemas.Status

const pkg = "example.com/m/pkg"

// edgeCases are small streams for the corners of the rules; they also seed
// FuzzGoTestJSON.
var edgeCases = []struct {
	name     string
	input    string
	expected []string
	want     results
}{
	{
		name: "stream cut while a test runs gives error",
		input: stream(
			event("start", pkg, ""),
			event("run", pkg, "TestA"),
			event("pass", pkg, "TestA"),
			event("run", pkg, "TestB"),
		),
		want: results{pkg + "/TestA": "pass", pkg + "/TestB": "error"},
	},
	{
		name:  "stream cut before any test gives the package error",
		input: stream(event("start", pkg, "")),
		want:  results{pkg: "error"},
	},
	{
		name: "package that never reported but expected tests are missing",
		input: stream(
			event("start", pkg, ""),
		),
		expected: []string{pkg + "/TestA"},
		want:     results{pkg + "/TestA": "missing"},
	},
	{
		name: "count=2 keeps the worst, whatever the order",
		input: stream(
			event("run", pkg, "TestA"), event("pass", pkg, "TestA"),
			event("run", pkg, "TestB"), event("fail", pkg, "TestB"),
			event("run", pkg, "TestA"), event("fail", pkg, "TestA"),
			event("run", pkg, "TestB"), event("pass", pkg, "TestB"),
			event("run", pkg, "TestC"), event("skip", pkg, "TestC"),
			event("run", pkg, "TestC"), event("pass", pkg, "TestC"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestA": "fail", pkg + "/TestB": "fail", pkg + "/TestC": "skip"},
	},
	{
		name: "Go 1.24 FailedBuild marks expected tests, not other packages",
		input: stream(
			`{"ImportPath":"example.com/m/pkg [example.com/m/pkg.test]","Action":"build-output","Output":"# example.com/m/pkg [example.com/m/pkg.test]\n"}`,
			`{"ImportPath":"example.com/m/pkg [example.com/m/pkg.test]","Action":"build-fail"}`,
			event("start", pkg, ""),
			`{"Action":"fail","Package":"example.com/m/pkg","FailedBuild":"example.com/m/pkg [example.com/m/pkg.test]"}`,
		),
		expected: []string{pkg + "/TestA", pkg + "/TestA/sub", pkg + "/sub/TestB", "example.com/m/TestC"},
		want: results{
			pkg + "/TestA":        "build-failed",
			pkg + "/TestA/sub":    "build-failed",
			pkg + "/sub/TestB":    "missing", // another package, not in the stream
			"example.com/m/TestC": "missing",
		},
	},
	{
		name: "old Go text build failure without expected tests names the package",
		input: stream(
			"# example.com/m/pkg",
			"pkg/a.go:3:1: syntax error",
			"FAIL\texample.com/m/pkg [build failed]",
			"FAIL",
		),
		want: results{pkg: "build-failed"},
	},
	{
		name: "setup failure counts as a build failure",
		input: stream(
			event("start", pkg, ""),
			output(pkg, "", "FAIL\texample.com/m/pkg [setup failed]\n"),
			event("fail", pkg, ""),
		),
		expected: []string{pkg + "/TestA"},
		want:     results{pkg + "/TestA": "build-failed"},
	},
	{
		name: "compiler header of an external test package names its package",
		input: stream(
			"# example.com/m/pkg_test [example.com/m/pkg.test]",
			"pkg/a_test.go:3:1: undefined: x",
		),
		want: results{pkg: "build-failed"},
	},
	{
		name: "compiler header for a package that then passes is only a warning",
		input: stream(
			"# example.com/m/pkg",
			"cgo-gcc-prolog: warning: unused variable",
			event("run", pkg, "TestA"), event("pass", pkg, "TestA"),
			event("pass", pkg, ""),
			"# example.com/m/notests",
			"warning: something",
			event("skip", "example.com/m/notests", ""),
		),
		want: results{pkg + "/TestA": "pass"},
	},
	{
		name: "build-output headers alone do not fail a package",
		input: stream(
			`{"ImportPath":"example.com/m/dep","Action":"build-output","Output":"# example.com/m/dep\n"}`,
			`{"ImportPath":"example.com/m/dep","Action":"build-output","Output":"warning: deprecated\n"}`,
		),
		want: results{},
	},
	{
		name: "panic in a test: the test and its late-reported parent get error, waiting tests too",
		input: stream(
			event("run", pkg, "TestWait"), event("pause", pkg, "TestWait"),
			event("run", pkg, "TestOK"), event("pass", pkg, "TestOK"),
			event("run", pkg, "TestP"),
			event("run", pkg, "TestP/sub"),
			event("fail", pkg, "TestP/sub"),
			output(pkg, "TestP", "panic: boom [recovered]\n"),
			output(pkg, "TestP", "\tpanic: boom\n"),
			event("fail", pkg, "TestP"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestWait": "error", pkg + "/TestOK": "pass", pkg + "/TestP": "error", pkg + "/TestP/sub": "error"},
	},
	{
		name: "an earlier ordinary failure is not blamed for a later panic",
		input: stream(
			event("run", pkg, "TestBad"), event("fail", pkg, "TestBad"),
			event("run", pkg, "TestNext"),
			output(pkg, "TestNext", "panic: nil map\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestBad": "fail", pkg + "/TestNext": "error"},
	},
	{
		name: "panic in init before any test gives the package error",
		input: stream(
			event("start", pkg, ""),
			output(pkg, "", "panic: init failed\n"),
			output(pkg, "", "FAIL\texample.com/m/pkg\t0.01s\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg: "error"},
	},
	{
		name: "fatal error kills the running test",
		input: stream(
			event("run", pkg, "TestMap"),
			output(pkg, "TestMap", "fatal error: concurrent map writes\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestMap": "error"},
	},
	{
		name: "panic text in a passing package changes nothing",
		input: stream(
			event("run", pkg, "TestA"), event("fail", pkg, "TestA"),
			output(pkg, "", "panic: printed by TestMain, not a crash\n"),
			event("pass", pkg, ""),
		),
		want: results{pkg + "/TestA": "fail"},
	},
	{
		name: "indented panic text from a log is not a crash",
		input: stream(
			event("run", pkg, "TestA"),
			output(pkg, "TestA", "    a_test.go:9: panic: not really\n"),
			event("fail", pkg, "TestA"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestA": "fail"},
	},
	{
		name: "timeout: listed, running and paused tests time out",
		input: stream(
			event("run", pkg, "TestPar"), event("pause", pkg, "TestPar"),
			event("run", pkg, "TestHang"),
			output(pkg, "TestHang", "panic: test timed out after 1m0s\n"),
			output(pkg, "TestHang", "\trunning tests:\n"),
			output(pkg, "TestHang", "\t\tTestHang (1m0s)\n"),
			output(pkg, "TestHang", "\t\tTestUnseen (1m0s)\n"),
			output(pkg, "TestHang", "\n"),
			output(pkg, "TestHang", "\t\tTestNotListed (1m0s)\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/TestPar": "timeout", pkg + "/TestHang": "timeout", pkg + "/TestUnseen": "timeout"},
	},
	{
		name: "timeout before any test gives the package timeout",
		input: stream(
			output(pkg, "", "panic: test timed out after 2s\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg: "timeout"},
	},
	{
		name: "benchmarks pass by their result line or their package",
		input: stream(
			event("run", pkg, "BenchmarkA"),
			output(pkg, "BenchmarkA", "BenchmarkA\n"),
			output(pkg, "BenchmarkA", "BenchmarkA-8   \t     100\t     12.5 ns/op\n"),
			event("run", pkg, "BenchmarkB"),
			output(pkg, "BenchmarkB", "BenchmarkB\n"),
			event("run", pkg, "BenchmarkC"),
			event("bench", pkg, "BenchmarkC"),
			event("fail", pkg, ""),
			event("run", "example.com/m/ok", "BenchmarkD"),
			event("pass", "example.com/m/ok", ""),
		),
		want: results{
			pkg + "/BenchmarkA":           "pass",
			pkg + "/BenchmarkB":           "error", // no result line, package failed
			pkg + "/BenchmarkC":           "pass",
			"example.com/m/ok/BenchmarkD": "pass",
		},
	},
	{
		name: "a look-alike benchmark line does not pass another benchmark",
		input: stream(
			event("run", pkg, "BenchmarkA"),
			output(pkg, "BenchmarkA", "BenchmarkAB-8 \t 100\t 1 ns/op\n"),
			output(pkg, "BenchmarkA", "BenchmarkA-x \t 100\t 1 ns/op\n"),
			event("fail", pkg, ""),
		),
		want: results{pkg + "/BenchmarkA": "error"},
	},
	{
		name: "garbage, broken JSON, CRLF and unknown actions are tolerated",
		input: "not json at all\r\n" +
			"{\"Action\":\r\n" +
			"{}\r\n" +
			event("run", pkg, "TestA") + "\r\n" +
			`{"Action":"attr","Package":"example.com/m/pkg","Test":"TestA","Key":"k","Value":"v"}` + "\r\n" +
			event("future-action", pkg, "TestA") + "\r\n" +
			event("pass", pkg, "TestA") + "\r\n" +
			event("pass", pkg, ""),
		want: results{pkg + "/TestA": "pass"},
	},
	{
		name: "test2json without -p reports bare test names",
		input: stream(
			event("run", "", "TestA"), event("pass", "", "TestA"),
			event("run", "", "TestB"), event("fail", "", "TestB"),
			event("fail", "", ""),
		),
		expected: []string{"TestC"},
		want:     results{"TestA": "pass", "TestB": "fail", "TestC": "missing"},
	},
	{
		name: "packages without test files report nothing",
		input: stream(
			event("start", "example.com/m/none", ""),
			output("example.com/m/none", "", "?   \texample.com/m/none\t[no test files]\n"),
			event("skip", "example.com/m/none", ""),
		),
		want: results{},
	},
	{
		name: "expected ids may repeat or be empty",
		input: stream(
			event("run", pkg, "TestA"), event("pass", pkg, "TestA"), event("pass", pkg, ""),
		),
		expected: []string{pkg + "/TestA", pkg + "/TestA", "", pkg + "/TestGone", pkg + "/TestGone"},
		want:     results{pkg + "/TestA": "pass", pkg + "/TestGone": "missing"},
	},
	{
		name:  "empty input gives no results",
		input: "",
		want:  results{},
	},
}

func TestGoTestJSONEdgeCases(t *testing.T) {
	for _, tc := range edgeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&GoTestJSON{}).Parse(strings.NewReader(tc.input), Options{Expected: tc.expected})
			if err != nil {
				t.Fatal(err)
			}
			checkResults(t, got, tc.expected)
			gotMap := results{}
			for _, r := range got {
				gotMap[r.ID] = r.Status
			}
			if !reflect.DeepEqual(gotMap, tc.want) {
				t.Errorf("got  %v\nwant %v", gotMap, tc.want)
			}
		})
	}
}

func TestGoTestJSONLongLine(t *testing.T) {
	long := strings.Repeat("x", 3*maxLineBytes)
	input := stream(
		event("run", pkg, "TestA"),
		long,
		output(pkg, "TestA", long+"\n"),
		event("pass", pkg, "TestA"),
	)
	got, err := (&GoTestJSON{}).Parse(strings.NewReader(input), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []schemas.TestResult{{ID: pkg + "/TestA", Status: schemas.StatusPass}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// checkResults asserts the promises every parser makes about its output.
func checkResults(t *testing.T, got []schemas.TestResult, expected []string) {
	t.Helper()
	seen := map[string]bool{}
	for i, r := range got {
		if r.ID == "" {
			t.Errorf("result %d has an empty id", i)
		}
		if !r.Status.Valid() {
			t.Errorf("result %q has invalid status %q", r.ID, r.Status)
		}
		if i > 0 && got[i-1].ID >= r.ID {
			t.Errorf("results not sorted and unique: %q then %q", got[i-1].ID, r.ID)
		}
		seen[r.ID] = true
	}
	for _, id := range expected {
		if id != "" && !seen[id] {
			t.Errorf("expected id %q has no result", id)
		}
	}
}

// The seeds are the small edge-case streams rather than the recorded runs:
// the fuzzer minimises every input that finds new coverage, which takes
// most of a minute for a 30 KB seed and leaves no time for fuzzing.
func FuzzGoTestJSON(f *testing.F) {
	for _, tc := range edgeCases {
		f.Add([]byte(tc.input), strings.Join(tc.expected, "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte, expected string) {
		ids := strings.Split(expected, "\n")
		got, err := (&GoTestJSON{}).Parse(strings.NewReader(string(data)), Options{Expected: ids})
		if err != nil {
			t.Fatalf("Parse of an in-memory stream failed: %v", err)
		}
		checkResults(t, got, ids)
	})
}
