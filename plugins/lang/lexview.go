package lang

import (
	"bytes"
	"strings"
)

// The views of a Lexed file that its consumers read: the code of each line
// (the verify front ends' pattern tables and brace scanner), the literals
// with their values (their literal rules) and the kind of each line (the
// line classifier). The maskers read Tokens and Directives directly.

// LineCode returns the code of each line (index 0 is line 1): comments
// taken out, a block comment leaving one space for each /* in it so that
// the words it parted stay apart, and the bodies of literals blanked to
// spaces (their prefixes and delimiters kept), so that rules reading
// identifiers are fooled by no word in a comment or a string. A file that
// ends in a newline has no empty line after it; an empty file has one.
func (lx *Lexed) LineCode() []string {
	src := lx.Src
	var b bytes.Buffer
	b.Grow(len(src))
	at := 0
	for _, t := range lx.Tokens {
		if t.Kind != TokenComment && t.Kind != TokenLiteral {
			continue
		}
		b.Write(src[at:t.Start])
		at = t.End
		if t.Kind == TokenComment {
			commentCode(&b, src[t.Start:t.End])
			continue
		}
		open, body, close := t.Start+t.Open, t.End-t.Close, t.End
		b.Write(src[t.Start:open])
		for k := open; k < body; k++ {
			switch {
			case src[k] == '\n':
				b.WriteByte('\n')
			case t.Form == Quoted && src[k] == '\\' && k+1 < body:
				b.WriteString("  ")
				k++
				if src[k] == '\n' {
					b.WriteByte('\n')
				}
			default:
				b.WriteByte(' ')
			}
		}
		b.Write(src[body:close])
	}
	b.Write(src[at:])
	lines := strings.Split(b.String(), "\n")
	if len(src) > 0 && src[len(src)-1] == '\n' {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// commentCode writes what a comment leaves of a line's code.
func commentCode(b *bytes.Buffer, c []byte) {
	if !hasAt(c, 0, "/*") {
		return // a line comment leaves nothing
	}
	for k := 0; k < len(c); {
		switch {
		case hasAt(c, k, "/*"):
			b.WriteByte(' ')
			k += 2
		case hasAt(c, k, "*/"):
			k += 2
		default:
			if c[k] == '\n' {
				b.WriteByte('\n')
			}
			k++
		}
	}
}

// Literal is a string or character literal of a file, for the rules that
// read what a literal says.
type Literal struct {
	Line int
	// Shown is the literal as written, quotes included (and the prefix of
	// a raw or verbatim literal), shortened to 40 bytes for explanations.
	Shown string
	// Value is the decoded content: the common escapes of C-like
	// languages (\n, \r, \t, \0) decoded, any other escaped byte kept as
	// itself; "" in a verbatim literal is one quote; raw literals as written.
	Value string
}

// Literals returns the literals of the file, in order.
func (lx *Lexed) Literals() []Literal {
	var out []Literal
	for _, t := range lx.Tokens {
		if t.Kind != TokenLiteral {
			continue
		}
		body := string(lx.Src[t.Start+t.Open : t.End-t.Close])
		var value string
		switch t.Form {
		case Quoted:
			value = unescapeC(body)
		case Verbatim:
			value = strings.ReplaceAll(body, `""`, `"`)
		default:
			value = body
		}
		shown := string(lx.Src[t.Start+t.Prefix : t.End])
		if len(shown) > 40 {
			shown = shown[:37] + "..."
		}
		out = append(out, Literal{Line: t.Line, Shown: shown, Value: value})
	}
	return out
}

// unescapeC decodes the common escapes of C-like string literals; other
// escapes keep their letter, which is all the literal rules need.
func unescapeC(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 == len(raw) {
			b.WriteByte(c)
			continue
		}
		i++
		switch raw[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(raw[i])
		}
	}
	return b.String()
}

// LineKinds returns the kind of each line (index 0 is line 1; a final
// newline does not start a line): code when a byte of it, or its newline,
// lies in a token other than a comment, or is neither white space nor
// lexed (a backslash continuing a line, a carriage return before the
// end of the line); comment when it holds comments and white space only.
func (lx *Lexed) LineKinds() []LineKind {
	src := lx.Src
	kinds := []LineKind{} // never nil: an empty file has no lines, not unknown ones
	tok := 0
	for start := 0; start < len(src); {
		end := start + lineLen(src[start:]) // the newline, or len(src)
		content := end
		if content > start && src[content-1] == '\r' {
			content-- // a line ending in \r\n
		}
		for tok < len(lx.Tokens) && lx.Tokens[tok].End <= start {
			tok++
		}
		code, comment := false, false
		next := start // bytes before next are in a token or checked
		for k := tok; k < len(lx.Tokens) && lx.Tokens[k].Start <= end; k++ {
			t := lx.Tokens[k]
			if t.Kind == TokenComment {
				comment = true
			} else {
				code = true
			}
			if t.Start > next && next < content {
				code = code || strays(src[next:min(t.Start, content)])
			}
			next = max(next, t.End)
		}
		if next < content {
			code = code || strays(src[next:content])
		}
		switch {
		case code:
			kinds = append(kinds, LineCode)
		case comment:
			kinds = append(kinds, LineComment)
		default:
			kinds = append(kinds, LineBlank)
		}
		start = end + 1
	}
	return kinds
}

// strays reports whether b, bytes between tokens, holds anything but
// white space.
func strays(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\f' && c != '\v' {
			return true
		}
	}
	return false
}
