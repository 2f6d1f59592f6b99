package parsers

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Libtest parses the human output of `cargo test`: the lines libtest prints
// on stdout, merged with cargo's status lines, which cargo prints on stderr
// (run `cargo test --no-fail-fast 2>&1`; without --no-fail-fast cargo stops
// at the first failing test binary, and later tests go missing).
//
// A test id is "<binary key>/<test name>". Cargo announces each test binary
// with a status line, and the key is taken from it so that a test gets the
// same id on every OS and every build:
//
//	  Running unittests src/lib.rs (target/debug/deps/foo-1a2b3c4d5e6f7a8b)  src/lib.rs
//	  Running tests\it.rs (target\debug\deps\it-1a2b3c4d5e6f7a8b.exe)        tests/it.rs
//	  Running unittests (target/debug/deps/foo-1a2b3c4d5e6f7a8b)             unittests/foo
//	  Running target/debug/deps/foo-1a2b3c4d5e6f7a8b                         foo
//	Doc-tests foo                                                            doctest
//
// Current cargo names the source of every test binary, relative to its
// package; the key is that path with "/" separators. Cargo 1.52 up to the
// release that added the source to unit tests named the source of
// integration tests only ("Running unittests (<binary>)"); before 1.52 cargo
// named no source at all. Where no source is named the key is the binary's
// file name without directory, ".exe" and metadata hash, under "unittests/"
// when cargo said it runs unit tests. Doctest names already start with their
// file and line ("src/lib.rs - add (line 5)"). The line is dropped from the
// id — "doctest/src/lib.rs - add" — because it moves whenever code above the
// doc comment changes (a mask, a patch), and a test whose id moves looks
// missing; an item with several doctests numbers them in line order
// ("doctest/src/lib.rs - sub [1]", "[2]"). In a workspace, two packages' binaries
// built from the same relative path (src/lib.rs) share a key. Tests printed
// before any status line (libtest's stdout alone) keep their bare names.
//
// Test names lose the mode libtest appends (" - should panic",
// " - compile fail", " - compile") and have "\" turned into "/" (Windows
// doctest paths). The rules for statuses:
//
//   - "ok" and a benchmark's "bench:" line give pass; "FAILED" gives fail,
//     or timeout when libtest adds "(time limit exceeded)"; "ignored" (with
//     or without a reason) gives skip.
//   - A test whose result does not follow its name on the same line (output
//     the harness did not capture came between) takes the result printed
//     alone on a later line, or is settled when its binary ends: fail if the
//     binary's closing "failures:" list names it, else pass if the binary
//     printed its "test result:" line, else error.
//   - A binary that ends without a "test result:" line died (a signal, an
//     abort, a stack overflow, or the stream was cut): the test it was
//     running when it died gets error. When libtest ran tests in parallel it
//     names no test before its result, so nothing can be blamed; the binary
//     key itself is then reported with error, unless Expected names tests of
//     that binary.
//   - When cargo reports "error: could not compile", tests never seen are
//     build-failed (cargo runs no test once a target fails to compile), and
//     if nothing was reported and nothing is expected, the crate's name is
//     reported build-failed, so a build failure is never silent.
//   - Expected tests never seen are missing.
//   - An id reported more than once keeps its worst status.
type Libtest struct{}

var _ Parser = (*Libtest)(nil)

// Parse implements Parser. It fails only when r cannot be read.
func (*Libtest) Parse(r io.Reader, opts Options) ([]schemas.TestResult, error) {
	run := &libtestRun{set: resultSet{}, crashedKeys: map[string]bool{}}
	lines := newLineScanner(r)
	lineNo := 0
	for lines.Scan() {
		lineNo++
		run.handleLine(stripANSI(string(lines.Bytes())))
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("libtest: reading line %d: %w", lineNo+1, err)
	}
	run.endBinary()
	return run.results(opts.Expected), nil
}

// libtestRun is the state of one parse.
type libtestRun struct {
	set resultSet
	// bin is the test binary whose output is being read; nil before cargo's
	// first status line.
	bin *libtestBinary
	// crashedKeys are the binaries that died with no test to blame.
	crashedKeys map[string]bool
	// uncompiled are the crates cargo could not compile.
	uncompiled []string
}

// libtestBinary is what one run of one test binary has printed so far.
type libtestBinary struct {
	key string
	// open holds the tests whose name was printed without a result.
	open map[string]bool
	// lastOpen is the test most recently printed without a result: a result
	// alone on a line is its result.
	lastOpen string
	// failureList: the lines being read list the binary's failed tests.
	failureList bool
	failed      map[string]bool
	finished    bool // "test result:" was printed
}

func newLibtestBinary(key string) *libtestBinary {
	return &libtestBinary{key: key, open: map[string]bool{}, failed: map[string]bool{}}
}

func (run *libtestRun) handleLine(line string) {
	if key, ok := libtestBinaryKey(line); ok {
		run.endBinary()
		run.bin = newLibtestBinary(key)
		return
	}
	if crate, ok := uncompiledCrate(line); ok {
		run.uncompiled = append(run.uncompiled, crate)
		return
	}
	if run.bin == nil {
		// Output before any status line: libtest's stdout alone.
		run.bin = newLibtestBinary("")
	}
	if run.bin.finished && isLibtestRunning(line) {
		// Without cargo's status lines, "running N tests" is the only sign
		// that the next binary started.
		key := run.bin.key
		run.endBinary()
		run.bin = newLibtestBinary(key)
	}
	run.bin.handleLine(line, run.set)
}

func (b *libtestBinary) handleLine(line string, set resultSet) {
	if b.failureList {
		if name, ok := strings.CutPrefix(line, "    "); ok && name != "" && name[0] != ' ' {
			name = libtestName(name)
			b.failed[name] = true
			set.add(libtestID(b.key, name), schemas.StatusFail)
			return
		}
		b.failureList = false
	}
	switch {
	case line == "failures:":
		b.failureList = true
	case strings.HasPrefix(line, "test result: "):
		b.finished = true
	case strings.HasPrefix(line, "test "):
		name, result, ok := strings.Cut(line[len("test "):], " ... ")
		if !ok {
			return // e.g. "test x has been running for over 60 seconds"
		}
		name = libtestName(name)
		if status, ok := libtestStatus(result); ok {
			set.add(libtestID(b.key, name), status)
			delete(b.open, name)
			return
		}
		b.open[name] = true
		b.lastOpen = name
	default:
		if status, ok := libtestStatus(line); ok && b.open[b.lastOpen] {
			set.add(libtestID(b.key, b.lastOpen), status)
			delete(b.open, b.lastOpen)
		}
	}
}

// endBinary settles the binary being read, which has printed all it will.
func (run *libtestRun) endBinary() {
	b := run.bin
	if b == nil {
		return
	}
	run.bin = nil
	for name := range b.open {
		status := schemas.StatusError
		switch {
		case b.failed[name]:
			status = schemas.StatusFail
		case b.finished:
			status = schemas.StatusPass
		}
		run.set.add(libtestID(b.key, name), status)
	}
	if !b.finished && len(b.open) == 0 && b.key != "" {
		run.crashedKeys[b.key] = true
	}
}

func (run *libtestRun) results(expected []string) []schemas.TestResult {
	reported := len(run.set) > 0
	for key := range run.crashedKeys {
		if !expectsUnder(expected, key) {
			run.set.add(key, schemas.StatusError)
		}
	}
	unseen := schemas.StatusMissing
	if len(run.uncompiled) > 0 {
		unseen = schemas.StatusBuildFailed
		if !reported && !hasNonEmpty(expected) {
			for _, crate := range run.uncompiled {
				run.set.add(crate, schemas.StatusBuildFailed)
			}
		}
	}
	addUnseen(run.set, expected, unseen)
	return stableDoctestIDs(run.set).sorted()
}

// doctestLine matches a doctest id with its line: "doctest/<file> - <item> (line N)".
var doctestLine = regexp.MustCompile(`^(doctest/.+) \(line (\d+)\)$`)

// stableDoctestIDs drops the line from doctest ids (see the package
// comment), numbering an item's doctests in line order when it has more
// than one.
func stableDoctestIDs(set resultSet) resultSet {
	type doctest struct {
		id   string
		line int
	}
	groups := map[string][]doctest{}
	for id := range set {
		if m := doctestLine.FindStringSubmatch(id); m != nil {
			n, _ := strconv.Atoi(m[2])
			groups[m[1]] = append(groups[m[1]], doctest{id, n})
		}
	}
	for base, ds := range groups {
		sort.Slice(ds, func(i, j int) bool { return ds[i].line < ds[j].line })
		for k, d := range ds {
			id := base
			if len(ds) > 1 {
				id = fmt.Sprintf("%s [%d]", base, k+1)
			}
			status := set[d.id]
			delete(set, d.id)
			set.add(id, status)
		}
	}
	return set
}

// libtestBinaryKey recognises cargo's status line before a test binary runs
// and returns the binary's key (see Libtest). Cargo right-aligns its status
// words, so the line starts with blanks; requiring them keeps a test's own
// output that starts with "Running" from being taken for one.
func libtestBinaryKey(line string) (string, bool) {
	trimmed := strings.TrimLeft(line, " ")
	if len(trimmed) == len(line) {
		return "", false
	}
	if crate, ok := strings.CutPrefix(trimmed, "Doc-tests "); ok && crate != "" {
		return "doctest", true
	}
	rest, ok := strings.CutPrefix(trimmed, "Running ")
	if !ok || rest == "" {
		return "", false
	}
	if open := strings.LastIndex(rest, " ("); open >= 0 && strings.HasSuffix(rest, ")") {
		source, binary := rest[:open], rest[open+2:len(rest)-1]
		if binary == "" {
			return "", false
		}
		switch {
		case source == "unittests":
			name := binaryName(binary)
			return "unittests/" + name, name != ""
		case strings.HasPrefix(source, "unittests "):
			source = strings.TrimPrefix(source, "unittests ")
		}
		return slashPath(source), source != ""
	}
	if strings.ContainsAny(rest, " \t") {
		return "", false // not a binary path alone, as cargo before 1.52 printed it
	}
	name := binaryName(rest)
	return name, name != ""
}

// isLibtestRunning recognises the line a test binary starts with:
// "running 3 tests", "running 1 test".
func isLibtestRunning(line string) bool {
	rest, ok := strings.CutPrefix(line, "running ")
	if !ok {
		return false
	}
	count, noun, ok := strings.Cut(rest, " ")
	return ok && count != "" && strings.Trim(count, "0123456789") == "" && (noun == "tests" || noun == "test")
}

// uncompiledCrate recognises cargo's "error: could not compile `foo`" (with
// whatever cargo's version appends) and returns the crate's name.
func uncompiledCrate(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "error: could not compile `")
	if !ok {
		return "", false
	}
	crate, _, ok := strings.Cut(rest, "`")
	return crate, ok && crate != ""
}

// libtestStatus reads the result libtest prints after a test's name.
func libtestStatus(result string) (schemas.Status, bool) {
	word, _, _ := strings.Cut(strings.TrimSpace(result), " ")
	switch strings.TrimSuffix(word, ",") {
	case "ok", "bench:":
		return schemas.StatusPass, true
	case "FAILED":
		if strings.Contains(result, "(time limit exceeded)") {
			return schemas.StatusTimeout, true
		}
		return schemas.StatusFail, true
	case "ignored":
		return schemas.StatusSkip, true
	}
	return "", false
}

// libtestName normalises a test name as libtest prints it (see Libtest).
func libtestName(name string) string {
	name = strings.TrimRight(name, " ") // benchmark names are padded
	for _, mode := range []string{" - should panic", " - compile fail", " - compile"} {
		if trimmed, ok := strings.CutSuffix(name, mode); ok {
			name = trimmed
			break
		}
	}
	return slashPath(name)
}

// libtestID joins a binary key and a test name into an id.
func libtestID(key, name string) string {
	if key == "" {
		return name
	}
	return key + "/" + name
}
