package lang

// OLD classifier, a test oracle during the lexer move.

import (
	"bytes"
	"strings"
)

// stringLit is an open string literal: how it ends and how it escapes.
type stringLit struct {
	term      string // closing delimiter
	backslash bool   // a backslash escapes the next byte
	doubled   bool   // the delimiter doubled is an escape (C# verbatim "")
	multiline bool   // the literal may run past the end of the line
}

// classifier classifies lines one after another, carrying block comments
// and multi-line strings from line to line. Its errors all go one way: when
// it cannot tell, it says "code", which only keeps gaps from being bridged.
type classifier struct {
	syn   Syntax
	known bool       // false: no comment syntax known, every non-blank line is code
	depth int        // block comment nesting (Rust nests; the others stop at 1)
	str   *stringLit // literal still open at the end of the previous line
}

// ClassifyLines returns the kind of each line of src, a file of the named
// language (index 0 is line 1). Differential coverage bridges gaps of
// blank and comment lines with it. A language it does not know has no
// comments: every non-blank line is code.
func oldClassify(syn Syntax, src []byte) []LineKind {
	c := classifier{syn: syn, known: true}
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1] // a final newline does not start a line
	}
	kinds := make([]LineKind, len(lines))
	for i, l := range lines {
		kinds[i] = c.line(bytes.TrimSuffix(l, []byte("\r")))
	}
	return kinds
}

func (c *classifier) line(l []byte) LineKind {
	if !c.known {
		if len(bytes.TrimSpace(l)) == 0 {
			return LineBlank
		}
		return LineCode
	}
	code, comment := c.str != nil, c.depth > 0
	for i := 0; i < len(l); {
		switch {
		case c.depth > 0:
			comment = true
			switch {
			case oldHasAt(l, i, "*/"):
				c.depth--
				i += 2
			case c.syn.NestedComments && oldHasAt(l, i, "/*"):
				c.depth++
				i += 2
			default:
				i++
			}
		case c.str != nil:
			code = true
			i = c.scanString(l, i)
		case l[i] == ' ' || l[i] == '\t' || l[i] == '\f' || l[i] == '\v':
			i++
		case oldHasAt(l, i, "//"):
			return kindOf(code, true)
		case oldHasAt(l, i, "/*"):
			comment = true
			c.depth = 1
			i += 2
		default:
			code = true
			i = c.scanCode(l, i)
		}
	}
	if c.str != nil && !c.str.multiline {
		c.str = nil // unterminated: a compile error, or a continuation we do not model
	}
	return kindOf(code, comment)
}

func kindOf(code, comment bool) LineKind {
	switch {
	case code:
		return LineCode
	case comment:
		return LineComment
	}
	return LineBlank
}

// scanString advances through an open literal from i and returns where
// scanning resumes (after the closing delimiter, or the end of the line).
func (c *classifier) scanString(l []byte, i int) int {
	s := c.str
	for i < len(l) {
		switch {
		case s.backslash && l[i] == '\\':
			i += 2
		case s.doubled && oldHasAt(l, i, s.term+s.term):
			i += 2 * len(s.term)
		case oldHasAt(l, i, s.term):
			c.str = nil
			return i + len(s.term)
		default:
			i++
		}
	}
	return len(l)
}

// scanCode consumes one code token starting at l[i]: a string opener (which
// opens c.str), an identifier, or a single byte.
func (c *classifier) scanCode(l []byte, i int) int {
	if oldIsIdentByte(l[i]) {
		j := i
		for j < len(l) && oldIsIdentByte(l[j]) {
			j++
		}
		if lit, n := c.prefixedString(l[i:j], l[j:]); lit != nil {
			c.str = lit
			return j + n
		}
		return j
	}
	switch l[i] {
	case '"':
		if c.syn.CSharpLiterals {
			if n := oldCountByte(l[i:], '"'); n >= 3 { // C# 11 raw string
				c.str = &stringLit{term: strings.Repeat(`"`, n), multiline: true}
				return i + n
			}
		}
		c.str = &stringLit{term: `"`, backslash: true, multiline: c.syn.RustLiterals}
		return i + 1
	case '`':
		if c.syn.BacktickStrings {
			c.str = &stringLit{term: "`", multiline: true}
		}
		return i + 1
	case '\'':
		if c.syn.RustLiterals {
			if n := RustChar(l[i:]); n > 0 {
				return i + n
			}
			return i + 1 // a lifetime or a label
		}
		c.str = &stringLit{term: "'", backslash: true}
		return i + 1
	case '@', '$':
		if c.syn.CSharpLiterals {
			if n := csharpVerbatimPrefix(l[i:]); n > 0 {
				c.str = &stringLit{term: `"`, doubled: true, multiline: true}
				return i + n
			}
		}
	}
	return i + 1
}

// prefixedString recognises raw strings whose opener starts with an
// identifier: C++ R"delim( (after u8, L, u or U), and Rust r#"  or br#".
// rest is what follows the identifier; n is how much of it the opener takes.
func (c *classifier) prefixedString(ident, rest []byte) (lit *stringLit, n int) {
	switch {
	case c.syn.CppRawStrings:
		switch string(ident) {
		case "R", "u8R", "LR", "uR", "UR":
		default:
			return nil, 0
		}
		if len(rest) == 0 || rest[0] != '"' {
			return nil, 0
		}
		open := bytes.IndexByte(rest, '(')
		if open < 0 || open > 17 { // the delimiter is at most 16 characters
			return nil, 0
		}
		return &stringLit{term: ")" + string(rest[1:open]) + `"`, multiline: true}, open + 1
	case c.syn.RustLiterals:
		if string(ident) != "r" && string(ident) != "br" {
			return nil, 0
		}
		hashes := oldCountByte(rest, '#')
		if hashes >= len(rest) || rest[hashes] != '"' {
			return nil, 0
		}
		return &stringLit{term: `"` + strings.Repeat("#", hashes), multiline: true}, hashes + 1
	}
	return nil, 0
}

// csharpVerbatimPrefix is the length of @", $@" or @$" at the start of l, or 0.
func csharpVerbatimPrefix(l []byte) int {
	for _, p := range []string{`@"`, `$@"`, `@$"`} {
		if oldHasAt(l, 0, p) {
			return len(p)
		}
	}
	return 0
}

func oldHasAt(l []byte, i int, s string) bool {
	return i+len(s) <= len(l) && string(l[i:i+len(s)]) == s
}

func oldCountByte(l []byte, b byte) int {
	n := 0
	for n < len(l) && l[n] == b {
		n++
	}
	return n
}

func oldIsIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}
