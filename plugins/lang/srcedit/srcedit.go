// Package srcedit is what the maskers of every language share to change a
// file: byte-range edits applied in one pass, and a map between offsets
// and lines.
package srcedit

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// Edit replaces src[Start:End] with Text. Edits of one file never overlap;
// the maskers resolve nesting before they produce them.
type Edit struct {
	Start, End int
	Text       string
}

// Apply returns src with edits applied; it reports overlapping edits,
// which would be a bug of the masker that made them.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	sorted := append([]Edit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	var out bytes.Buffer
	at := 0
	for _, e := range sorted {
		if e.Start < at || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit %d-%d overlaps the previous one or leaves the file", e.Start, e.End)
		}
		out.Write(src[at:e.Start])
		out.WriteString(e.Text)
		at = e.End
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// Lines maps between byte offsets and 1-based lines of one text.
type Lines struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
}

// NewLines indexes the lines of src.
func NewLines(src []byte) Lines {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return Lines{src: src, starts: starts}
}

// LineOf returns the 1-based line holding offset off.
func (x Lines) LineOf(off int) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
}

// Start returns the offset of the first byte of line (1-based).
func (x Lines) Start(line int) int { return x.starts[line-1] }

// End returns the offset just past line's newline (or the end of the text).
func (x Lines) End(line int) int {
	if line < len(x.starts) {
		return x.starts[line]
	}
	return len(x.src)
}

// Indent returns the leading blanks of line.
func (x Lines) Indent(line int) string {
	s := x.Start(line)
	e := s
	for e < len(x.src) && (x.src[e] == ' ' || x.src[e] == '\t') {
		e++
	}
	return string(x.src[s:e])
}

// BlankBefore reports whether only blanks precede off on its line.
func (x Lines) BlankBefore(off int) bool {
	return len(bytes.TrimSpace(x.src[x.Start(x.LineOf(off)):off])) == 0
}

// RestOfLine returns what follows off on its line, newline excluded.
func (x Lines) RestOfLine(off int) []byte {
	e := x.End(x.LineOf(off))
	return bytes.TrimRight(x.src[off:e], "\r\n")
}

// SortActions orders actions by the region they came from.
func SortActions(actions []lang.Action) {
	sort.SliceStable(actions, func(i, j int) bool {
		a, b := actions[i].Region, actions[j].Region
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.End < b.End
	})
}

// CountLines counts the lines of src, a last line without newline included.
func CountLines(src []byte) int {
	n := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// Describe is how an Action's Detail shows placeholder statements.
func Describe(ph []string) string {
	if len(ph) == 0 {
		return "nothing"
	}
	sep := "; "
	if strings.HasSuffix(ph[0], ";") {
		sep = " " // C and C++ statements carry their own semicolons
	}
	return "`" + strings.Join(ph, sep) + "`"
}
