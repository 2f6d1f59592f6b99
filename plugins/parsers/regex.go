package parsers

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// RegexOptions declares, in a manifest, how to read the output of a runner
// no built-in parser knows: a pattern for the lines that report a test, and
// what the reported words mean.
type RegexOptions struct {
	// Pattern is a regular expression in Go's syntax (RE2: no
	// backreferences, linear time), matched against each line of output
	// without its line ending. It must have the named groups "id" and
	// "status": `^(?P<status>PASS|FAIL): (?P<id>\S+)`.
	Pattern string
	// Statuses maps the text the "status" group captures to a status name
	// ("pass", "fail", "skip", "error", "timeout", "build-failed",
	// "missing"): {"PASS": "pass", "FAIL": "fail"}. When empty, the captured
	// text must be a status name itself.
	Statuses map[string]string
}

// Validate reports what is wrong with the options, so that a manifest can
// be rejected before anything runs.
func (o *RegexOptions) Validate() error {
	_, err := o.compile()
	return err
}

// regexParser is RegexOptions made ready for use.
type regexParser struct {
	re               *regexp.Regexp
	idGroup, stGroup int
	statuses         map[string]schemas.Status
}

func (o *RegexOptions) compile() (*regexParser, error) {
	if o == nil || o.Pattern == "" {
		return nil, errors.New("no pattern: the manifest must declare one for this parser")
	}
	re, err := regexp.Compile(o.Pattern)
	if err != nil {
		return nil, fmt.Errorf("pattern: %w", err)
	}
	p := &regexParser{re: re, idGroup: re.SubexpIndex("id"), stGroup: re.SubexpIndex("status")}
	if p.idGroup < 0 || p.stGroup < 0 {
		return nil, fmt.Errorf("pattern %q must have the named groups (?P<id>...) and (?P<status>...)", o.Pattern)
	}
	p.statuses = make(map[string]schemas.Status, len(o.Statuses))
	// Sorted, so that the error for several bad entries is always the same.
	words := make([]string, 0, len(o.Statuses))
	for word := range o.Statuses {
		words = append(words, word)
	}
	sort.Strings(words)
	for _, word := range words {
		status := schemas.Status(o.Statuses[word])
		if !status.Valid() {
			return nil, fmt.Errorf("statuses: %q maps to %q, which is not a status (want one of %s)",
				word, o.Statuses[word], statusNames())
		}
		p.statuses[word] = status
	}
	return p, nil
}

// Regex parses output with the pattern a manifest declares in
// Options.Regex.
//
// Each line (with terminal colour codes removed) is matched against the
// pattern. A line that does not match, or whose match leaves the "id"
// group empty (a pattern may have branches for other lines), is ignored.
// Otherwise the id is the captured text, trimmed, with "\" turned into "/";
// its status is the captured status text looked up in Statuses (or taken as
// a status name when Statuses is empty). A status text the manifest did not
// declare is an error naming the line, rather than a guess. An id reported
// more than once keeps its worst status; expected tests never seen are
// missing.
type Regex struct{}

var _ Parser = (*Regex)(nil)

// Parse implements Parser.
func (*Regex) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	p, err := opts.Regex.compile()
	if err != nil {
		return nil, fmt.Errorf("regex: %w", err)
	}
	set := resultSet{}
	lines := newLineScanner(r)
	lineNo := 0
	for lines.Scan() {
		lineNo++
		line := stripANSI(string(lines.Bytes()))
		m := p.re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		id := slashPath(strings.TrimSpace(m[p.idGroup]))
		if id == "" {
			continue
		}
		status, ok := p.status(m[p.stGroup])
		if !ok {
			return nil, fmt.Errorf("regex: line %d: %s: %q", lineNo, p.unknownStatus(m[p.stGroup], id), clipLine(line))
		}
		set.add(id, status)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("regex: reading line %d: %w", lineNo+1, err)
	}
	addUnseen(set, opts.Expected, schemas.StatusMissing)
	return set.sorted(), nil
}

// status maps a captured status text to a status.
func (p *regexParser) status(text string) (schemas.Status, bool) {
	if len(p.statuses) == 0 {
		s := schemas.Status(text)
		return s, s.Valid()
	}
	s, ok := p.statuses[text]
	return s, ok
}

// unknownStatus says why a captured status text has no status.
func (p *regexParser) unknownStatus(text, id string) string {
	if len(p.statuses) == 0 {
		return fmt.Sprintf("status %q of test %q is not a status name, and the manifest maps none", text, id)
	}
	return fmt.Sprintf("status %q of test %q is not among the manifest's statuses", text, id)
}

// statusNames lists the valid status names for error messages.
func statusNames() string {
	names := make([]string, len(schemas.Statuses))
	for i, s := range schemas.Statuses {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// clipLine shortens a line quoted in an error message.
func clipLine(s string) string {
	const limit = 200
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…"
}
