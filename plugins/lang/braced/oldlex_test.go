package braced

import (
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// Lexed is a file of a braced language split into lines with comments and
// literals taken out, so that rules reading identifiers are not fooled by
// a word in a comment or a string.
type Lexed struct {
	Code     []string // per line (index 0 is line 1): comments removed, literal contents blanked
	Comments []string // per line: the text of the comments on it
	Lits     []Lit
}

// Lit is a string or character literal.
type Lit struct {
	Line  int    // where it starts
	Shown string // as written, quotes included (shortened for explanations)
	Value string // decoded
}

// lexer walks the source once; each language sets which literal forms it
// knows.
type lexer struct {
	syn  lang.Syntax
	src  string
	i    int
	out  Lexed
	code strings.Builder
	cmt  strings.Builder
}

// oldLex is the verify lexer before the move to lang.Lex: a test oracle.
func oldLex(syn lang.Syntax, src string) Lexed {
	lx := &lexer{syn: syn, src: src}
	lx.run()
	return lx.out
}

func (lx *lexer) newline() {
	lx.out.Code = append(lx.out.Code, lx.code.String())
	lx.out.Comments = append(lx.out.Comments, strings.TrimSpace(lx.cmt.String()))
	lx.code.Reset()
	lx.cmt.Reset()
}

func (lx *lexer) line() int { return len(lx.out.Code) + 1 }

func (lx *lexer) peek(k int) byte {
	if lx.i+k < len(lx.src) {
		return lx.src[lx.i+k]
	}
	return 0
}

func (lx *lexer) run() {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\n':
			lx.newline()
			lx.i++
		case c == '/' && lx.peek(1) == '/':
			lx.lineComment()
		case c == '/' && lx.peek(1) == '*':
			lx.blockComment()
		case c == '"' || c == '\'' || c == '@' || c == '$' || c == 'r' || c == 'R' || c == 'b':
			if !lx.literal() {
				lx.code.WriteByte(c)
				lx.i++
			}
		default:
			lx.code.WriteByte(c)
			lx.i++
		}
	}
	if lx.code.Len() > 0 || lx.cmt.Len() > 0 || len(lx.src) == 0 || lx.src[len(lx.src)-1] != '\n' {
		lx.newline()
	}
}

func (lx *lexer) lineComment() {
	end := strings.IndexByte(lx.src[lx.i:], '\n')
	if end < 0 {
		end = len(lx.src) - lx.i
	}
	lx.cmt.WriteString(strings.TrimLeft(lx.src[lx.i:lx.i+end], "/!"))
	lx.cmt.WriteByte(' ')
	lx.i += end
}

// blockComment skips /* ... */, nested in Rust.
func (lx *lexer) blockComment() {
	depth := 0
	for lx.i < len(lx.src) {
		switch {
		case lx.src[lx.i] == '/' && lx.peek(1) == '*':
			depth++
			lx.i += 2
			lx.code.WriteByte(' ')
			continue
		case lx.src[lx.i] == '*' && lx.peek(1) == '/':
			depth--
			lx.i += 2
			if depth == 0 || !lx.syn.NestedComments {
				lx.cmt.WriteByte(' ')
				return
			}
			continue
		case lx.src[lx.i] == '\n':
			lx.newline()
		default:
			lx.cmt.WriteByte(lx.src[lx.i])
		}
		lx.i++
	}
}

// literal consumes a literal starting at lx.i and reports whether there
// was one. Prefix letters only start a literal right before a quote and
// not in the middle of an identifier.
func (lx *lexer) literal() bool {
	if lx.i > 0 && oldIsIdentByte(lx.src[lx.i-1]) && lx.src[lx.i] != '"' && lx.src[lx.i] != '\'' {
		return false
	}
	rest := lx.src[lx.i:]
	switch {
	case lx.syn.RustLiterals && (strings.HasPrefix(rest, "r\"") || strings.HasPrefix(rest, "r#") || strings.HasPrefix(rest, "br\"") || strings.HasPrefix(rest, "br#")):
		return lx.rustRaw()
	case lx.syn.RustLiterals && (strings.HasPrefix(rest, "b\"") || strings.HasPrefix(rest, "b'")):
		lx.code.WriteByte('b')
		lx.i++
		return lx.quoted(lx.src[lx.i], true)
	case lx.syn.CppRawStrings && strings.HasPrefix(rest, "R\""):
		return lx.cppRaw()
	case lx.syn.CSharpLiterals && (strings.HasPrefix(rest, "@\"") || strings.HasPrefix(rest, "$@\"") || strings.HasPrefix(rest, "@$\"")):
		return lx.verbatim()
	case lx.syn.CSharpLiterals && strings.HasPrefix(rest, "$\""):
		lx.code.WriteByte('$')
		lx.i++
		return lx.quoted('"', true)
	case lx.syn.CSharpLiterals && strings.HasPrefix(rest, `"""`):
		return lx.delimited(`"""`, `"""`)
	case rest[0] == '"':
		return lx.quoted('"', true)
	case rest[0] == '\'':
		if lx.syn.RustLiterals && lang.RustChar(rest) == 0 {
			return false // a lifetime or a loop label
		}
		return lx.quoted('\'', true)
	}
	return false
}

// quoted consumes a quote-delimited literal with backslash escapes. An
// unterminated literal ends at the end of its line (C, C#, char literals)
// or of the file.
func (lx *lexer) quoted(q byte, escapes bool) bool {
	start, line := lx.i, lx.line()
	lx.code.WriteByte(q)
	lx.i++
	var raw strings.Builder
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c == '\\' && escapes && lx.i+1 < len(lx.src) {
			raw.WriteString(lx.src[lx.i : lx.i+2])
			lx.code.WriteString("  ")
			if lx.src[lx.i+1] == '\n' {
				lx.newline()
			}
			lx.i += 2
			continue
		}
		if c == q {
			lx.code.WriteByte(q)
			lx.i++
			break
		}
		if c == '\n' {
			if q == '\'' || !lx.syn.RustLiterals {
				break
			}
			lx.newline()
		} else {
			lx.code.WriteByte(' ')
		}
		raw.WriteByte(c)
		lx.i++
	}
	lx.addLit(line, lx.src[start:lx.i], oldUnescapeC(raw.String()))
	return true
}

// verbatim consumes a C# @"..." literal, where "" is a quote.
func (lx *lexer) verbatim() bool {
	start, line := lx.i, lx.line()
	for lx.src[lx.i] != '"' {
		lx.code.WriteByte(lx.src[lx.i])
		lx.i++
	}
	lx.code.WriteByte('"')
	lx.i++
	var raw strings.Builder
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c == '"' {
			if lx.peek(1) == '"' {
				raw.WriteByte('"')
				lx.code.WriteString("  ")
				lx.i += 2
				continue
			}
			lx.code.WriteByte('"')
			lx.i++
			break
		}
		if c == '\n' {
			lx.newline()
		} else {
			lx.code.WriteByte(' ')
		}
		raw.WriteByte(c)
		lx.i++
	}
	lx.addLit(line, lx.src[start:lx.i], raw.String())
	return true
}

// rustRaw consumes r"..." and r#"..."# (and the b-prefixed forms).
func (lx *lexer) rustRaw() bool {
	j := lx.i
	for lx.src[j] != 'r' {
		j++
	}
	j++
	hashes := 0
	for j < len(lx.src) && lx.src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(lx.src) || lx.src[j] != '"' {
		return false // r#ident, a raw identifier
	}
	open := lx.src[lx.i : j+1]
	return lx.delimited(open, "\""+strings.Repeat("#", hashes))
}

// cppRaw consumes R"delim( ... )delim".
func (lx *lexer) cppRaw() bool {
	paren := strings.IndexByte(lx.src[lx.i:], '(')
	if paren < 0 || paren > 18 {
		return false
	}
	delim := lx.src[lx.i+2 : lx.i+paren]
	if strings.ContainsAny(delim, " \\\n\")") {
		return false
	}
	return lx.delimited(lx.src[lx.i:lx.i+paren+1], ")"+delim+"\"")
}

// delimited consumes a literal without escapes between open and close.
func (lx *lexer) delimited(open, close string) bool {
	start, line := lx.i, lx.line()
	lx.code.WriteString(open)
	lx.i += len(open)
	end := strings.Index(lx.src[lx.i:], close)
	if end < 0 {
		end = len(lx.src) - lx.i
	}
	body := lx.src[lx.i : lx.i+end]
	for _, c := range []byte(body) {
		if c == '\n' {
			lx.newline()
		} else {
			lx.code.WriteByte(' ')
		}
	}
	lx.i += end
	if lx.i < len(lx.src) {
		lx.code.WriteString(close)
		lx.i += len(close)
	}
	lx.addLit(line, lx.src[start:lx.i], body)
	return true
}

func (lx *lexer) addLit(line int, shown, value string) {
	if len(shown) > 40 {
		shown = shown[:37] + "..."
	}
	lx.out.Lits = append(lx.out.Lits, Lit{Line: line, Shown: shown, Value: value})
}

func oldIsIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// unescapeC decodes the common escapes of C-like string literals; other
// escapes keep their letter, which is all the literal rules need.
func oldUnescapeC(raw string) string {
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
