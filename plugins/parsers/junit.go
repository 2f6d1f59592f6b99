package parsers

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// JUnit parses JUnit XML reports as the tools that write them spell it:
// Ant and Maven Surefire/Failsafe, GoogleTest (--gtest_output=xml), CTest
// (--output-junit) and the many tools that copy one of them.
//
// The report is read as a stream of tokens, never as a whole document. A
// <testsuites> root, a single <testsuite> root, suites nested in suites,
// several reports concatenated (several roots, each perhaps with its own
// XML declaration) and <testcase> elements with no suite around them are
// all accepted; text outside the elements is ignored.
//
// A test id is "<classname>/<name>", with the innermost suite's name
// standing in for an empty classname, and the name alone when there is
// neither, or when the classname is the name itself: CTest writes the
// test's name in both, and its ids then match the ctest parser's.
// GoogleTest's classname is the suite ("Math/Adds", and for value-
// parameterised tests "Values/Param/IsSmall/0").
//
// A testcase's status is the worst of what it holds:
//
//   - nothing: pass.
//   - <failure>, or Surefire's <rerunFailure> (a rerun that failed too):
//     fail. So does CTest's status="fail" on its own.
//   - <error> or <rerunError>: error. JUnit writes <error> for an exception
//     the test did not expect, as opposed to a failed assertion.
//   - <skipped>; GoogleTest's status="notrun" (a DISABLED_ test) or
//     result="skipped"/"suppressed"; CTest's status="notrun" or "disabled":
//     skip. CTest also reports as skipped a test whose executable was never
//     built; its text output says more (see CTest).
//   - Surefire's <flakyFailure> and <flakyError> are ignored: Surefire
//     writes them for a test that failed, was rerun (rerunFailingTestsCount)
//     and then passed, so the test passes. osbench finds flaky tests by
//     running suites several times, not by trusting one run's retries.
//
// Expected tests never seen are missing; an id reported more than once
// keeps its worst status. XML that is not well-formed is an error naming
// its line.
type JUnit struct{}

var _ Parser = (*JUnit)(nil)

// Parse implements Parser.
func (*JUnit) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	const format = "junit"
	d := newXMLDecoder(r)
	set := resultSet{}
	var suites []string // names of the enclosing <testsuite> elements
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
			case "testsuite":
				suites = append(suites, strings.TrimSpace(xmlAttr(t, "name")))
			case "testcase":
				suite := ""
				if len(suites) > 0 {
					suite = suites[len(suites)-1]
				}
				id, status, err := readJUnitCase(d, t, suite)
				if err != nil {
					return nil, xmlError(format, d, err)
				}
				set.add(id, status)
			}
		case xml.EndElement:
			if t.Name.Local == "testsuite" && len(suites) > 0 {
				suites = suites[:len(suites)-1]
			}
		}
	}
	addUnseen(set, opts.Expected, schemas.StatusMissing)
	return set.sorted(), nil
}

// readJUnitCase reads a <testcase> whose start tag was just read, up to
// and including its end tag, and returns its id and status.
func readJUnitCase(d *xml.Decoder, start xml.StartElement, suite string) (string, schemas.Status, error) {
	status := schemas.StatusPass
	switch xmlAttr(start, "status") {
	case "notrun", "disabled":
		status = schemas.StatusSkip
	case "fail":
		status = schemas.StatusFail
	}
	switch xmlAttr(start, "result") {
	case "skipped", "suppressed":
		status = worse(status, schemas.StatusSkip)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return "", "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "failure", "rerunFailure":
				status = worse(status, schemas.StatusFail)
			case "error", "rerunError":
				status = worse(status, schemas.StatusError)
			case "skipped":
				status = worse(status, schemas.StatusSkip)
			}
			// The children's text (messages, stack traces, captured
			// output) says nothing about the status.
			if err := d.Skip(); err != nil {
				return "", "", err
			}
		case xml.EndElement:
			return junitID(xmlAttr(start, "classname"), xmlAttr(start, "name"), suite), status, nil
		}
	}
}

// junitID builds a testcase's id (see JUnit).
func junitID(classname, name, suite string) string {
	classname, name = strings.TrimSpace(classname), strings.TrimSpace(name)
	if name == "" {
		return "" // names nothing; resultSet ignores it
	}
	if classname == "" {
		classname = suite
	}
	if classname == "" || classname == name {
		return slashPath(name)
	}
	return slashPath(classname + "/" + name)
}
