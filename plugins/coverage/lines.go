package coverage

import (
	"fmt"
	"sort"

	"github.com/osbench/osbench/schemas"
)

// maxReportedLines bounds the lines one import may list, over all files. A
// bad or hostile report ("1.1,99999999.1") must not make osbench allocate
// gigabytes; no real repository comes near it (it is also the largest line
// number accepted).
const maxReportedLines = 1 << 22

// lineRange is the inclusive range of source lines [first, last].
type lineRange struct{ first, last int }

// fileRanges is what a report said about one file.
type fileRanges struct {
	instrumented, executed []lineRange
}

// lineCollector gathers line ranges per repository path. Importers add what
// a report says in any order and as often as it says it; files turns that
// into the sorted, de-duplicated form of schemas.FileCoverage.
type lineCollector struct {
	files map[string]*fileRanges
}

func newLineCollector() *lineCollector {
	return &lineCollector{files: map[string]*fileRanges{}}
}

// add records lines [first, last] of path as instrumented, and as executed
// too when executed is set. A line is executed if any report of it says so.
func (c *lineCollector) add(path string, first, last int, executed bool) {
	f, ok := c.files[path]
	if !ok {
		f = &fileRanges{}
		c.files[path] = f
	}
	r := lineRange{first, last}
	f.instrumented = append(f.instrumented, r)
	if executed {
		f.executed = append(f.executed, r)
	}
}

// coverage returns the collected files sorted by path.
func (c *lineCollector) coverage() ([]schemas.FileCoverage, error) {
	paths := make([]string, 0, len(c.files))
	for p := range c.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Merge and count everything before expanding anything, so an oversized
	// report is refused without allocating for it. Executed lines are a
	// subset of the instrumented ones, so those alone bound the memory.
	instrumented := make([][]lineRange, len(paths))
	total := 0
	for i, p := range paths {
		instrumented[i] = mergeRanges(c.files[p].instrumented)
		total += countLines(instrumented[i])
		if total > maxReportedLines {
			return nil, fmt.Errorf("the report covers more than %d lines; refusing to expand it", maxReportedLines)
		}
	}
	out := make([]schemas.FileCoverage, len(paths))
	for i, p := range paths {
		out[i] = schemas.FileCoverage{
			Path:         p,
			Executed:     expandRanges(mergeRanges(c.files[p].executed)),
			Instrumented: expandRanges(instrumented[i]),
		}
	}
	return out, nil
}

// mergeRanges sorts ranges and joins those that overlap or touch.
func mergeRanges(ranges []lineRange) []lineRange {
	sort.Slice(ranges, func(i, j int) bool { return ranges[i].first < ranges[j].first })
	var merged []lineRange
	for _, r := range ranges {
		if n := len(merged); n > 0 && r.first <= merged[n-1].last+1 {
			merged[n-1].last = max(merged[n-1].last, r.last)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

func countLines(ranges []lineRange) int {
	n := 0
	for _, r := range ranges {
		n += r.last - r.first + 1
	}
	return n
}

// expandRanges lists the lines of disjoint, sorted ranges. The result is
// never nil: an empty list means "compiled, not executed", which JSON must
// show as [] rather than null.
func expandRanges(ranges []lineRange) []int {
	lines := make([]int, 0, countLines(ranges))
	for _, r := range ranges {
		for line := r.first; line <= r.last; line++ {
			lines = append(lines, line)
		}
	}
	return lines
}
