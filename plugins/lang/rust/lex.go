package rust

import "github.com/osbench/osbench/plugins/lang"

// rtoken is one Rust token outside comments. Literals (strings, raw
// strings, byte strings, characters) are single tokens, so the brackets
// and semicolons inside them never count; so are lifetimes ('a).
type rtoken struct {
	text       string
	start, end int // byte offsets
	line       int // 1-based line of start
	kind       rkind
}

type rkind uint8

const (
	rkPunct rkind = iota
	rkIdent
	rkLiteral // strings, characters, numbers
	rkLifetime
)

// lexRust cuts src into the masker's tokens with lang.Lex, the lexer the
// line classifier and the verify front end share (comments dropped).
func lexRust(src []byte) []rtoken {
	lx := lang.Lex(syntax, src)
	var toks []rtoken
	for _, t := range lx.Tokens {
		kind := rkPunct
		switch t.Kind {
		case lang.TokenComment:
			continue
		case lang.TokenIdent:
			kind = rkIdent
		case lang.TokenNumber, lang.TokenLiteral:
			kind = rkLiteral
		case lang.TokenLifetime:
			kind = rkLifetime
		}
		toks = append(toks, rtoken{text: lx.Text(t), start: t.Start, end: t.End, line: t.Line, kind: kind})
	}
	return toks
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
