package parsers

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// TAP parses one Test Anything Protocol stream, versions 12 to 14 (Perl's
// Test::More, node --test --test-reporter=tap, node-tap, bats, ...).
//
// A test point ("ok 1 - name # directive", "not ok 2 name") is named by its
// description, without the "- " before it and with "\#" read as "#"; a test
// point without description is named by its number. Subtests are test
// points indented by four blanks per level; they come before the test point
// that closes them, whose name becomes their prefix: "parent/child". A
// subtest that no test point closed keeps the name of its "# Subtest: name"
// comment. "\" in names becomes "/". Test points with the same name (node
// runs several files as one stream) are one id, which keeps the worst
// status.
//
// A buffered subtest (TAP 14, node-tap) is the other way round: its test
// point comes first and ends in " {" ("ok 1 - name {", "ok 1 - name # TODO
// {", "ok 1 - name { # TODO"), or is followed, after its YAML block, by a
// line "{" of its own; the subtest's indented lines follow, up to a line
// "}" at the test point's indent. The children are "name/child", and the
// brace is no part of any name. A buffered subtest whose "}" never comes
// ends where its parent's next line is.
//
//   - "ok" gives pass and "not ok" gives fail.
//   - A "# SKIP" directive gives skip, whether the test point says ok or
//     not ok.
//   - A "# TODO" test is work its author does not expect to pass yet. TAP
//     does not count its failure as a failure of the suite, and neither does
//     this parser: a failing TODO test gives skip (not pass: it did not
//     pass). A TODO test that says ok does pass, and gives pass.
//   - Any other text after "#" is a comment ("# time=2ms") and is dropped.
//   - Numbers of a plan ("1..N", before or after its tests, at any level)
//     that no test point reported give missing, named by number ("3", or
//     "parent/3" in a subtest), unless Expected names the tests.
//   - After "Bail out!" the harness stops, and so does the parser: the
//     unreported numbers and the Expected tests never seen give error, and
//     so does a subtest that was still running.
//   - YAML diagnostics ("---" to "..." under a test point), comments,
//     pragmas and anything else are ignored.
//
// Expected tests never seen are missing.
type TAP struct{}

var _ Parser = (*TAP)(nil)

// Parse implements Parser. It fails only when r cannot be read.
func (*TAP) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	run := &tapRun{levels: []*tapLevel{newTAPLevel()}, yamlIndent: -1, lastPointIndent: -1}
	lines := newLineScanner(r)
	lineNo := 0
	for !run.bailed && lines.Scan() {
		lineNo++
		run.handleLine(stripANSI(string(lines.Bytes())))
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("tap: reading line %d: %w", lineNo+1, err)
	}
	return run.results(opts.Expected), nil
}

// tapRun is the state of one parse.
type tapRun struct {
	// levels holds the top level and the subtests being read, outermost
	// first.
	levels []*tapLevel
	// yamlIndent is the indent of the "---" that opened the YAML block
	// being skipped, or -1.
	yamlIndent int
	// lastPointIndent is the indent of the last test point (-1 before the
	// first): its YAML block is indented two more.
	lastPointIndent int
	bailed          bool
}

// tapLevel is what one level of nesting has reported.
type tapLevel struct {
	// name is the subtest's name from "# Subtest: name"; the test point
	// that closes the level names it for good.
	name string
	plan int // the N of "1..N"; -1 while there is none
	// lastNumber is the number of the last test point, for the ones that
	// leave out theirs.
	lastNumber int
	numbers    map[int]bool // numbers reported
	results    []tapResult
	// gaps are the planned numbers of closed subtests that never reported,
	// named by number; they count only when nothing is expected.
	gaps []tapResult
	// buffered: the level is a buffered subtest, opened by its own test
	// point (already recorded in the parent under name) and closed by "}".
	buffered bool
	// lastName is the name the last test point got, for a "{" on a line
	// of its own after it.
	lastName string
}

// tapResult is a result relative to its level: id is the path below it.
type tapResult struct {
	id     string
	status schemas.Status
}

func newTAPLevel() *tapLevel {
	return &tapLevel{plan: -1, numbers: map[int]bool{}}
}

func (run *tapRun) handleLine(line string) {
	content := strings.TrimLeft(line, " ")
	indent := len(line) - len(content)
	if run.yamlIndent >= 0 {
		if indent == run.yamlIndent && strings.TrimRight(content, " ") == "..." {
			run.yamlIndent = -1
		}
		return
	}
	if run.lastPointIndent >= 0 && indent == run.lastPointIndent+2 && strings.TrimRight(content, " ") == "---" {
		run.yamlIndent = indent
		return
	}
	depth := indent / 4
	switch {
	case strings.HasPrefix(content, "Bail out!"):
		run.bailed = true
	case strings.TrimRight(content, " \t") == "{":
		// A buffered subtest whose test point came first, with its YAML.
		if run.lastPointIndent == indent && len(run.levels) > depth && run.levels[depth].lastName != "" {
			run.closeDeeperThan(depth)
			run.openBuffered(depth, run.levels[depth].lastName)
		}
	case strings.TrimRight(content, " \t") == "}":
		// The end of a buffered subtest one level down; anything else is
		// not TAP.
		if len(run.levels) > depth+1 && run.levels[depth+1].buffered {
			run.closeDeeperThan(depth + 1)
			run.foldDeepest(schemas.StatusMissing)
		}
	case strings.HasPrefix(content, "# Subtest"):
		// "# Subtest: name" (TAP 14) or "# Subtest name" (node). It opens a
		// new subtest one level down.
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(content, "# Subtest"), ":"))
		run.closeDeeperThan(depth)
		run.level(depth + 1).name = name
	default:
		if n, ok := tapPlan(content); ok {
			run.closeDeeperThan(depth)
			run.level(depth).plan = n
			return
		}
		if point, ok := parseTAPPoint(content); ok {
			run.lastPointIndent = indent
			run.handlePoint(depth, point)
		}
	}
}

// level returns the level at depth, opening the levels up to it.
func (run *tapRun) level(depth int) *tapLevel {
	for len(run.levels) <= depth {
		run.levels = append(run.levels, newTAPLevel())
	}
	return run.levels[depth]
}

// handlePoint records a test point at depth; the subtest just below it, if
// any, is its own.
func (run *tapRun) handlePoint(depth int, p tapPoint) {
	run.closeDeeperThan(depth + 1)
	if len(run.levels) > depth+1 && run.levels[depth+1].buffered {
		// A buffered subtest whose "}" never came: it belongs to its own
		// test point, not to this one.
		run.foldDeepest(schemas.StatusMissing)
	}
	parent := run.level(depth)
	if p.number == 0 {
		p.number = parent.lastNumber + 1
	}
	parent.lastNumber = p.number
	parent.numbers[p.number] = true
	name := p.name
	if len(run.levels) > depth+1 {
		child := run.levels[depth+1]
		run.levels = run.levels[:depth+1]
		if name == "" {
			name = child.name
		}
		if name == "" {
			name = strconv.Itoa(p.number)
		}
		parent.adopt(name, child, schemas.StatusMissing)
	}
	if name == "" {
		name = strconv.Itoa(p.number)
	}
	parent.results = append(parent.results, tapResult{id: name, status: p.status})
	parent.lastName = name
	if p.opensSubtest {
		run.openBuffered(depth, name)
	}
}

// openBuffered opens the buffered subtest called name below depth; its test
// point is already recorded.
func (run *tapRun) openBuffered(depth int, name string) {
	run.levels = run.levels[:depth+1]
	child := newTAPLevel()
	child.name, child.buffered = name, true
	run.levels = append(run.levels, child)
}

// closeDeeperThan folds the levels below depth into their parents.
func (run *tapRun) closeDeeperThan(depth int) {
	for len(run.levels) > depth+1 {
		run.foldDeepest(schemas.StatusMissing)
	}
}

// foldDeepest folds the deepest level into its parent as a subtest no test
// point closed: it keeps the name its "# Subtest" line gave, or the number
// its test point would have had. Its planned numbers that never reported
// get unreported.
func (run *tapRun) foldDeepest(unreported schemas.Status) {
	n := len(run.levels)
	child, parent := run.levels[n-1], run.levels[n-2]
	run.levels = run.levels[:n-1]
	name := child.name
	if name == "" {
		name = strconv.Itoa(parent.lastNumber + 1)
	}
	parent.adopt(name, child, unreported)
}

// adopt adds what child, the subtest called name, reported to l, and its
// planned numbers that never reported as gaps with status unreported.
func (l *tapLevel) adopt(name string, child *tapLevel, unreported schemas.Status) {
	for _, r := range child.results {
		l.results = append(l.results, tapResult{id: name + "/" + r.id, status: r.status})
	}
	for _, g := range child.gaps {
		l.gaps = append(l.gaps, tapResult{id: name + "/" + g.id, status: g.status})
	}
	for _, number := range child.unreported() {
		l.gaps = append(l.gaps, tapResult{id: name + "/" + strconv.Itoa(number), status: unreported})
	}
}

// unreported lists the planned numbers that no test point reported.
func (l *tapLevel) unreported() []int {
	var numbers []int
	for n := 1; n <= l.plan; n++ {
		if !l.numbers[n] {
			numbers = append(numbers, n)
		}
	}
	return numbers
}

func (run *tapRun) results(expected []string) []schemas.TestResult {
	unreported := schemas.StatusMissing
	if run.bailed {
		unreported = schemas.StatusError
	}
	for len(run.levels) > 1 {
		// A subtest still open. After a bail out it was running when the
		// harness stopped: it is the error, in its parent's next number
		// (a buffered one's test point has already said how it ended).
		if run.bailed && !run.levels[len(run.levels)-1].buffered {
			child, parent := run.levels[len(run.levels)-1], run.levels[len(run.levels)-2]
			number := parent.lastNumber + 1
			if child.name == "" {
				child.name = strconv.Itoa(number)
			}
			parent.lastNumber = number
			parent.numbers[number] = true
			parent.results = append(parent.results, tapResult{id: child.name, status: schemas.StatusError})
		}
		run.foldDeepest(unreported)
	}
	top := run.levels[0]
	set := resultSet{}
	for _, r := range top.results {
		set.add(slashPath(r.id), r.status)
	}
	if !hasNonEmpty(expected) {
		for _, g := range top.gaps {
			set.add(slashPath(g.id), g.status)
		}
		for _, number := range top.unreported() {
			set.add(strconv.Itoa(number), unreported)
		}
	}
	addUnseen(set, expected, unreported)
	return set.sorted()
}

// tapPoint is one parsed test point.
type tapPoint struct {
	number int // 0 when the test point leaves it out
	name   string
	status schemas.Status
	// opensSubtest: the line ends in "{", opening a buffered subtest.
	opensSubtest bool
}

// parseTAPPoint reads "ok|not ok [number] [-] [description] [# directive]".
func parseTAPPoint(line string) (tapPoint, bool) {
	var p tapPoint
	rest, ok := strings.CutPrefix(line, "not ok")
	p.status = schemas.StatusFail
	if !ok {
		if rest, ok = strings.CutPrefix(line, "ok"); !ok {
			return p, false
		}
		p.status = schemas.StatusPass
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return p, false // "okay", "not okay"
	}
	rest = strings.TrimLeft(rest, " \t")
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits > 0 {
		n, err := strconv.Atoi(rest[:digits])
		if err != nil || n > maxTAPNumber {
			return p, false
		}
		p.number, rest = n, rest[digits:]
	}
	description, directive := splitTAPDirective(rest)
	if d, ok := cutOpenBrace(directive); ok {
		directive, p.opensSubtest = d, true
	}
	description = strings.TrimSpace(description)
	description = strings.TrimSpace(strings.TrimPrefix(description, "-"))
	if d, ok := cutOpenBrace(description); ok {
		description, p.opensSubtest = strings.TrimSpace(d), true
	}
	p.name = description
	word := strings.ToLower(strings.TrimSpace(directive))
	switch {
	case strings.HasPrefix(word, "skip"):
		p.status = schemas.StatusSkip
	case strings.HasPrefix(word, "todo") && p.status == schemas.StatusFail:
		p.status = schemas.StatusSkip
	}
	return p, true
}

// cutOpenBrace cuts the "{" that ends a buffered subtest's test point from
// s, a description or a directive: the brace must be all of s or follow a
// blank, so that a name such as "parses a{" keeps its brace.
func cutOpenBrace(s string) (string, bool) {
	s = strings.TrimRight(s, " \t")
	rest, ok := strings.CutSuffix(s, "{")
	if !ok || (rest != "" && !strings.HasSuffix(rest, " ") && !strings.HasSuffix(rest, "\t")) {
		return s, false
	}
	return rest, true
}

// maxTAPNumber bounds test numbers and plans: a plan of "1..999999999999"
// must not make the parser list a trillion missing tests.
const maxTAPNumber = 1 << 20

// splitTAPDirective splits a test point's text at its first "#" not
// escaped as "\#", and unescapes the description.
func splitTAPDirective(s string) (description, directive string) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '#' || s[i+1] == '\\'):
			i++
			b.WriteByte(s[i])
		case s[i] == '#':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), ""
}

// tapPlan reads a plan, "1..N" with perhaps a comment after it.
func tapPlan(line string) (int, bool) {
	rest, ok := strings.CutPrefix(line, "1..")
	if !ok {
		return 0, false
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 || (digits < len(rest) && rest[digits] != ' ' && rest[digits] != '\t' && rest[digits] != '#') {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:digits])
	if err != nil || n > maxTAPNumber {
		return 0, false
	}
	return n, true
}
