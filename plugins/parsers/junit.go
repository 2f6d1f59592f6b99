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
// A suite-level error is reported by tools in two shapes: a <failure> or
// <error> that is a direct child of <testsuite> (a class or fixture setup
// that failed before any test ran), and a <testcase> without a name that
// holds one (GoogleTest's failing SetUpTestSuite, JUnit 5's failing
// @BeforeAll under Surefire). Either gives error to every test of the
// suite: each testcase reported in it (nested suites included) and each
// expected id under the suite's name, or under the nameless testcase's
// classname. When the suite knows no test at all, the error is reported
// under the synthetic id "<scope>/(setup)", where scope is that classname
// or the suite's name ("(setup)" alone when both are empty), so that a
// suite that never ran cannot pass by saying nothing. Named pseudo-tests of
// class-level failures (JUnit 4's "initializationError", Gradle's
// "classMethod") are ordinary testcases and keep their own ids.
//
// Expected tests never seen are missing; an id reported more than once
// keeps its worst status. XML that is not well-formed is an error naming
// its line.
type JUnit struct{}

var _ Parser = (*JUnit)(nil)

// junitSetupID is the last element of the synthetic id of a suite-level
// error in a suite that knows no test (see JUnit).
const junitSetupID = "(setup)"

// junitSuite is an open <testsuite>.
type junitSuite struct {
	name string
	// ids are the tests reported in the suite and the suites in it.
	ids []string
	// failed: the suite has a suite-level error (see JUnit).
	failed bool
	// scopes are the id prefixes the suite-level errors name: the suite's
	// name, and the classnames of nameless testcases holding an error.
	scopes []string
}

// Parse implements Parser.
func (*JUnit) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	const format = "junit"
	d := newXMLDecoder(r)
	set := resultSet{}
	var suites []*junitSuite // the enclosing <testsuite> elements, outermost first
	// parents holds the local names of the open elements, to tell a
	// <failure> that is a suite's own child from one nested deeper.
	var parents []string
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
			parent := ""
			if len(parents) > 0 {
				parent = parents[len(parents)-1]
			}
			switch name := t.Name.Local; {
			case name == "testsuite":
				suites = append(suites, &junitSuite{name: strings.TrimSpace(xmlAttr(t, "name"))})
			case name == "testcase":
				var suite *junitSuite
				if len(suites) > 0 {
					suite = suites[len(suites)-1]
				}
				c, err := readJUnitCase(d, t)
				if err != nil {
					return nil, xmlError(format, d, err)
				}
				addJUnitCase(set, suite, c, opts.Expected)
				continue // its end tag was read
			case parent == "testsuite" && len(suites) > 0 && junitSuiteError[name]:
				suite := suites[len(suites)-1]
				suite.failed = true
				suite.scopes = append(suite.scopes, suite.name)
				// Its message and stack trace say nothing more.
				if err := d.Skip(); err != nil {
					return nil, xmlError(format, d, err)
				}
				continue
			}
			parents = append(parents, t.Name.Local)
		case xml.EndElement:
			if len(parents) > 0 {
				parents = parents[:len(parents)-1]
			}
			if t.Name.Local == "testsuite" && len(suites) > 0 {
				closed := suites[len(suites)-1]
				suites = suites[:len(suites)-1]
				closeJUnitSuite(set, closed, opts.Expected)
				if len(suites) > 0 {
					outer := suites[len(suites)-1]
					outer.ids = append(outer.ids, closed.ids...)
				}
			}
		}
	}
	addUnseen(set, opts.Expected, schemas.StatusMissing)
	return set.sorted(), nil
}

// junitSuiteError names the elements that, as a direct child of
// <testsuite> or inside a nameless <testcase>, are a suite-level error.
var junitSuiteError = map[string]bool{"failure": true, "error": true, "rerunFailure": true, "rerunError": true}

// addJUnitCase records one testcase read in suite (nil outside any).
func addJUnitCase(set resultSet, suite *junitSuite, c junitCase, expected []string) {
	if c.name == "" {
		if !c.suiteError {
			return // names nothing, and says nothing went wrong
		}
		if suite == nil {
			// No suite to blame: the classname is all it names.
			suite = &junitSuite{}
			defer closeJUnitSuite(set, suite, expected)
		}
		suite.failed = true
		if c.classname != "" {
			suite.scopes = append(suite.scopes, c.classname)
		} else {
			suite.scopes = append(suite.scopes, suite.name)
		}
		return
	}
	id := junitID(c.classname, c.name, suiteName(suite))
	set.add(id, c.status)
	if suite != nil {
		suite.ids = append(suite.ids, id)
	}
}

// suiteName is the name of suite, "" for none.
func suiteName(suite *junitSuite) string {
	if suite == nil {
		return ""
	}
	return suite.name
}

// closeJUnitSuite gives error to every test of a suite with a suite-level
// error (see JUnit).
func closeJUnitSuite(set resultSet, suite *junitSuite, expected []string) {
	if !suite.failed {
		return
	}
	known := len(suite.ids) > 0
	for _, id := range suite.ids {
		set.add(id, schemas.StatusError)
	}
	for _, scope := range suite.scopes {
		if scope == "" {
			continue
		}
		prefix := slashPath(scope) + "/"
		for _, id := range expected {
			if strings.HasPrefix(id, prefix) {
				set.add(id, schemas.StatusError)
				known = true
			}
		}
	}
	if known {
		return
	}
	scope := ""
	for _, s := range suite.scopes {
		if s != "" {
			scope = s
			break
		}
	}
	if scope == "" {
		set.add(junitSetupID, schemas.StatusError)
		return
	}
	set.add(slashPath(scope)+"/"+junitSetupID, schemas.StatusError)
}

// junitCase is what one <testcase> reported.
type junitCase struct {
	classname, name string // trimmed
	status          schemas.Status
	// suiteError: a nameless testcase held a failure or an error (see
	// JUnit).
	suiteError bool
}

// readJUnitCase reads a <testcase> whose start tag was just read, up to
// and including its end tag.
func readJUnitCase(d *xml.Decoder, start xml.StartElement) (junitCase, error) {
	c := junitCase{
		classname: strings.TrimSpace(xmlAttr(start, "classname")),
		name:      strings.TrimSpace(xmlAttr(start, "name")),
		status:    schemas.StatusPass,
	}
	switch xmlAttr(start, "status") {
	case "notrun", "disabled":
		c.status = schemas.StatusSkip
	case "fail":
		c.status = schemas.StatusFail
	}
	switch xmlAttr(start, "result") {
	case "skipped", "suppressed":
		c.status = worse(c.status, schemas.StatusSkip)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return c, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "failure", "rerunFailure":
				c.status = worse(c.status, schemas.StatusFail)
			case "error", "rerunError":
				c.status = worse(c.status, schemas.StatusError)
			case "skipped":
				c.status = worse(c.status, schemas.StatusSkip)
			}
			if junitSuiteError[t.Name.Local] {
				c.suiteError = true
			}
			// The children's text (messages, stack traces, captured
			// output) says nothing about the status.
			if err := d.Skip(); err != nil {
				return c, err
			}
		case xml.EndElement:
			return c, nil
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
