package parsers

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// The regex recording: `python3 -m unittest -v` over
// testdata/regexstub (Python 3.11), a runner no built-in parser knows, read
// with the options a manifest would declare for it.
const regexRecorded = "regexstub-unittest.txt"

var unittestOptions = &RegexOptions{
	Pattern: `^\s*\w+ \((?P<id>[\w.]+)\)(?: \(.*\))? \.\.\. (?P<status>ok|FAIL|ERROR|skipped|expected failure|unexpected success)`,
	Statuses: map[string]string{
		"ok": "pass", "FAIL": "fail", "ERROR": "error", "skipped": "skip",
		"expected failure": "skip", "unexpected success": "fail",
	},
}

func TestRegexGolden(t *testing.T) {
	if *update {
		recorder{
			tool: "python3", args: []string{"-m", "unittest", "-v", "test_calc"},
			dir: filepath.Join("testdata", "regexstub"), env: []string{"PYTHONDONTWRITEBYTECODE=1"}, stderr: true,
		}.record(t, regexRecorded)
	}
	got := checkGolden(t, &Regex{}, regexRecorded, "regexstub-unittest.golden.json", Options{Regex: unittestOptions})
	checkStatuses(t, got, results{
		"test_calc.CalcTest.test_adds":      "pass",
		"test_calc.CalcTest.test_fails":     "fail",
		"test_calc.CalcTest.test_raises":    "error",
		"test_calc.CalcTest.test_skipped":   "skip",
		"test_calc.CalcTest.test_known_bug": "skip",
		"test_calc.CalcTest.test_subtests":  "fail", // its subtest n=2 failed
		"test_calc.PathTest.test_joins":     "pass",
	})
}

func TestRegex(t *testing.T) {
	bracketed := &RegexOptions{
		Pattern:  `^\[(?P<status>\w+)\] (?P<id>.+?)(?: \(\d+ ms\))?$`,
		Statuses: map[string]string{"OK": "pass", "FAILED": "fail", "SKIP": "skip", "TIMEOUT": "timeout"},
	}
	tests := []struct {
		name     string
		opts     *RegexOptions
		input    string
		expected []string
		want     results
	}{
		{
			name: "declared statuses, timings stripped by the pattern, other lines ignored",
			opts: bracketed,
			input: stream(
				"building...",
				"[OK] suite/a (12 ms)",
				"[FAILED] suite/b (3 ms)",
				"[SKIP] suite/c",
				"[TIMEOUT] suite/d (60000 ms)",
				"summary: 1 passed",
			),
			want: results{"suite/a": "pass", "suite/b": "fail", "suite/c": "skip", "suite/d": "timeout"},
		},
		{
			name:     "repeats keep the worst, ids are trimmed and slashed, colours stripped",
			opts:     bracketed,
			input:    stream("[OK] a\\b ", "[FAILED] a\\b", "\x1b[32m[OK]\x1b[0m c", "[OK]  "),
			expected: []string{"a/b", "gone"},
			want:     results{"a/b": "fail", "c": "pass", "gone": "missing"},
		},
		{
			name:  "without a status map the captured text is the status",
			opts:  &RegexOptions{Pattern: `^(?P<id>\S+): (?P<status>\S+)$`},
			input: stream("a: pass", "b: build-failed", "c: error"),
			want:  results{"a": "pass", "b": "build-failed", "c": "error"},
		},
		{
			name:  "a branch that leaves the id empty is not a result",
			opts:  &RegexOptions{Pattern: `^(?:(?P<id>\w+) (?P<status>pass|fail)|total: \d+)$`},
			input: stream("a pass", "total: 2", "b fail"),
			want:  results{"a": "pass", "b": "fail"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Regex{}).Parse(strings.NewReader(tc.input), Options{Expected: tc.expected, Regex: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			checkResults(t, got, tc.expected)
			if gotMap := statusesOf(got); !reflect.DeepEqual(gotMap, tc.want) {
				t.Errorf("got  %v\nwant %v", gotMap, tc.want)
			}
		})
	}
}

func TestRegexErrors(t *testing.T) {
	tests := []struct {
		name  string
		opts  *RegexOptions
		input string
		want  string // substring of the error
	}{
		{"no options", nil, "", "regex: no pattern"},
		{"empty pattern", &RegexOptions{}, "", "regex: no pattern"},
		{"bad pattern", &RegexOptions{Pattern: `(?P<id>`}, "", "regex: pattern: error parsing regexp"},
		{"no id group", &RegexOptions{Pattern: `(?P<status>\w+)`}, "", "must have the named groups"},
		{"no status group", &RegexOptions{Pattern: `(?P<id>\w+)`}, "", "must have the named groups"},
		{"a mapping to no status", &RegexOptions{Pattern: `(?P<id>\w+) (?P<status>\w+)`, Statuses: map[string]string{"ok": "pass", "bad": "failed", "worse": "nope"}}, "",
			`statuses: "bad" maps to "failed", which is not a status (want one of pass, fail, skip, error, timeout, build-failed, missing)`},
		{"an undeclared status text", &RegexOptions{Pattern: `(?P<id>\w+) (?P<status>\w+)`, Statuses: map[string]string{"ok": "pass"}},
			"a ok\nb ok\nc flaky\n", `regex: line 3: status "flaky" of test "c" is not among the manifest's statuses: "c flaky"`},
		{"a text that is no status name", &RegexOptions{Pattern: `(?P<id>\w+) (?P<status>\w+)`},
			"a passed\n", `regex: line 1: status "passed" of test "a" is not a status name, and the manifest maps none`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Regex{}).Parse(strings.NewReader(tc.input), Options{Regex: tc.opts})
			if err == nil || !strings.Contains(err.Error(), tc.want) || got != nil {
				t.Errorf("got %v, error %v; want no results and an error containing %q", got, err, tc.want)
			}
			if tc.input == "" {
				// Validate finds the same problems before anything runs.
				if err := tc.opts.Validate(); err == nil || !strings.Contains("regex: "+err.Error(), tc.want) {
					t.Errorf("Validate() = %v, want an error containing %q", err, tc.want)
				}
			}
		})
	}
	if err := unittestOptions.Validate(); err != nil {
		t.Errorf("Validate() of good options = %v", err)
	}
	_, err := (&Regex{}).Parse(iotest.ErrReader(errors.New("disk on fire")), Options{Regex: unittestOptions})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got error %v, want the read error", err)
	}
}

func FuzzRegex(f *testing.F) {
	// The first lines of the recording, kept short (see fuzzParser).
	f.Add([]byte("test_adds (test_calc.CalcTest.test_adds) ... ok\n"+
		"test_fails (test_calc.CalcTest.test_fails) ... FAIL\n"+
		"test_subtests (test_calc.CalcTest.test_subtests) ... \n"+
		"  test_subtests (test_calc.CalcTest.test_subtests) (n=2) ... FAIL\n"),
		"test_calc.CalcTest.test_adds\ntest_calc.CalcTest.test_gone")
	f.Add([]byte("a (b.c) ... ok\n  x (b.d) (n=1) ... expected failure\r\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, expected string) {
		ids := strings.Split(expected, "\n")
		got, err := (&Regex{}).Parse(bytes.NewReader(data), Options{Expected: ids, Regex: unittestOptions})
		if err != nil {
			t.Fatalf("every status the pattern captures is declared, yet: %v", err)
		}
		checkResults(t, got, ids)
	})
}
