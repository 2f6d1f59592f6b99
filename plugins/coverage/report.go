package coverage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Helpers shared by the importers of the C, C++, Rust and .NET tools'
// reports (lcov, gcov, cobertura, llvm-json).

// maxReportLine bounds the length of one line of a text report; no tool
// writes lines anywhere near it.
const maxReportLine = 1 << 20

// scanReportLines calls fn with each line of r, without its line ending.
// An error from fn, a line longer than maxReportLine or a read error stops
// the scan with an error naming the format and the line.
func scanReportLines(r io.Reader, format string, fn func(line string) error) error {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 64<<10), maxReportLine)
	lineNo := 0
	for scanner.Scan() {
		lineNo++
		if err := fn(strings.TrimSuffix(scanner.Text(), "\r")); err != nil {
			return fmt.Errorf("%s: line %d: %w", format, lineNo, err)
		}
	}
	if err := scanner.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s: line %d: longer than %d bytes", format, lineNo+1, maxReportLine)
		}
		return fmt.Errorf("%s: reading line %d: %w", format, lineNo+1, err)
	}
	return nil
}

// parseLineNumber reads a source line number, 1 up to maxReportedLines.
func parseLineNumber(s string) (int, error) {
	n, err := parseNatural(s, "line number")
	switch {
	case err != nil:
		return 0, err
	case n < 1:
		return 0, fmt.Errorf("line number %d: lines start at 1", n)
	case n > maxReportedLines:
		return 0, fmt.Errorf("line number %d is beyond the supported %d", n, maxReportedLines)
	}
	return n, nil
}

// countRan reads an execution count, an integer of any size, and reports
// whether it says the code ran. A negative count is one gcov derived from
// counters that disagree (threads updating them without atomics): that can
// only happen where counters moved, so the code ran.
func countRan(s string) (bool, error) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return false, fmt.Errorf("execution count %q is not an integer", s)
	}
	return strings.Trim(digits, "0") != "", nil
}

// reportedLine is one line a report names, kept until its file's path can
// be resolved.
type reportedLine struct {
	number int
	ran    bool
}

// maxReportEntries bounds how many line reports (repeats included) one
// import accepts. lineCollector refuses a report that covers too many
// distinct lines only once it has read it all; a compressed report could
// repeat one line billions of times before that.
const maxReportEntries = 2 * maxReportedLines

// reportCollector is a lineCollector that counts what it is given.
type reportCollector struct {
	*lineCollector
	entries, limit int
}

func newReportCollector() *reportCollector {
	return &reportCollector{lineCollector: newLineCollector(), limit: maxReportEntries}
}

// addLines records lines [first, last] of path (see lineCollector.add),
// refusing a report once it has listed more than its limit.
func (c *reportCollector) addLines(path string, first, last int, ran bool) error {
	c.entries++
	if c.entries > c.limit {
		return fmt.Errorf("the report lists more than %d lines; refusing it", c.limit)
	}
	c.add(path, first, last, ran)
	return nil
}

// addFile records that path was compiled, even when the report names no
// line of it (a header with declarations only): "compiled, nothing to run"
// is not "not compiled".
func (c *reportCollector) addFile(path string) {
	if _, ok := c.files[path]; !ok {
		c.files[path] = &fileRanges{}
	}
}

// joinReportPath resolves a path from a report against the directory it is
// relative to (a compiler's working directory, a Cobertura source). A
// rooted path, or an empty dir, leaves p as it is; RepoRelative then
// cleans the result and makes it repo-relative, whatever its OS spelling.
func joinReportPath(dir, p string) string {
	if dir == "" {
		return p
	}
	if _, rooted := canonicalPath(p); rooted {
		return p
	}
	return dir + "/" + p
}
