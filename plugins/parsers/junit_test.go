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
const (
	junitSurefire = "junit-surefire.xml"
	junitAnt      = "junit-ant.xml"
)

func TestJUnitGolden(t *testing.T) {
	if *update {
		recordCTestub(t)
	}
	for _, input := range []string{ctestJUnitRecorded, gtestRecorded, junitSurefire, junitAnt} {
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
