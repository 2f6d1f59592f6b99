package mask

import "github.com/osbench/osbench/plugins/lang/srcedit"

// The Go and C maskers' names for plugins/lang/srcedit, which every
// language's masker shares.

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits returns src with edits applied (srcedit.Apply).
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	out := make([]srcedit.Edit, len(edits))
	for i, e := range edits {
		out[i] = srcedit.Edit{Start: e.start, End: e.end, Text: e.text}
	}
	return srcedit.Apply(src, out)
}

// lineIndex maps between byte offsets and 1-based lines of one text.
type lineIndex struct{ srcedit.Lines }

func newLineIndex(src []byte) lineIndex { return lineIndex{srcedit.NewLines(src)} }

func (x lineIndex) lineOf(off int) int        { return x.LineOf(off) }
func (x lineIndex) start(line int) int        { return x.Start(line) }
func (x lineIndex) end(line int) int          { return x.End(line) }
func (x lineIndex) indent(line int) string    { return x.Indent(line) }
func (x lineIndex) blankBefore(off int) bool  { return x.BlankBefore(off) }
func (x lineIndex) restOfLine(off int) []byte { return x.RestOfLine(off) }
func sortActions(actions []Action)            { srcedit.SortActions(actions) }
