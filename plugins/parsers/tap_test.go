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
//
// tapBuffered is hand-written (no node-tap here) in the shape node-tap's
// runner prints: TAP 14 buffered subtests.
const (
	tapPerl      = "tapstub-perl.tap"
	tapPerlBails = "tapstub-perl-bails.tap"
	tapNode      = "tapstub-node.tap"
	tapBuffered  = "tap-buffered.tap"
)

func TestTAPGolden(t *testing.T) {
	if *update {
		recordTAPStub(t)
	}
	for _, input := range []string{tapPerl, tapPerlBails, tapNode, tapBuffered} {
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
	buffered := parseWith(t, &TAP{}, filepath.Join("testdata", tapBuffered), Options{})
	checkStatuses(t, buffered, results{
		"test/math.js":                                    "pass",
		"test/math.js/adds":                               "pass",
		"test/math.js/divides by zero":                    "skip",
		"test/math.js/rounding":                           "pass",
		"test/math.js/rounding/rounds half up":            "pass",
		"test/math.js/rounding/rounds negative half down": "pass",
		"test/io.js":                                      "fail",
		"test/io.js/reads a file":                         "pass",
		"test/io.js/writes a file":                        "fail",
		"test/io.js/nested buffered":                      "pass",
		"test/io.js/nested buffered/inner passes":         "pass",
		"test/skip.js":                                    "skip",
		"test/crash.js":                                   "fail",
		"test/crash.js/crashes before its second test":    "fail",
		"test/crash.js/2":                                 "missing",
		"test/last.js":                                    "pass",
		"test/last.js/runs last":                          "pass",
		"test/io.js/adds":                                 "", // the next file's test point is no parent
		"test/math.js {":                                  "",
		"test/io.js/nested buffered {/inner passes":       "",
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
		name: "buffered subtests: the brace after the description or the directive, nested",
		input: stream(
			"TAP version 14",
			"ok 1 - a {",
			"    ok 1 - child of a",
			"    1..1",
			"}",
			"not ok 2 - b # TODO later {",
			"    not ok 1 - child of b",
			"    ok 2 - nested {",
			"        ok 1 - deep",
			"    }",
			"}",
			"ok 3 - c { # SKIP",
			"    1..0",
			"}",
			"ok 4 {",
			"    ok 1 - child of 4",
			"}",
			"1..4",
		),
		want: results{
			"a": "pass", "a/child of a": "pass", "b": "skip", "b/child of b": "fail", "b/nested": "pass",
			"b/nested/deep": "pass", "c": "skip", "4": "pass", "4/child of 4": "pass",
		},
	},
	{
		name: "a buffered subtest's { on a line of its own after its YAML block",
		input: stream(
			"not ok 1 - a",
			"  ---",
			"  exitCode: 1",
			"  ...",
			"{",
			"    ok 1 - child",
			"    1..2",
			"}",
			"ok 2 - b",
		),
		want: results{"a": "fail", "a/child": "pass", "a/2": "missing", "b": "pass"},
	},
	{
		name: "a buffered subtest whose } never comes ends at its parent's next line",
		input: stream(
			"ok 1 - open {",
			"    ok 1 - child",
			"ok 2 - next",
			"    ok 1 - after, child of 3",
			"ok 3",
			"}",
		),
		want: results{"open": "pass", "open/child": "pass", "next": "pass", "3": "pass", "3/after, child of 3": "pass"},
	},
	{
		name:  "braces that open nothing stay in names; stray braces are ignored",
		input: stream("}", "{", "ok 1 - parses a{", "ok 2 - prints {}", "ok 3 - ends in \\{", "    }"),
		want:  results{"parses a{": "pass", "prints {}": "pass", "ends in /{": "pass"},
	},
	{
		name: "bail out in a buffered subtest: its test point stands, its unreported tests are errors",
		input: stream(
			"ok 1 - buffered {",
			"    1..2",
			"    ok 1 - child",
			"    Bail out! out of memory",
		),
		want: results{"buffered": "pass", "buffered/child": "pass", "buffered/2": "error"},
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
