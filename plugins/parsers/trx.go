package parsers

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// TRX parses the Visual Studio test results file that `dotnet test --logger
// trx` and vstest.console write, whichever adapter (xUnit, NUnit, MSTest) ran
// the tests.
//
// Each <UnitTestResult> (and <TestResultAggregation>) gives a test's
// testName and outcome; the <UnitTest> definition of the same testId gives
// the class, in its <TestMethod className>, stripped of any assembly
// qualification (", Assembly, Version=..."). The id is "<class>/<name>":
// xUnit's testName repeats the class ("Ns.Tests.Math.Adds(x: 1)"), which is
// not repeated in the id ("Ns.Tests.Math/Adds(x: 1)"); MSTest and NUnit
// give the method name only. A test without a definition is named by its
// testName alone. Rows of a data-driven MSTest test (<InnerResults>) are
// tests of their own, named as MSTest names them, next to their parent.
// "\" in names becomes "/".
//
// Outcomes, compared without regard to case:
//
//	Passed, PassedButRunAborted, Completed, Warning          pass
//	Failed                                                   fail
//	NotExecuted (skipped, ignored), Inconclusive             skip
//	Timeout                                                  timeout
//	Error, Aborted, Disconnected, NotRunnable,               error
//	InProgress, Pending (never finished)
//	anything else                                            fail
//
// The results come before the definitions in the file, so the results are
// kept until the end of the input (a few fields per test); the file itself
// is read as a stream of tokens. Expected tests never seen are missing; an
// id reported more than once keeps its worst status. XML that is not
// well-formed is an error naming its line.
type TRX struct{}

var _ Parser = (*TRX)(nil)

// trxResult is one result element, waiting for the definitions.
type trxResult struct {
	testID, testName, outcome string
}

// Parse implements Parser.
func (*TRX) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	const format = "trx"
	d := newXMLDecoder(r)
	var found []trxResult
	classOf := map[string]string{} // testId → class name
	definition := ""               // the testId of the <UnitTest> being read
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlError(format, d, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "UnitTestResult", "TestResultAggregation":
				found = append(found, trxResult{
					testID:   xmlAttr(t, "testId"),
					testName: strings.TrimSpace(xmlAttr(t, "testName")),
					outcome:  xmlAttr(t, "outcome"),
				})
			case "UnitTest":
				definition = xmlAttr(t, "id")
			case "TestMethod":
				if definition != "" {
					classOf[definition] = trxClassName(xmlAttr(t, "className"))
				}
			case "Output", "TestEntries", "TestLists", "ResultSummary":
				// Captured output and summaries: nothing about a test's
				// status, and possibly large.
				if err := d.Skip(); err != nil {
					return nil, xmlError(format, d, err)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "UnitTest" {
				definition = ""
			}
		}
	}
	set := resultSet{}
	for _, res := range found {
		set.add(trxID(classOf[res.testID], res.testName), trxStatus(res.outcome))
	}
	addUnseen(set, opts.Expected, schemas.StatusMissing)
	return set.sorted(), nil
}

// trxClassName strips the assembly qualification older MSTest writes:
// "Ns.Tests.Math, Ns.Tests, Version=1.0.0.0, ..." → "Ns.Tests.Math".
func trxClassName(className string) string {
	name, _, _ := strings.Cut(className, ",")
	return strings.TrimSpace(name)
}

// trxID builds a result's id (see TRX).
func trxID(className, testName string) string {
	if testName == "" {
		return ""
	}
	if className == "" {
		return slashPath(testName)
	}
	name := strings.TrimPrefix(testName, className+".")
	return slashPath(className + "/" + name)
}

// trxStatus maps a TRX outcome to a status (see TRX).
func trxStatus(outcome string) schemas.Status {
	switch strings.ToLower(strings.TrimSpace(outcome)) {
	case "passed", "passedbutrunaborted", "completed", "warning":
		return schemas.StatusPass
	case "notexecuted", "inconclusive":
		return schemas.StatusSkip
	case "timeout":
		return schemas.StatusTimeout
	case "error", "aborted", "disconnected", "notrunnable", "inprogress", "pending":
		return schemas.StatusError
	}
	return schemas.StatusFail
}
