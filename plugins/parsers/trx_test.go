package parsers

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// The TRX inputs are written by hand after the documented format (there is
// no .NET here): an xUnit run on Windows and an MSTest run on Linux.
const (
	trxXUnit  = "trx-xunit.trx"
	trxMSTest = "trx-mstest.trx"
)

func TestTRXGolden(t *testing.T) {
	for _, input := range []string{trxXUnit, trxMSTest} {
		t.Run(input, func(t *testing.T) {
			golden := strings.TrimSuffix(input, ".trx") + ".golden.json"
			checkGolden(t, &TRX{}, input, golden, Options{})
		})
	}
}

func TestTRXGoldenKeyStatuses(t *testing.T) {
	xunit := parseWith(t, &TRX{}, filepath.Join("testdata", trxXUnit), Options{})
	checkStatuses(t, xunit, results{
		"Calc.Tests.MathTests/Adds":                         "pass",
		"Calc.Tests.MathTests/Divides":                      "fail",
		"Calc.Tests.MathTests/IsSmall(value: 1)":            "pass",
		"Calc.Tests.MathTests/IsSmall(value: 20)":           "fail",
		"Calc.Tests.PathTests/UsesHomeDirectory":            "skip",
		`Calc.Tests.PathTests/Splits(path: "C://w//a.txt")`: "pass",
		"Orphan.Tests.NoDefinition":                         "pass",
	})
	mstest := parseWith(t, &TRX{}, filepath.Join("testdata", trxMSTest), Options{})
	checkStatuses(t, mstest, results{
		"Calc.Tests.MathTests/IsSmall":         "fail",
		"Calc.Tests.MathTests/IsSmall (1)":     "pass",
		"Calc.Tests.MathTests/IsSmall (20)":    "fail",
		"Calc.Tests.SlowTests/WaitsForever":    "timeout",
		"Calc.Tests.SlowTests/CrashesHost":     "error",
		"Calc.Tests.MathTests/NotDecided":      "skip",
		"Calc.Tests.MathTests/Ignored":         "skip",
		"Calc.Tests.MathTests/ThrowsInCleanup": "error",
		"Calc.Tests.FileTests/Reads":           "pass",
	})
}

// trxRun wraps result and definition elements in a TRX document.
func trxRun(results, definitions string) string {
	return `<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>` + results +
		`</Results><TestDefinitions>` + definitions + `</TestDefinitions></TestRun>`
}

func trxResultElement(testID, name, outcome string) string {
	return `<UnitTestResult testId="` + testID + `" testName="` + name + `" outcome="` + outcome + `"/>`
}

func trxDefinition(testID, className string) string {
	return `<UnitTest id="` + testID + `"><Execution id="x"/><TestMethod className="` + className + `" name="m"/></UnitTest>`
}

var trxCases = []parserCase{
	{
		name: "every outcome",
		input: trxRun(
			trxResultElement("1", "Passed", "Passed")+trxResultElement("2", "PassedButRunAborted", "PassedButRunAborted")+
				trxResultElement("3", "Completed", "Completed")+trxResultElement("4", "Warning", "Warning")+
				trxResultElement("5", "Failed", "Failed")+trxResultElement("6", "NotExecuted", "NotExecuted")+
				trxResultElement("7", "Inconclusive", "Inconclusive")+trxResultElement("8", "Timeout", "Timeout")+
				trxResultElement("9", "Error", "Error")+trxResultElement("10", "Aborted", "Aborted")+
				trxResultElement("11", "Disconnected", "Disconnected")+trxResultElement("12", "NotRunnable", "NotRunnable")+
				trxResultElement("13", "InProgress", "InProgress")+trxResultElement("14", "Pending", "Pending")+
				trxResultElement("15", "Unheard", "Unheard")+trxResultElement("16", "NoOutcome", "")+
				trxResultElement("17", "Cased", " fAiLeD "),
			""),
		want: results{
			"Passed": "pass", "PassedButRunAborted": "pass", "Completed": "pass", "Warning": "pass",
			"Failed": "fail", "NotExecuted": "skip", "Inconclusive": "skip", "Timeout": "timeout",
			"Error": "error", "Aborted": "error", "Disconnected": "error", "NotRunnable": "error",
			"InProgress": "error", "Pending": "error", "Unheard": "fail", "NoOutcome": "fail", "Cased": "fail",
		},
	},
	{
		name: "class names: repeated prefix, assembly qualification, definitions first",
		input: `<TestRun><TestDefinitions>` + trxDefinition("1", "N.C, N, Version=1.0.0.0") + trxDefinition("2", "N.C") +
			`</TestDefinitions><Results>` + trxResultElement("1", "N.C.A", "Passed") + trxResultElement("2", "B", "Passed") +
			trxResultElement("3", "N.C.A", "Failed") + `</Results></TestRun>`,
		want: results{"N.C/A": "pass", "N.C/B": "pass", "N.C.A": "fail"},
	},
	{
		name: "aggregations and repeated ids keep the worst",
		input: trxRun(
			`<TestResultAggregation testId="1" testName="Ordered" outcome="Passed"><InnerResults>`+
				trxResultElement("2", "Step", "Failed")+trxResultElement("2", "Step", "Passed")+
				`</InnerResults></TestResultAggregation>`,
			trxDefinition("1", "O")+trxDefinition("2", "O")),
		want: results{"O/Ordered": "pass", "O/Step": "fail"},
	},
	{
		name:     "empty names name nothing; expected tests never seen are missing",
		input:    trxRun(trxResultElement("1", "", "Passed")+trxResultElement("2", "A", "Passed"), trxDefinition("2", "")),
		expected: []string{"A", "B"},
		want:     results{"A": "pass", "B": "missing"},
	},
	{
		name:  "empty input",
		input: "",
		want:  results{},
	},
}

func TestTRXEdgeCases(t *testing.T) {
	checkTable(t, &TRX{}, trxCases)
}

func TestTRXErrors(t *testing.T) {
	for _, input := range []string{"<TestRun>\n<Results>\n", "<TestRun><Results></TestRun>", `<TestRun a=1/>`} {
		got, err := (&TRX{}).Parse(strings.NewReader(input), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "trx: line ") || got != nil {
			t.Errorf("%q: got %v, error %v; want no results and an error naming the line", input, got, err)
		}
	}
	_, err := (&TRX{}).Parse(iotest.ErrReader(errors.New("disk on fire")), Options{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got error %v, want the read error", err)
	}
}

func FuzzTRX(f *testing.F) {
	fuzzParser(f, &TRX{}, trxCases, true)
}
