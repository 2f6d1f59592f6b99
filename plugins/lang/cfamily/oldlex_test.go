package cfamily

import "strings"


// lexC cuts src into tokens and directives. It knows comments, string and
// character literals (C++ raw strings included) and line continuations;
// it never fails: unterminated constructs run to the end of the file.
// oldLexC is the masker lexer before lang.Lex: a test oracle.
func oldLexC(src []byte, cpp bool) clexed {
	var lx clexed
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
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			line++
			i += 2
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			next := len(src)
			if end >= 0 {
				next = i + 2 + end + 2
			}
			line += strings.Count(string(src[i:next]), "\n")
			i = next
			continue
		case c == '#' && lineStart:
			d := cdirective{start: i, line: line}
			for i < len(src) && src[i] != '\n' {
				switch {
				case src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n':
					line++
					i += 2
				case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
					end := strings.Index(string(src[i+2:]), "*/")
					next := len(src)
					if end >= 0 {
						next = i + 2 + end + 2
					}
					line += strings.Count(string(src[i:next]), "\n")
					i = next
				default:
					i++
				}
			}
			d.end, d.last = i, line
			d.name = oldDirectiveName(string(src[d.start:d.end]))
			lx.directives = append(lx.directives, d)
			continue
		}
		lineStart = false
		start := i
		switch {
		case old_isIdentByte(c):
			for i < len(src) && (old_isIdentByte(src[i]) || (src[i] >= '0' && src[i] <= '9')) {
				i++
			}
			if i < len(src) && src[i] == '"' && cpp && strings.HasSuffix(string(src[start:i]), "R") {
				i = old_rawStringEnd(src, i)
			} else if i < len(src) && (src[i] == '"' || src[i] == '\'') && old_isLiteralPrefix(string(src[start:i])) {
				i = old_quotedEnd(src, i)
			}
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			for i++; i < len(src); i++ {
				b := src[i]
				if (b == '+' || b == '-') && strings.ContainsRune("eEpP", rune(src[i-1])) {
					continue
				}
				if !(old_isIdentByte(b) || b >= '0' && b <= '9' || b == '.' || b == '\'') {
					break
				}
			}
		case c == '"' || c == '\'':
			i = old_quotedEnd(src, i)
		case c == ':' && i+1 < len(src) && src[i+1] == ':', c == '-' && i+1 < len(src) && src[i+1] == '>',
			c == '&' && i+1 < len(src) && src[i+1] == '&':
			i += 2
		default:
			i++
		}
		lx.tokens = append(lx.tokens, ctoken{text: string(src[start:i]), start: start, end: i, line: line})
		line += strings.Count(string(src[start:i]), "\n")
	}
	return lx
}

func old_isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// isLiteralPrefix tells encoding prefixes (L"", u8"") from identifiers.
func old_isLiteralPrefix(s string) bool {
	switch s {
	case "L", "u", "U", "u8":
		return true
	}
	return false
}

// quotedEnd returns the offset past the string or character literal whose
// quote is at src[i].
func old_quotedEnd(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i // unterminated: ends at the line
		}
	}
	return len(src)
}

// rawStringEnd returns the offset past the raw string R"d( ... )d" whose
// quote is at src[i].
func old_rawStringEnd(src []byte, i int) int {
	open := strings.IndexByte(string(src[i:]), '(')
	if open < 0 {
		return len(src)
	}
	delim := ")" + string(src[i+1:i+open]) + `"`
	end := strings.Index(string(src[i+open:]), delim)
	if end < 0 {
		return len(src)
	}
	return i + open + end + len(delim)
}

// directiveName returns the name after '#' ("ifdef", "endif", ...).
func oldDirectiveName(text string) string {
	text = strings.TrimLeft(strings.TrimPrefix(text, "#"), " \t")
	end := 0
	for end < len(text) && old_isIdentByte(text[end]) {
		end++
	}
	return text[:end]
}
