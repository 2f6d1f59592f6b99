package csharp

import "strings"

// lex cuts src into tokens and directives. It knows // and /* */
// comments, "…" strings and '…' characters with escapes, @"…" verbatim
// strings ("" is a quote; $@ and @$ too), """…""" raw strings, and
// directives at the start of a line. It never fails: an unterminated
// construct ends at the end of its line (strings) or of the file.
// oldLex is the masker lexer before lang.Lex: a test oracle.
func oldLex(src []byte) lexed {
	var lx lexed
	line, lineStart := 1, true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && old_at(src, i+1, '/'):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && old_at(src, i+1, '*'):
			next := len(src)
			if end := strings.Index(string(src[i+2:]), "*/"); end >= 0 {
				next = i + 2 + end + 2
			}
			line += strings.Count(string(src[i:next]), "\n")
			i = next
			continue
		case c == '#' && lineStart:
			d := directive{start: i, line: line}
			for i < len(src) && src[i] != '\n' {
				i++
			}
			d.end = i
			text := strings.TrimSpace(strings.TrimPrefix(string(src[d.start:d.end]), "#"))
			if cut := strings.Index(text, "//"); cut >= 0 {
				text = strings.TrimSpace(text[:cut])
			}
			d.name, d.cond, _ = strings.Cut(text, " ")
			d.cond = strings.TrimSpace(d.cond)
			lx.directives = append(lx.directives, d)
			continue
		}
		lineStart = false
		start := i
		switch {
		case c == '@' || c == '$':
			i = old_prefixedEnd(src, i)
		case c == '"':
			i = old_stringEnd(src, i)
		case c == '\'':
			i = old_quotedEnd(src, i)
		case old_isIdentByte(c):
			for i < len(src) && (old_isIdentByte(src[i]) || src[i] >= '0' && src[i] <= '9') {
				i++
			}
		case c >= '0' && c <= '9':
			for i < len(src) && (old_isIdentByte(src[i]) || src[i] >= '0' && src[i] <= '9' || src[i] == '.') {
				i++
			}
		case c == '=' && old_at(src, i+1, '>'), c == ':' && old_at(src, i+1, ':'), c == '?' && old_at(src, i+1, '?'):
			i += 2
		default:
			i++
		}
		lx.tokens = append(lx.tokens, token{text: string(src[start:i]), start: start, end: i, line: line})
		line += strings.Count(string(src[start:i]), "\n")
	}
	return lx
}

func old_at(src []byte, i int, b byte) bool { return i < len(src) && src[i] == b }

func old_isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// prefixedEnd returns the end of what starts with @ or $ at src[i]: a
// verbatim or interpolated string, or the @ of a verbatim identifier
// (@class), or a lone $.
func old_prefixedEnd(src []byte, i int) int {
	j := i
	verbatim := false
	for j < len(src) && (src[j] == '@' || src[j] == '$') && j-i < 2 {
		verbatim = verbatim || src[j] == '@'
		j++
	}
	if !old_at(src, j, '"') {
		return i + 1
	}
	if !verbatim {
		return old_stringEnd(src, j)
	}
	for j++; j < len(src); j++ {
		if src[j] == '"' {
			if old_at(src, j+1, '"') {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(src)
}

// stringEnd returns the end of the string whose first quote is at src[i]:
// a raw string of three or more quotes, or a regular string.
func old_stringEnd(src []byte, i int) int {
	n := 0
	for i+n < len(src) && src[i+n] == '"' {
		n++
	}
	if n >= 3 {
		closing := strings.Repeat(`"`, n)
		if end := strings.Index(string(src[i+n:]), closing); end >= 0 {
			return i + n + end + n
		}
		return len(src)
	}
	return old_quotedEnd(src, i)
}

// quotedEnd returns the end of the "…" or '…' literal at src[i], which
// ends at its line when unterminated.
func old_quotedEnd(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}
