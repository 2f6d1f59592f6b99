package csharp

import (
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// token is one C# token outside comments and preprocessor lines. String
// and character literals are single tokens, so the braces and semicolons
// inside them never count.
type token struct {
	text       string
	start, end int // byte offsets
	line       int // 1-based line of start
}

// directive is one preprocessor line (#if, #elif, #else, #endif, #region…).
type directive struct {
	name       string // "if", "elif", "else", "endif", "region", ...
	cond       string // the rest of the line
	start, end int    // offsets of '#' and of the end of the line
	line       int
}

// lexed is a C# file cut into tokens and directives.
type lexed struct {
	tokens     []token
	directives []directive
}

// lex cuts src into the masker's tokens and directives with lang.Lex, the
// lexer the line classifier and the verify front end share: comments are
// dropped, and so are the tokens of directive lines, which the masker
// reads as directives (name, and the condition up to a // comment).
func lex(src []byte) lexed {
	lx := lang.Lex(syntax, src)
	var out lexed
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
		out.tokens = append(out.tokens, token{text: lx.Text(t), start: t.Start, end: t.End, line: t.Line})
	}
	for _, dir := range lx.Directives {
		dv := directive{start: dir.Start, end: dir.End, line: dir.Line}
		text := strings.TrimSpace(strings.TrimPrefix(string(src[dir.Start:dir.End]), "#"))
		if cut := strings.Index(text, "//"); cut >= 0 {
			text = strings.TrimSpace(text[:cut])
		}
		dv.name, dv.cond, _ = strings.Cut(text, " ")
		dv.cond = strings.TrimSpace(dv.cond)
		out.directives = append(out.directives, dv)
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
