package cfamily

import (
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// ctoken is one C or C++ token outside comments and preprocessor lines.
type ctoken struct {
	text       string
	start, end int // byte offsets
	line       int // 1-based line of start
}

// cdirective is one preprocessor line (with its continuations).
type cdirective struct {
	name       string // "if", "ifdef", "ifndef", "elif", "else", "endif", "include", ...
	start, end int    // offsets of '#' and of the end of the logical line
	line, last int    // first and last physical line
}

// clexed is a C or C++ file cut into tokens and directives.
type clexed struct {
	tokens     []ctoken
	directives []cdirective
}

// lexC cuts src into the masker's tokens and directives with lang.Lex,
// the lexer the line classifier and the verify front end share: comments
// are dropped, and so are the tokens of preprocessor lines, which the
// masker reads as directives.
func lexC(src []byte) clexed {
	lx := lang.Lex(syntax, src)
	var out clexed
	d := 0
	for _, t := range lx.Tokens {
		if t.Kind == lang.TokenComment {
			continue
		}
		for d < len(lx.Directives) && lx.Directives[d].End <= t.Start {
			d++
		}
		if d < len(lx.Directives) && lx.Directives[d].Start <= t.Start {
			continue
		}
		out.tokens = append(out.tokens, ctoken{text: lx.Text(t), start: t.Start, end: t.End, line: t.Line})
	}
	for _, dir := range lx.Directives {
		out.directives = append(out.directives, cdirective{name: directiveName(string(src[dir.Start:dir.End])),
			start: dir.Start, end: dir.End, line: dir.Line, last: dir.Last})
	}
	return out
}

// directiveName returns the name after '#' ("ifdef", "endif", ...).
func directiveName(text string) string {
	text = strings.TrimLeft(strings.TrimPrefix(text, "#"), " \t")
	end := 0
	for end < len(text) && isIdentByte(text[end]) {
		end++
	}
	return text[:end]
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
