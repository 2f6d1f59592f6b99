package mask

import (
	"bytes"
	"fmt"
	"sort"
)

// edit replaces src[start:end] with text. Edits of one file never overlap;
// the maskers resolve nesting before they produce them.
type edit struct {
	start, end int
	text       string
}

// applyEdits returns src with edits applied; it reports overlapping edits,
// which would be a bug of the masker that made them.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	sorted := append([]edit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].start < sorted[j].start })
	var out bytes.Buffer
	at := 0
	for _, e := range sorted {
		if e.start < at || e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("edit %d-%d overlaps the previous one or leaves the file", e.start, e.end)
		}
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// lineIndex maps between byte offsets and 1-based lines of one text.
type lineIndex struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
}

func newLineIndex(src []byte) lineIndex {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return lineIndex{src: src, starts: starts}
}

// lineOf returns the 1-based line holding offset off.
func (x lineIndex) lineOf(off int) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
}

// start returns the offset of the first byte of line (1-based).
func (x lineIndex) start(line int) int { return x.starts[line-1] }

// end returns the offset just past line's newline (or the end of the text).
func (x lineIndex) end(line int) int {
	if line < len(x.starts) {
		return x.starts[line]
	}
	return len(x.src)
}

// indent returns the leading blanks of line.
func (x lineIndex) indent(line int) string {
	s := x.start(line)
	e := s
	for e < len(x.src) && (x.src[e] == ' ' || x.src[e] == '\t') {
		e++
	}
	return string(x.src[s:e])
}

// blankBefore reports whether only blanks precede off on its line.
func (x lineIndex) blankBefore(off int) bool {
	return len(bytes.TrimSpace(x.src[x.start(x.lineOf(off)):off])) == 0
}

// restOfLine returns what follows off on its line, newline excluded.
func (x lineIndex) restOfLine(off int) []byte {
	e := x.end(x.lineOf(off))
	return bytes.TrimRight(x.src[off:e], "\r\n")
}

// sortActions orders actions by the region they came from, then kind.
func sortActions(actions []Action) {
	sort.SliceStable(actions, func(i, j int) bool {
		a, b := actions[i].Region, actions[j].Region
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.End < b.End
	})
}
