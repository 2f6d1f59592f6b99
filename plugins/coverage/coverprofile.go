package coverage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// GoCoverprofile imports the text profile of `go test -coverprofile`: a
// "mode: set|count|atomic" header, then one line per block,
// "file:startLine.startCol,endLine.endCol numStmts count".
//
//   - Lines are read from the right, since a Windows path contains ':'.
//   - A file named by import path is mapped through Options.Modules, using
//     the longest module path that prefixes it (nested modules); an absolute
//     file path goes through RepoRelative, and so does a path relative to
//     the directory go ran in, which starts with "./" or "../" (".\" and
//     "..\" on Windows) as profiles of packages named by directory, and
//     the tools that merge profiles, write them: "./pkg/a.go" is
//     "pkg/a.go". A file that maps to no repository path is dropped: it
//     belongs to a dependency or lies outside the repo.
//   - Every line of a block is instrumented, and executed when its count is
//     above zero. Blocks reported more than once (-coverpkg gives each
//     package's blocks once per test binary) are merged: a line is executed
//     if any block covering it ran. A block that ends at column 1 stops
//     before the first character of its last line, so that line is not
//     counted.
//   - Header lines may repeat, as in profiles concatenated from several runs.
//
// A malformed line is an error naming its line number.
type GoCoverprofile struct{}

var _ Importer = (*GoCoverprofile)(nil)

// maxProfileLine bounds the length of one profile line.
const maxProfileLine = 1 << 20

// Import implements Importer.
func (*GoCoverprofile) Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error) {
	resolve := newGoFileResolver(opts)
	collected := newLineCollector()
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 64<<10), maxProfileLine)
	lineNo := 0
	sawHeader := false
	for scanner.Scan() {
		lineNo++
		line := strings.TrimRight(scanner.Text(), " \t\r")
		if line == "" {
			continue
		}
		if mode, ok := strings.CutPrefix(line, "mode: "); ok {
			if mode != "set" && mode != "count" && mode != "atomic" {
				return nil, fmt.Errorf("go-coverprofile: line %d: unknown mode %q (want set, count or atomic)", lineNo, mode)
			}
			sawHeader = true
			continue
		}
		if !sawHeader {
			return nil, fmt.Errorf("go-coverprofile: line %d: want a \"mode: set|count|atomic\" header, got %q", lineNo, clip(line))
		}
		b, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("go-coverprofile: line %d: %w in %q", lineNo, err, clip(line))
		}
		if rel, ok := resolve(b.file); ok {
			collected.add(rel, b.startLine, b.lastLine(), b.count > 0)
		}
	}
	if err := scanner.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("go-coverprofile: line %d: longer than %d bytes", lineNo+1, maxProfileLine)
		}
		return nil, fmt.Errorf("go-coverprofile: reading line %d: %w", lineNo+1, err)
	}
	files, err := collected.coverage()
	if err != nil {
		return nil, fmt.Errorf("go-coverprofile: %w", err)
	}
	return files, nil
}

// block is one line of a profile.
type block struct {
	file                string
	startLine, startCol int
	endLine, endCol     int
	numStmts            int
	count               uint64
}

// lastLine is the last source line the block spans (see GoCoverprofile).
func (b block) lastLine() int {
	if b.endLine > b.startLine && b.endCol <= 1 {
		return b.endLine - 1
	}
	return b.endLine
}

// parseBlock reads "file:startLine.startCol,endLine.endCol numStmts count"
// from the right, so that file may contain ':' and ' '.
func parseBlock(line string) (block, error) {
	var b block
	rest, countText, ok := cutLast(line, " ")
	if !ok {
		return b, errors.New("want \"file:start,end numStmts count\"")
	}
	rest, stmtsText, ok := cutLast(rest, " ")
	if !ok {
		return b, errors.New("want \"file:start,end numStmts count\"")
	}
	file, rangeText, ok := cutLast(rest, ":")
	if !ok || file == "" {
		return b, errors.New("missing \"file:\" before the block range")
	}
	start, end, ok := strings.Cut(rangeText, ",")
	if !ok {
		return b, fmt.Errorf("block range %q is not \"line.col,line.col\"", rangeText)
	}
	var err error
	if b.startLine, b.startCol, err = parsePosition(start); err != nil {
		return b, err
	}
	if b.endLine, b.endCol, err = parsePosition(end); err != nil {
		return b, err
	}
	if b.numStmts, err = parseNatural(stmtsText, "statement count"); err != nil {
		return b, err
	}
	count, err := parseNatural(countText, "execution count")
	if err != nil {
		return b, err
	}
	b.count = uint64(count)
	switch {
	case b.startLine < 1:
		return b, fmt.Errorf("block starts at line %d; lines start at 1", b.startLine)
	case b.endLine > maxReportedLines:
		return b, fmt.Errorf("block ends at line %d, beyond the supported %d", b.endLine, maxReportedLines)
	case b.endLine < b.startLine || (b.endLine == b.startLine && b.endCol < b.startCol):
		return b, fmt.Errorf("block %s ends before it starts", rangeText)
	}
	b.file = file
	return b, nil
}

// parsePosition reads "line.col".
func parsePosition(s string) (line, col int, err error) {
	lineText, colText, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, fmt.Errorf("position %q is not \"line.col\"", s)
	}
	if line, err = parseNatural(lineText, "line"); err != nil {
		return 0, 0, err
	}
	if col, err = parseNatural(colText, "column"); err != nil {
		return 0, 0, err
	}
	return line, col, nil
}

// parseNatural reads a non-negative decimal number made of digits only
// (strconv alone would also take "+7").
func parseNatural(s, what string) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("%s %q is not a non-negative number", what, s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	return n, nil
}

// cutLast slices s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// clip shortens a line quoted in an error message.
func clip(s string) string {
	const limit = 200
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…"
}

// module is one entry of Options.Modules, made ready for prefix matching.
type module struct {
	prefix string // module path + "/"
	dir    string // repo-relative, cleaned, "" for the root
}

// newGoFileResolver returns the function that maps a file name from a
// profile to a repository path; ok=false means the file is not in the repo.
func newGoFileResolver(opts Options) func(file string) (string, bool) {
	var modules []module
	for modPath, dir := range opts.Modules {
		if modPath == "" {
			continue
		}
		dir = path.Clean(strings.ReplaceAll(dir, `\`, "/"))
		if dir == "." {
			dir = ""
		}
		if escapes(dir) || path.IsAbs(dir) {
			continue // not a directory of this repository
		}
		modules = append(modules, module{prefix: modPath + "/", dir: dir})
	}
	// Longest module path first: a nested module's files also carry the
	// prefix of the module around it.
	sort.Slice(modules, func(i, j int) bool {
		if len(modules[i].prefix) != len(modules[j].prefix) {
			return len(modules[i].prefix) > len(modules[j].prefix)
		}
		return modules[i].prefix < modules[j].prefix
	})

	return func(file string) (string, bool) {
		if _, rooted := canonicalPath(file); rooted || dotRelative(file) {
			return RepoRelative(opts.Root, file)
		}
		for _, m := range modules {
			rest, ok := strings.CutPrefix(file, m.prefix)
			if !ok {
				continue
			}
			// Import paths use "/" only; a backslash or a drive letter here
			// is a malformed entry, not a file of this repository.
			rel := path.Join(m.dir, rest)
			if rel == "" || rel == "." || escapes(rel) || path.IsAbs(rel) || strings.Contains(rel, `\`) || len(rel) > 1 && rel[1] == ':' {
				return "", false
			}
			return rel, true
		}
		return "", false
	}
}

// dotRelative reports whether a profile's file is a path relative to the
// directory go ran in, as opposed to an import path (which never starts
// with a dot element).
func dotRelative(file string) bool {
	for _, prefix := range []string{"./", `.\`, "../", `..\`} {
		if strings.HasPrefix(file, prefix) {
			return true
		}
	}
	return false
}

// escapes reports whether a cleaned relative path climbs out with "..".
func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, "../")
}
