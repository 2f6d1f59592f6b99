package rust

import (
	"strings"
	"unicode/utf8"

	"github.com/osbench/osbench/plugins/lang"
)

// lexRust cuts src into tokens. It knows line comments, nested block
// comments, strings with escapes, raw strings (r#"…"#, br"…", cr"…"),
// byte and C strings, characters as opposed to lifetimes, and raw
// identifiers. It never fails: an unterminated literal or comment runs to
// the end of the file.
// oldLexRust is the masker lexer before lang.Lex: a test oracle.
func oldLexRust(src []byte) []rtoken {
	var toks []rtoken
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := old_blockCommentEnd(src, i)
			line += strings.Count(string(src[i:end]), "\n")
			i = end
			continue
		}
		start := i
		kind := rkPunct
		switch {
		case old_isRustIdentStart(src, i):
			kind = rkIdent
			i = old_identEnd(src, i)
			word := string(src[start:i])
			switch {
			case (word == "r" || word == "br" || word == "cr") && i < len(src) && (src[i] == '"' || src[i] == '#'):
				if end, ok := old_rustRawStringEnd(src, i); ok {
					kind, i = rkLiteral, end
				} else if word == "r" && src[i] == '#' && old_isRustIdentStart(src, i+1) {
					i = old_identEnd(src, i+1) // a raw identifier: r#type
				}
			case (word == "b" || word == "c") && i < len(src) && src[i] == '"':
				kind, i = rkLiteral, old_rustQuotedEnd(src, i)
			case word == "b" && i < len(src) && src[i] == '\'':
				kind, i = rkLiteral, old_rustQuotedEnd(src, i)
			}
		case c >= '0' && c <= '9':
			kind = rkLiteral
			for i++; i < len(src); i++ {
				b := src[i]
				// A '.' continues the number only before a digit: 1.5, not
				// 1..2 or 1.max(2).
				if b == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' {
					continue
				}
				if !(old_isASCIIAlnum(b) || b == '_') {
					break
				}
			}
		case c == '"':
			kind, i = rkLiteral, old_rustQuotedEnd(src, i)
		case c == '\'':
			kind, i = old_charOrLifetime(src, i)
		case c == ':' && i+1 < len(src) && src[i+1] == ':', c == '-' && i+1 < len(src) && src[i+1] == '>',
			c == '=' && i+1 < len(src) && src[i+1] == '>':
			i += 2
		default:
			_, size := utf8.DecodeRune(src[i:])
			i += size
		}
		toks = append(toks, rtoken{text: string(src[start:i]), start: start, end: i, line: line, kind: kind})
		line += strings.Count(string(src[start:i]), "\n")
	}
	return toks
}

// blockCommentEnd returns the offset past the block comment opening at
// src[i]; block comments nest in Rust.
func old_blockCommentEnd(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			depth++
			i += 2
		case src[i] == '*' && i+1 < len(src) && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return len(src)
}

// rustRawStringEnd returns the offset past the raw string whose hashes or
// quote start at src[i] (after its r, br or cr); ok is false when what
// follows is not a raw string (r#ident).
func old_rustRawStringEnd(src []byte, i int) (int, bool) {
	hashes := 0
	for i < len(src) && src[i] == '#' {
		hashes++
		i++
	}
	if i >= len(src) || src[i] != '"' {
		return 0, false
	}
	closing := `"` + strings.Repeat("#", hashes)
	end := strings.Index(string(src[i+1:]), closing)
	if end < 0 {
		return len(src), true
	}
	return i + 1 + end + len(closing), true
}

// rustQuotedEnd returns the offset past the string or byte character whose
// quote is at src[i]. Rust strings may span lines.
func old_rustQuotedEnd(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(src)
}

// charOrLifetime tells a character literal ('a', '\n', '\u{e9}', 'é')
// from a lifetime or label ('a, 'static) at src[i] and returns its kind
// and end.
func old_charOrLifetime(src []byte, i int) (rkind, int) {
	if n := lang.RustChar(src[i:]); n > 0 {
		return rkLiteral, i + n
	}
	if old_isRustIdentStart(src, i+1) {
		return rkLifetime, old_identEnd(src, i+1)
	}
	return rkPunct, i + 1
}

func old_isRustIdentStart(src []byte, i int) bool {
	if i >= len(src) {
		return false
	}
	c := src[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func old_identEnd(src []byte, i int) int {
	for i < len(src) && (old_isASCIIAlnum(src[i]) || src[i] == '_' || src[i] >= 0x80) {
		i++
	}
	return i
}

func old_isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
