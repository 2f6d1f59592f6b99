package parsers

import (
	"path/filepath"
	"strings"
	"testing"
)

// The TAP recordings, made by recordTAPStub from testdata/tapstub: two
// Test::More scripts run by perl (one bails out) and a node:test file run by
// `node --test --test-reporter=tap` (TAP 13 with YAML diagnostics and
// subtests). Recorded with Test::More 1.302190 and Node.js 20.
const (
	tapPerl      = "tapstub-perl.tap"
	tapPerlBails = "tapstub-perl-bails.tap"
	tapNode      = "tapstub-node.tap"
)

func TestTAPGolden(t *testing.T) {
	if *update {
		recordTAPStub(t)
	}
	for _, input := range []string{tapPerl, tapPerlBails, tapNode} {
		t.Run(input, func(t *testing.T) {
			golden := strings.TrimSuffix(input, ".tap") + ".golden.json"
			checkGolden(t, &TAP{}, input, golden, Options{})
		})
	}
}

func TestTAPGoldenKeyStatuses(t *testing.T) {
	perl := parseWith(t, &TAP{}, filepath.Join("testdata", tapPerl), Options{})
	checkStatuses(t, perl, results{
		"adds numbers":      "pass",
		"fails on purpose":  "fail",
		"3":                 "skip", // skip() prints no description
		"parses dates":      "skip", // a failing TODO test
		"parses times":      "pass", // a passing TODO test
		"paths":             "fail",
		"paths/joins":       "pass",
		"paths/splits C:/x": "fail",
		"paths/nested":      "pass",
		"paths/nested/deep": "pass",
		"escapes # a hash":  "pass",
		"8":                 "pass",
		"downloads":         "",
	})
	bails := parseWith(t, &TAP{}, filepath.Join("testdata", tapPerlBails), Options{})
	checkStatuses(t, bails, results{
		"connects":        "pass",
		"queries":         "error", // running when the harness bailed out
		"queries/selects": "pass",
		"queries/2":       "error",
		"queries/3":       "error",
		"3":               "error",
		"4":               "error",
		"2":               "", // that is "queries"
	})
	node := parseWith(t, &TAP{}, filepath.Join("testdata", tapNode), Options{})
	checkStatuses(t, node, results{
		"adds":               "pass",
		"fails":              "fail",
		"skipped":            "skip",
		"todo":               "skip",
		"parent":             "fail",
		"parent/child ok":    "pass",
		"parent/child fails": "fail",
	})
}

// recordTAPStub reruns the stub scripts. Only stdout is recorded: it is the
// TAP stream; Test::More prints its failure diagnostics on stderr.
func recordTAPStub(t *testing.T) {
	t.Helper()
	dir := filepath.Join("testdata", "tapstub")
	recorder{tool: "perl", args: []string{"basic.t"}, dir: dir}.record(t, tapPerl)
	recorder{tool: "perl", args: []string{"bails.t"}, dir: dir}.record(t, tapPerlBails)
	recorder{tool: "node", args: []string{"--test", "--test-reporter=tap", "tapstub.test.js"}, dir: dir}.record(t, tapNode)
}

var tapCases = []parserCase{
	{
		name: "test points, directives and comments",
		input: stream(
			"TAP version 14",
			"1..9",
			"ok 1 - with dash",
			"not ok 2 without dash",
			"ok 3 - skipped # SKIP no network",
			"not ok 4 - skipped and failing # skip",
			"not ok 5 - todo # TODO later",
			"ok 6 - todo that passes # todo",
			"ok 7 - timed # time=2ms",
			`ok 8 - escaped \# hash and \\ backslash # SKIPPED anyway`,
			"ok 9 -",
			"# a comment",
			"pragma +strict",
		),
		want: results{
			"with dash": "pass", "without dash": "fail", "skipped": "skip", "skipped and failing": "skip",
			"todo": "skip", "todo that passes": "pass", "timed": "pass", "escaped # hash and / backslash": "skip", "9": "pass",
		},
	},
	{
		name: "numbers left out, and missing numbers of the plan",
		input: stream(
			"ok - first",
			"ok",
			"ok 5 - fifth",
			"ok - sixth",
			"1..7",
		),
		want: results{"first": "pass", "2": "pass", "fifth": "pass", "sixth": "pass", "3": "missing", "4": "missing", "7": "missing"},
	},
	{
		name: "missing numbers are not reported when tests are expected",
		input: stream(
			"1..3",
			"ok 1 - a",
		),
		expected: []string{"a", "b"},
		want:     results{"a": "pass", "b": "missing"},
	},
	{
		name: "TAP 14 subtests, nested, named by the test point that closes them",
		input: stream(
			"TAP version 14",
			"# Subtest: comment name",
			"    # Subtest: inner",
			"        ok 1 - leaf",
			"        1..2",
			"    ok 1 - inner",
			"    not ok 2 - sibling",
			"    1..2",
			"not ok 1 - parent",
			"    ok 1 - unnamed child",
			"ok 2",
			"1..2",
		),
		want: results{
			"parent": "fail", "parent/inner": "pass", "parent/inner/leaf": "pass", "parent/inner/2": "missing",
			"parent/sibling": "fail", "2": "pass", "2/unnamed child": "pass",
		},
	},
	{
		name: "a subtest no test point closes keeps its comment's name",
		input: stream(
			"# Subtest: open",
			"    ok 1 - child",
			"    1..2",
		),
		want: results{"open/child": "pass", "open/2": "missing"},
	},
	{
		name: "bail out: planned and expected tests never reported are errors",
		input: stream(
			"1..4",
			"ok 1 - a",
			"# Subtest: running",
			"    1..2",
			"    ok 1 - child",
			"    Bail out! disk full",
			"ok 3 - after the bail out, ignored",
		),
		expected: []string{"a", "running", "running/child", "running/other", "later"},
		want: results{
			"a": "pass", "running": "error", "running/child": "pass", "running/other": "error", "later": "error",
		},
	},
	{
		name: "bail out with nothing expected names the unreported numbers",
		input: stream(
			"1..3",
			"    ok 1 - child of an unnamed subtest",
			"Bail out!",
		),
		want: results{"1": "error", "1/child of an unnamed subtest": "pass", "2": "error", "3": "error"},
	},
	{
		name: "YAML blocks are skipped, whatever they hold",
		input: stream(
			"not ok 1 - a",
			"  ---",
			"  message: 'fails'",
			"  output: |-",
			"    ok 2 - not a test point",
			"    Bail out! neither",
			"  ...",
			"ok 2 - b",
			"   ---",
			"ok 3 - c",
		),
		want: results{"a": "fail", "b": "pass", "c": "pass"},
	},
	{
		name: "lookalikes are not test points or plans",
		input: stream(
			"okay then",
			"not okay",
			"ok1",
			"1..",
			"1..x",
			"1..2x",
			"2..3",
			"\tok 1 - tab indented",
			"# Subtest",
		),
		want: results{},
	},
	{
		name:  "huge numbers are refused, not listed",
		input: stream("1..999999999999", "ok 99999999999999999999 - big", "ok 3 - three"),
		want:  results{"three": "pass"},
	},
	{
		name:  "backslashes become slashes; CRLF is fine",
		input: "ok 1 - C:\\w\\a.txt\r\nnot ok 2 - b\r\n1..2\r\n",
		want:  results{"C:/w/a.txt": "pass", "b": "fail"},
	},
	{
		name:  "empty input",
		input: "",
		want:  results{},
	},
}

func TestTAPEdgeCases(t *testing.T) {
	checkTable(t, &TAP{}, tapCases)
}

func FuzzTAP(f *testing.F) {
	fuzzParser(f, &TAP{}, tapCases, false)
}
