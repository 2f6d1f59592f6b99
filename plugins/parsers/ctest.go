package parsers

import (
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// CTest parses the text CTest prints while it runs tests, one line per
// finished test:
//
//	1/13 Test  #1: passes ...........................   Passed    0.01 sec
//	4/13 Test  #4: aborts ...........................Subprocess aborted***Exception:   0.00 sec
//
// The id is the test's name as given to add_test (CTest allows blanks in
// it). The status is read from the marker after the dots:
//
//   - "Passed" gives pass (also for a WILL_FAIL test that failed as it
//     should).
//   - "***Failed" (whatever reason follows: exit code, a required regular
//     expression not found, ...) gives fail.
//   - "***Exception:" (SegFault, Illegal, Numerical, Interrupt, a
//     subprocess that aborted, ...) gives error.
//   - "***Timeout" gives timeout.
//   - "***Skipped" (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION) and
//     "***Not Run (Disabled)" give skip.
//   - "***Not Run" gives build-failed when CTest said just before that it
//     could not find the test's executable (the target was not built), and
//     error otherwise (a failed fixture, a resource that was unavailable).
//   - Any other "***" marker gives fail.
//
// A test CTest announced ("Start 3: name") and never finished (CTest was
// killed) gives error. Expected tests never seen are missing; an id
// reported more than once (--repeat) keeps its worst status.
type CTest struct{}

var _ Parser = (*CTest)(nil)

// Parse implements Parser. It fails only when r cannot be read.
func (*CTest) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	set := resultSet{}
	started := map[string]bool{}
	noExecutable := false // CTest just said it found no executable
	lines := newLineScanner(r)
	lineNo := 0
	for lines.Scan() {
		lineNo++
		line := string(lines.Bytes())
		if name, marker, ok := ctestResultLine(line); ok {
			status := ctestStatus(marker, noExecutable)
			noExecutable = false
			set.add(name, status)
			delete(started, name)
			continue
		}
		if name, ok := ctestStartLine(line); ok {
			started[name] = true
			continue
		}
		if strings.HasPrefix(line, "Could not find executable ") || strings.HasPrefix(line, "Unable to find executable: ") {
			noExecutable = true
		}
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("ctest: reading line %d: %w", lineNo+1, err)
	}
	for name := range started {
		set.add(name, schemas.StatusError)
	}
	addUnseen(set, opts.Expected, schemas.StatusMissing)
	return set.sorted(), nil
}

// ctestResultLine reads "<i>/<n> Test #<k>: <name> <dots><marker>" and
// returns the name and the marker with what follows it.
func ctestResultLine(line string) (name, marker string, ok bool) {
	rest := strings.TrimLeft(line, " ")
	progress, rest, ok := strings.Cut(rest, " Test ")
	if !ok || !isCounter(progress) {
		return "", "", false
	}
	rest, ok = cutTestNumber(strings.TrimLeft(rest, " "))
	if !ok {
		return "", "", false
	}
	// The marker starts with "***", or is "Passed" after blanks; an
	// exception's description may come before its "***".
	at := strings.Index(rest, "***")
	if at < 0 {
		if at = strings.Index(rest, "   Passed"); at < 0 {
			return "", "", false
		}
	}
	head, marker := rest[:at], strings.TrimLeft(rest[at:], " ")
	// head is the name, a blank, and the dots that pad it (none when the
	// name is long), perhaps followed by an exception's description.
	if dots := strings.LastIndex(head, " ."); dots >= 0 {
		head = head[:dots]
	}
	name = strings.TrimSpace(head)
	return name, marker, name != ""
}

// ctestStartLine reads "Start <k>: <name>", which CTest prints indented
// when a test starts; the indent keeps a test's own output from being taken
// for it.
func ctestStartLine(line string) (string, bool) {
	trimmed := strings.TrimLeft(line, " ")
	rest, ok := strings.CutPrefix(trimmed, "Start ")
	if !ok || len(trimmed) == len(line) {
		return "", false
	}
	number, name, ok := strings.Cut(strings.TrimLeft(rest, " "), ": ")
	if !ok || !isDigits(number) {
		return "", false
	}
	name = strings.TrimSpace(name)
	return name, name != ""
}

// cutTestNumber removes the "#<k>: " before a test's name.
func cutTestNumber(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "#")
	if !ok {
		return "", false
	}
	number, rest, ok := strings.Cut(rest, ": ")
	return rest, ok && isDigits(number)
}

// isCounter reports whether s is "<i>/<n>".
func isCounter(s string) bool {
	i, n, ok := strings.Cut(s, "/")
	return ok && isDigits(i) && isDigits(n)
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// ctestStatus maps a result marker to a status (see CTest).
func ctestStatus(marker string, noExecutable bool) schemas.Status {
	m := strings.TrimPrefix(marker, "***")
	switch {
	case strings.HasPrefix(m, "Passed"):
		return schemas.StatusPass
	case strings.HasPrefix(m, "Exception"):
		return schemas.StatusError
	case strings.HasPrefix(m, "Timeout"):
		return schemas.StatusTimeout
	case strings.HasPrefix(m, "Skipped"), strings.HasPrefix(m, "Not Run (Disabled)"):
		return schemas.StatusSkip
	case strings.HasPrefix(m, "Not Run"):
		if noExecutable {
			return schemas.StatusBuildFailed
		}
		return schemas.StatusError
	}
	return schemas.StatusFail
}
