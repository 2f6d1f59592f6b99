// Package diffcov computes differential coverage (DESIGN §2, step 2): the
// lines a target platform executes and the source platform does not, merged
// into candidate regions for the verifier.
//
// The core is three pure functions:
//
//	Lines(source, target)          D_t per file: executed on target, not on source
//	Regions(src, diff, opts)       D_t lines merged into regions across small gaps
//	Compute(src, source, target, opts) = Regions(src, Lines(source, target), opts)
//
// A file that the source coverage does not list was not compiled there
// (a _windows.go file seen from Linux, an #ifdef'd translation unit): all its
// executed target lines are differential and its regions carry
// SourceCompiled false. Test files (IsTestFile) never yield regions.
//
// Two differential lines of a file join one region when every line between
// them can be bridged and there are at most Options.MaxGap of them. A line
// can be bridged when it is blank, holds only comments (the file extension
// picks the syntax: Go, C, C++, Rust, C#), or is a line the target's
// coverage tool does not instrument (a closing brace, `else`, `#endif`).
// When a file's coverage lists no instrumented lines at all, that last rule
// cannot be applied and only blank and comment lines are bridged.
//
// The package also registers the "diffcov" step kind (see step.go).
package diffcov

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages whose lines it classifies
	"github.com/osbench/osbench/schemas"
)

// DefaultMaxGap is the widest gap Regions bridges when Options.MaxGap is 0.
const DefaultMaxGap = 3

// Options tune region merging.
type Options struct {
	// MaxGap is the most bridgeable lines a region may span between two
	// differential lines. 0 means DefaultMaxGap; negative means no gaps are
	// bridged (only consecutive lines merge).
	MaxGap int
}

func (o Options) maxGap() int {
	switch {
	case o.MaxGap == 0:
		return DefaultMaxGap
	case o.MaxGap < 0:
		return 0
	}
	return o.MaxGap
}

// FileLines is the differential coverage of one file.
type FileLines struct {
	Path string
	// Lines are executed on the target and not on the source, ascending.
	Lines []int
	// SourceCompiled is false when the source coverage does not list the file.
	SourceCompiled bool
	// Instrumented are the lines the target's coverage tool could report,
	// which Regions needs to tell structural lines from code.
	Instrumented []int
}

// Compute returns the candidate regions of target over source: Lines, then
// Regions. src holds the repository's files at the paths the coverage uses.
func Compute(src fs.FS, source, target schemas.Coverage, opts Options) ([]schemas.Region, error) {
	diff, err := Lines(source, target)
	if err != nil {
		return nil, err
	}
	return Regions(src, diff, opts)
}

// Lines computes D_t per file, sorted by path. Files with no differential
// line, and test files, are left out. Unsorted or repeated line numbers and
// repeated file entries are tolerated (merged); paths that are not
// repo-relative and line numbers below 1 are errors.
func Lines(source, target schemas.Coverage) ([]FileLines, error) {
	src, err := index(source)
	if err != nil {
		return nil, err
	}
	tgt, err := index(target)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(tgt))
	for p := range tgt {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []FileLines
	for _, p := range paths {
		if IsTestFile(p) {
			continue
		}
		t := tgt[p]
		s, compiled := src[p]
		var lines []int
		for _, l := range t.executed {
			if !s.executed.has(l) {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		out = append(out, FileLines{Path: p, Lines: lines, SourceCompiled: compiled, Instrumented: t.instrumented})
	}
	return out, nil
}

// lineSet is an ascending list of unique line numbers.
type lineSet []int

func (s lineSet) has(l int) bool {
	_, ok := slices.BinarySearch(s, l)
	return ok
}

type fileSets struct{ executed, instrumented lineSet }

// index checks a coverage artifact and returns its line sets by path.
func index(c schemas.Coverage) (map[string]fileSets, error) {
	where := fmt.Sprintf("%s coverage of %q", platformName(c.Platform), c.Repository)
	m := make(map[string]fileSets, len(c.Files))
	for _, f := range c.Files {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return nil, fmt.Errorf("%s: file %q is not a repo-relative, /-separated path", where, f.Path)
		}
		prev := m[f.Path]
		exe, err := union(prev.executed, f.Executed)
		if err != nil {
			return nil, fmt.Errorf("%s: %s executed: %w", where, f.Path, err)
		}
		ins, err := union(prev.instrumented, f.Instrumented)
		if err != nil {
			return nil, fmt.Errorf("%s: %s instrumented: %w", where, f.Path, err)
		}
		m[f.Path] = fileSets{executed: exe, instrumented: ins}
	}
	return m, nil
}

func platformName(p string) string {
	if p == "" {
		return "unnamed platform's"
	}
	return p
}

func union(s lineSet, add []int) (lineSet, error) {
	for _, l := range add {
		if l < 1 {
			return nil, fmt.Errorf("line %d out of range", l)
		}
	}
	return sortedSet(append(slices.Clone(s), add...)), nil
}

// Regions merges each file's differential lines into regions, sorted by
// file then start. src may be nil, or lack a file (a generated file the
// checkout does not hold): then only the instrumentation rule bridges gaps
// in that file. Any other error reading src is returned.
func Regions(src fs.FS, diff []FileLines, opts Options) ([]schemas.Region, error) {
	var out []schemas.Region
	for _, f := range diff {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return nil, fmt.Errorf("diffcov: file %q is not a repo-relative, /-separated path", f.Path)
		}
		if i := slices.IndexFunc(f.Lines, func(l int) bool { return l < 1 }); i >= 0 {
			return nil, fmt.Errorf("diffcov: %s: line %d out of range", f.Path, f.Lines[i])
		}
		kinds, err := lineKinds(src, f.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, fileRegions(f, kinds, opts.maxGap())...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start < b.Start
	})
	return out, nil
}

// lineKinds classifies the lines of one file, or returns nil when src does
// not hold it.
func lineKinds(src fs.FS, file string) ([]lang.LineKind, error) {
	if src == nil {
		return nil, nil
	}
	b, err := fs.ReadFile(src, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return lang.ClassifyLines(lang.Of(file), b), nil
}

// fileRegions merges the lines of one file. kinds may be nil (text unknown).
func fileRegions(f FileLines, kinds []lang.LineKind, maxGap int) []schemas.Region {
	lines := sortedSet(f.Lines)
	instrumented := sortedSet(f.Instrumented)
	bridgeable := func(l int) bool {
		if l <= len(kinds) && kinds[l-1] != lang.LineCode {
			return true
		}
		return len(instrumented) > 0 && !instrumented.has(l)
	}
	var out []schemas.Region
	for i := 0; i < len(lines); {
		r := schemas.Region{File: f.Path, Start: lines[i], End: lines[i], Lines: []int{lines[i]}, SourceCompiled: f.SourceCompiled}
		for i++; i < len(lines); i++ {
			next := lines[i]
			if next-r.End-1 > maxGap || !allBridgeable(r.End+1, next, bridgeable) {
				break
			}
			r.End = next
			r.Lines = append(r.Lines, next)
		}
		out = append(out, r)
	}
	return out
}

// sortedSet returns a sorted copy of lines without repeats; callers of
// Regions may build FileLines by hand.
func sortedSet(lines []int) lineSet {
	s := slices.Clone(lines)
	slices.Sort(s)
	return slices.Compact(s)
}

// allBridgeable reports whether every line in [from, to) can be bridged.
func allBridgeable(from, to int, ok func(int) bool) bool {
	for l := from; l < to; l++ {
		if !ok(l) {
			return false
		}
	}
	return true
}
