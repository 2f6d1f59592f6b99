package lang

import (
	"bytes"
)

// LineKind is what a source line holds once comments are set aside.
type LineKind uint8

// The kinds of line.
const (
	LineCode    LineKind = iota // anything that is not provably blank or comment
	LineBlank                   // only white space
	LineComment                 // only comments and white space
)

// ClassifyLines returns the kind of each line of src, a file of the named
// language (index 0 is line 1). Differential coverage bridges gaps of
// blank and comment lines with it. A language it does not know has no
// comments: every non-blank line is code.
//
// Its errors all go one way: when the lexer cannot tell (an unterminated
// literal), the line is code, which only keeps gaps from being bridged.
func (r *Registry) ClassifyLines(language string, src []byte) []LineKind {
	if l, ok := r.Lookup(language); ok {
		return Lex(l.Syntax, src).LineKinds()
	}
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1] // a final newline does not start a line
	}
	kinds := make([]LineKind, len(lines))
	for i, l := range lines {
		if len(bytes.TrimSpace(l)) > 0 {
			kinds[i] = LineCode
		} else {
			kinds[i] = LineBlank
		}
	}
	return kinds
}

func hasAt(l []byte, i int, s string) bool {
	return i+len(s) <= len(l) && string(l[i:i+len(s)]) == s
}

func countByte(l []byte, b byte) int {
	n := 0
	for n < len(l) && l[n] == b {
		n++
	}
	return n
}
