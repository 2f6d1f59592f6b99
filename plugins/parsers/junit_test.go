package parsers

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/osbench/osbench/schemas"
)

// The JUnit inputs: CTest's and GoogleTest's reports, recorded by
// recordCTestub (see ctest_test.go), and hand-written reports in the
// documented shapes of Surefire and of Ant/Jenkins (no JVM here).
//
// The suite-level errors are hand-written too, in the shapes GoogleTest,
// Surefire and fixture-based runners write them: one report with a
// <testsuites> root, one with a single <testsuite> root.
const (
	junitSurefire      = "junit-surefire.xml"
	junitAnt           = "junit-ant.xml"
	junitSetupErrors   = "junit-setup-errors.xml"
	junitSetupRootless = "junit-setup-error-rootless.xml"
)

func TestJUnitGolden(t *testing.T) {
	if *update {
		recordCTestub(t)
	}
	for _, input := range []string{ctestJUnitRecorded, gtestRecorded, junitSurefire, junitAnt, junitSetupErrors, junitSetupRootless} {
		t.Run(input, func(t *testing.T) {
			golden := strings.TrimSuffix(input, ".xml") + ".golden.json"
			checkGolden(t, &JUnit{}, input, golden, Options{})
		})
	}
}

func TestJUnitGoldenKeyStatuses(t *testing.T) {
	parse := func(input string) []schemas.TestResult {
		return parseWith(t, &JUnit{}, filepath.Join("testdata", input), Options{})
	}
	checkStatuses(t, parse(gtestRecorded), results{
		"Math/Adds":              "pass",
		"Math/Fails":             "fail",
		"Math/DISABLED_NotRun":   "skip",
		"Math/Skips":             "skip",
		"Values/Param/IsSmall/0": "pass",
		"Values/Param/IsSmall/1": "fail",
	})
	checkStatuses(t, parse(junitSurefire), results{
		"com.example.CalcTest/adds":                  "pass",
		"com.example.CalcTest/divides":               "pass",
		"com.example.CalcTest/retriesThenPasses":     "pass",
		"com.example.CalcTest/failsEveryTime":        "fail",
		"com.example.CalcTest/throws":                "error",
		"com.example.CalcTest/onlyOnLinux":           "skip",
		"com.example.CalcTest/parameterized(int)[2]": "pass",
	})
	checkStatuses(t, parse(junitAnt), results{
		"parser/reads_empty":        "pass",
		"parser/reads_crlf":         "fail",
		"org.demo.Outer/outer_case": "pass",
		"nameless suite":            "pass",
		"org.demo.Client/connects":  "pass",
	})
}

// A suite-level error gives error to every test of its suite: those the
// report names, those expected under the suite's name (or the nameless
// testcase's classname), and, when the suite knows no test, one synthetic
// "<scope>/(setup)" id. The golden files with Expected pin the expected
// tests' side.
func TestJUnitSetupErrorsGolden(t *testing.T) {
	expected := []string{
		"Database/Inserts", "Database/Queries", "com.example.NetTest/connects", "com.example.NetTest/retries",
		"Math/Adds", "Math/Subtracts", "com.example.CacheTest/evicts", "com.example.CacheTest/expires",
	}
	opts := Options{Expected: expected}
	all := checkGolden(t, &JUnit{}, junitSetupErrors, "junit-setup-errors-expected.golden.json", opts)
	checkStatuses(t, all, results{
		"Database/Inserts":             "error", // reported as not run
		"Database/Queries":             "error",
		"com.example.NetTest/connects": "error", // expected, never reported
		"com.example.NetTest/retries":  "error",
		"fixtures/(setup)":             "error", // nothing known of the suite
		"Math/Adds":                    "pass",
		"Math/Subtracts":               "missing",
		"com.example.CacheTest/evicts": "missing", // in the other report
		"com.example.NetTest/(setup)":  "",
		"(setup)":                      "",
		"":                             "",
	})
	rootless := checkGolden(t, &JUnit{}, junitSetupRootless, "junit-setup-error-rootless-expected.golden.json", opts)
	checkStatuses(t, rootless, results{
		"com.example.CacheTest/evicts":  "error", // ran before the fixture failed
		"com.example.CacheTest/expires": "error",
		"com.example.CacheTest/(setup)": "",
		"Database/Inserts":              "missing",
	})
	// Nothing expected: the reported tests, and synthetic ids where the
	// report knows no test.
	checkStatuses(t, parseWith(t, &JUnit{}, filepath.Join("testdata", junitSetupErrors), Options{}), results{
		"Database/Inserts":            "error",
		"Database/Queries":            "error",
		"com.example.NetTest/(setup)": "error",
		"fixtures/(setup)":            "error",
		"Math/Adds":                   "pass",
	})
	checkStatuses(t, parseWith(t, &JUnit{}, filepath.Join("testdata", junitSetupRootless), Options{}), results{
		"com.example.CacheTest/evicts":  "error",
		"com.example.CacheTest/(setup)": "",
	})
}

// CTest's report and its text name the same tests alike; statuses agree
// except where the text says more (a timeout, a crash, a missing
// executable, a failed fixture).
func TestJUnitAgreesWithCTestText(t *testing.T) {
	fromXML := statusesOf(parseWith(t, &JUnit{}, filepath.Join("testdata", ctestJUnitRecorded), Options{}))
	fromText := statusesOf(parseWith(t, &CTest{}, filepath.Join("testdata", ctestRecorded), Options{}))
	textSaysMore := map[string]bool{"segfaults": true, "aborts": true, "times_out": true, "no_executable": true, "needs_fixture": true}
	if len(fromXML) != len(fromText) {
		t.Errorf("the report has %d tests, the text %d", len(fromXML), len(fromText))
	}
	for id, status := range fromText {
		xmlStatus, ok := fromXML[id]
		switch {
		case !ok:
			t.Errorf("%s is in the text but not in the report", id)
		case textSaysMore[id]:
			if xmlStatus.Passes() {
				t.Errorf("%s: the report says pass, the text %s", id, status)
			}
		case xmlStatus != status:
			t.Errorf("%s: the report says %s, the text %s", id, xmlStatus, status)
		}
	}
}

var junitCases = []parserCase{
	{
		name:  "a single testcase with no suite around it",
		input: `<testcase classname="c" name="n"><failure/></testcase>`,
		want:  results{"c/n": "fail"},
	},
	{
		name: "concatenated reports, each with its declaration, and text around them",
		input: "make[1]: entering directory\n" +
			`<?xml version="1.0"?><testsuite name="s1"><testcase name="a"/></testsuite>` + "\n" +
			`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="s2"><testcase name="a"><skipped/></testcase></testsuite></testsuites>` +
			"\ndone\n",
		want: results{"s1/a": "pass", "s2/a": "skip"},
	},
	{
		name: "the worst child wins, flaky children are ignored",
		input: `<testsuite name="s">
			<testcase classname="c" name="a"><skipped/><failure/></testcase>
			<testcase classname="c" name="b"><failure/><error/></testcase>
			<testcase classname="c" name="x"><rerunError/></testcase>
			<testcase classname="c" name="d"><flakyFailure><stackTrace>x</stackTrace></flakyFailure><flakyError/></testcase>
			<testcase classname="c" name="e"><system-out><failure>printed, not a child</failure></system-out></testcase>
			</testsuite>`,
		want: results{"c/a": "fail", "c/b": "error", "c/x": "error", "c/d": "pass", "c/e": "pass"},
	},
	{
		name: "gtest and ctest status attributes",
		input: `<testsuites>
			<testcase classname="S" name="a" status="notrun" result="suppressed"/>
			<testcase classname="S" name="b" status="run" result="skipped"><skipped/></testcase>
			<testcase classname="S" name="c" status="run" result="completed"/>
			<testcase classname="d" name="d" status="disabled"/>
			<testcase classname="e" name="e" status="fail"/>
			</testsuites>`,
		want: results{"S/a": "skip", "S/b": "skip", "S/c": "pass", "d": "skip", "e": "fail"},
	},
	{
		name: "namespaces, blanks and backslashes in names",
		input: `<j:testsuite xmlns:j="urn:x" name="s"><j:testcase j:classname=" tests\unit " j:name=" test_path[C:\x] "/>` +
			`<j:testcase name=""/><j:testcase/></j:testsuite>`,
		want: results{"tests/unit/test_path[C:/x]": "pass"},
	},
	{
		name:     "a byte order mark, and expected tests never seen are missing",
		input:    "\xef\xbb\xbf<testsuite name=\"s\"><testcase name=\"a\"/></testsuite>",
		expected: []string{"s/a", "s/b"},
		want:     results{"s/a": "pass", "s/b": "missing"},
	},
	{
		name:  "ISO-8859-1",
		input: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite name=\"s\"><testcase name=\"caf\xe9\"/></testsuite>",
		want:  results{"s/café": "pass"},
	},
	{
		name:  "a suite-level error with no testcase, testsuite as the root",
		input: `<testsuite name="s"><error message="setup failed"/></testsuite>`,
		want:  results{"s/(setup)": "error"},
	},
	{
		name:     "a suite-level failure gives error to the expected tests of its suite only",
		input:    `<testsuites><testsuite name="s"><failure/></testsuite><testsuite name="t"><testcase name="a"/></testsuite></testsuites>`,
		expected: []string{"s/a", "s/b", "t/a", "sx/a"},
		want:     results{"s/a": "error", "s/b": "error", "t/a": "pass", "sx/a": "missing"},
	},
	{
		name: "a suite-level error covers the reported tests and nested suites",
		input: `<testsuites><testsuite name="outer"><testcase classname="c" name="a"/>` +
			`<testsuite name="inner"><testcase name="b"><skipped/></testcase></testsuite>` +
			`<rerunError/></testsuite><testsuite name="other"><testcase name="c"/></testsuite></testsuites>`,
		want: results{"c/a": "error", "inner/b": "error", "other/c": "pass"},
	},
	{
		name: "a nameless testcase holding a failure is a suite-level error",
		input: `<testsuite name="S"><testcase name="T" status="notrun" result="suppressed"/>` +
			`<testcase name="" classname=""><failure message="SetUpTestSuite"/></testcase></testsuite>`,
		want: results{"S/T": "error"},
	},
	{
		name:     "a nameless testcase names its class as the scope",
		input:    `<testsuite name="suite"><testcase classname="pkg.K"><error/></testcase></testsuite>`,
		expected: []string{"pkg.K/m"},
		want:     results{"pkg.K/m": "error"},
	},
	{
		name:  "a nameless testcase with an error outside any suite",
		input: `<testcase classname="pkg.K"><error/></testcase><testcase><failure/></testcase><testcase name=""/>`,
		want:  results{"pkg.K/(setup)": "error", "(setup)": "error"},
	},
	{
		name:  "an error deeper than the suite's child, or passing nameless testcases, are no suite-level error",
		input: `<testsuite name="s"><properties><error/></properties><testcase name=""><skipped/><system-out/></testcase><testcase name="a"/></testsuite>`,
		want:  results{"s/a": "pass"},
	},
	{
		name:  "empty input",
		input: "",
		want:  results{},
	},
}

func TestJUnitEdgeCases(t *testing.T) {
	checkTable(t, &JUnit{}, junitCases)
}

func TestJUnitErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"unclosed testcase", "<testsuite>\n<testcase name=\"a\">\n", "junit: line 3:"},
		{"mismatched tags", "<testsuite>\n<testcase name=\"a\"></testsuite>", "junit: line 2:"},
		{"bad attribute", "<testsuite>\n\n<testcase name=a/>", "junit: line 3:"},
		{"unsupported encoding", `<?xml version="1.0" encoding="UTF-16"?><testsuite/>`, `unsupported encoding "UTF-16"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&JUnit{}).Parse(strings.NewReader(tc.input), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || got != nil {
				t.Errorf("got %v, error %v; want no results and an error containing %q", got, err, tc.want)
			}
		})
	}
	_, err := (&JUnit{}).Parse(iotest.ErrReader(errors.New("disk on fire")), Options{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got error %v, want the read error", err)
	}
}

func FuzzJUnit(f *testing.F) {
	fuzzParser(f, &JUnit{}, junitCases, true)
}
