package lang

import (
	"bytes"
	"strings"
)

// TokenKind is what a token of Lex is.
type TokenKind uint8

// The kinds of token.
const (
	TokenPunct    TokenKind = iota // one byte, or a two-byte operator of Syntax.Operators
	TokenIdent                     // an identifier or keyword (Rust's r#type included)
	TokenNumber                    // a number literal
	TokenLiteral                   // a string, character or byte literal, its prefix included
	TokenLifetime                  // a Rust lifetime or loop label: 'a
	TokenComment                   // a line or block comment
)

// LiteralForm says how a literal's body escapes its delimiter.
type LiteralForm uint8

// The forms of literal.
const (
	Quoted   LiteralForm = iota // a backslash escapes the next byte: "…", '…', b"…"
	Verbatim                    // a doubled quote is a quote: C#'s @"…"
	Raw                         // no escapes: R"d(…)d", r#"…"#, """…""", `…`
)

// Token is one token of a file. A literal's bytes are
// [Start, Start+Open) its prefix and opening delimiter, then its body,
// then [End-Close, End) its closing delimiter (Close is 0 when the
// literal is unterminated).
type Token struct {
	Kind       TokenKind
	Start, End int // byte offsets
	Line       int // 1-based line of Start
	// Literals only.
	Form   LiteralForm
	Prefix int // bytes before the quote that only qualify it (L, u8, b, $), 0 for raw and verbatim literals, whose prefix is part of Open
	Open   int // the prefix and the opening delimiter
	Close  int
}

// Directive is one preprocessor line of a file (with its continuations in
// C and C++): a '#' that starts a line, up to the end of that line.
type Directive struct {
	Start, End int // offsets of the '#' and of the end of the (logical) line
	Line, Last int // first and last line
}

// Lexed is a file cut into tokens by its language's Syntax: the one lexer
// that the line classifier (ClassifyLines), the verify front ends
// (plugins/lang/braced) and the rules maskers share.
type Lexed struct {
	Src    []byte
	Tokens []Token // every token, comments included, in order; white space is not a token
	// Directives are the preprocessor lines, when Syntax.Preprocessor is
	// set. Their tokens are in Tokens too (InDirective tells them).
	Directives []Directive
}

// Lex cuts src into tokens. It knows the comment and literal forms syn
// names and never fails: an unterminated block comment or multi-line
// literal runs to the end of the file, an unterminated one-line literal to
// the end of its line.
func Lex(syn Syntax, src []byte) *Lexed {
	lx := &lexer{syn: syn, src: src, line: 1, lineStart: true, out: &Lexed{Src: src}}
	lx.run()
	return lx.out
}

type lexer struct {
	syn       Syntax
	src       []byte
	i, line   int
	lineStart bool // only white space and comments since the last newline
	dir       *Directive
	out       *Lexed
}

func (lx *lexer) at(k int) byte {
	if lx.i+k < len(lx.src) {
		return lx.src[lx.i+k]
	}
	return 0
}

func (lx *lexer) run() {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == '\n':
			lx.endDirective()
			lx.line++
			lx.lineStart = true
			lx.i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.i++
			continue
		case c == '\\' && lx.at(1) == '\n' && lx.syn.LineContinuations:
			lx.line++
			lx.i += 2
			continue
		case c == '/' && lx.at(1) == '/':
			end := bytes.IndexByte(src[lx.i:], '\n')
			if end < 0 {
				end = len(src) - lx.i
			}
			lx.emit(Token{Kind: TokenComment}, lx.i+end)
			continue
		case c == '/' && lx.at(1) == '*':
			lx.emit(Token{Kind: TokenComment}, lx.blockCommentEnd())
			continue
		case c == '#' && lx.lineStart && lx.syn.Preprocessor && lx.dir == nil:
			lx.dir = &Directive{Start: lx.i, Line: lx.line}
		}
		lx.lineStart = false
		lx.token()
	}
	lx.endDirective()
}

// emit appends a token of [lx.i, end) and moves past it. In a language
// whose directives are one line whatever they hold (C#), no token of a
// directive runs past its line: a comment or a literal left open there
// ends with it.
func (lx *lexer) emit(t Token, end int) {
	if lx.dir != nil && !lx.syn.LineContinuations {
		if eol := lx.i + lineLen(lx.src[lx.i:]); end > eol {
			end = eol
			t.Close = 0
		}
	}
	t.Start, t.End, t.Line = lx.i, end, lx.line
	lx.out.Tokens = append(lx.out.Tokens, t)
	lx.line += bytes.Count(lx.src[lx.i:end], []byte("\n"))
	lx.i = end
}

// endDirective closes the open directive at lx.i, a newline outside
// comments and literals (or the end of the file).
func (lx *lexer) endDirective() {
	if lx.dir == nil {
		return
	}
	lx.dir.End = lx.i
	lx.dir.Last = lx.dir.Line + bytes.Count(lx.src[lx.dir.Start:lx.dir.End], []byte("\n"))
	lx.out.Directives = append(lx.out.Directives, *lx.dir)
	lx.dir = nil
}

func lineLen(b []byte) int {
	if n := bytes.IndexByte(b, '\n'); n >= 0 {
		return n
	}
	return len(b)
}

// blockCommentEnd returns the offset past the block comment at lx.i: the
// first */ after its /*, or with NestedComments the one that closes every
// /* opened inside it.
func (lx *lexer) blockCommentEnd() int {
	src := lx.src
	if !lx.syn.NestedComments {
		if end := bytes.Index(src[lx.i+2:], []byte("*/")); end >= 0 {
			return lx.i + 2 + end + 2
		}
		return len(src)
	}
	depth := 0
	for i := lx.i; i < len(src); {
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

// token lexes the code token at lx.i.
func (lx *lexer) token() {
	src, i, c := lx.src, lx.i, lx.src[lx.i]
	switch {
	case lx.isIdentStart(c):
		lx.identifier()
	case c >= '0' && c <= '9' || (c == '.' && lx.syn.Numbers == NumbersC && isDigit(lx.at(1))):
		lx.emit(Token{Kind: TokenNumber}, lx.numberEnd())
	case c == '"':
		if lx.syn.CSharpLiterals {
			if n := countByte(src[i:], '"'); n >= 3 {
				lx.raw(n, strings.Repeat(`"`, n))
				return
			}
		}
		lx.quoted(0, '"')
	case c == '\'':
		switch {
		case !lx.syn.RustLiterals:
			lx.quoted(0, '\'')
		case RustChar(src[i:]) > 0:
			n := RustChar(src[i:])
			lx.emitLiteral(Quoted, 0, 1, rustCharClose(src[i:], n), i+n)
		case i+1 < len(src) && lx.isIdentStart(src[i+1]):
			lx.emit(Token{Kind: TokenLifetime}, lx.identEnd(i+1))
		default:
			lx.emit(Token{Kind: TokenPunct}, i+1)
		}
	case c == '`' && lx.syn.BacktickStrings:
		lx.raw(1, "`")
	case (c == '@' || c == '$') && lx.syn.CSharpLiterals:
		lx.csharpPrefixed()
	default:
		end := i + 1
		for _, op := range lx.syn.Operators {
			if hasAt(src, i, op) {
				end = i + len(op)
				break
			}
		}
		lx.emit(Token{Kind: TokenPunct}, end)
	}
}

func (lx *lexer) isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || c == '$' && lx.syn.DollarIdents
}

func (lx *lexer) identEnd(i int) int {
	for i < len(lx.src) && (lx.isIdentStart(lx.src[i]) || isDigit(lx.src[i])) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// identifier lexes an identifier, or the literal it is the prefix of.
func (lx *lexer) identifier() {
	src, i := lx.src, lx.i
	end := lx.identEnd(i)
	word, next := string(src[i:end]), byte(0)
	if end < len(src) {
		next = src[end]
	}
	switch {
	case lx.syn.CppRawStrings && next == '"' && (word == "R" || word == "u8R" || word == "LR" || word == "uR" || word == "UR"):
		if open, close, ok := cppRawDelims(src[end:]); ok {
			lx.raw(len(word)+open, close)
			return
		}
	case lx.syn.CppRawStrings && (next == '"' || next == '\'') && (word == "L" || word == "u" || word == "U" || word == "u8"):
		lx.quoted(len(word), next)
		return
	case lx.syn.RustLiterals && (word == "r" || word == "br" || word == "cr") && (next == '"' || next == '#'):
		hashes := countByte(src[end:], '#')
		if end+hashes < len(src) && src[end+hashes] == '"' {
			lx.raw(len(word)+hashes+1, `"`+strings.Repeat("#", hashes))
			return
		}
		if word == "r" && hashes == 1 && end+1 < len(src) && lx.isIdentStart(src[end+1]) {
			lx.emit(Token{Kind: TokenIdent}, lx.identEnd(end+1)) // a raw identifier: r#type
			return
		}
	case lx.syn.RustLiterals && (word == "b" || word == "c") && next == '"':
		lx.quoted(1, '"')
		return
	case lx.syn.RustLiterals && word == "b" && next == '\'':
		if n := RustChar(src[end:]); n > 0 {
			lx.emitLiteral(Quoted, 1, 2, rustCharClose(src[end:], n), end+n)
		} else {
			lx.quoted(1, '\'')
		}
		return
	}
	lx.emit(Token{Kind: TokenIdent}, end)
}

// cppRawDelims reads the opening of a C++ raw string, s starting at its
// quote: a delimiter of at most 16 characters (no space, parenthesis,
// backslash, tab, vertical tab, form feed or newline) before '('.
func cppRawDelims(s []byte) (open int, close string, ok bool) {
	paren := bytes.IndexByte(s, '(')
	if paren < 0 || paren > 17 {
		return 0, "", false
	}
	delim := string(s[1:paren])
	if strings.ContainsAny(delim, " )\\\t\v\f\n") {
		return 0, "", false
	}
	return paren + 1, ")" + delim + `"`, true
}

// csharpPrefixed lexes what starts with @ or $: a verbatim, interpolated
// or raw interpolated string, or else the lone @ of a verbatim identifier
// (@class) or a $.
func (lx *lexer) csharpPrefixed() {
	src, i := lx.src, lx.i
	j, verbatim := i, false
	for j < len(src) && (src[j] == '@' || src[j] == '$') && j-i < 2 {
		verbatim = verbatim || src[j] == '@'
		j++
	}
	switch {
	case j >= len(src) || src[j] != '"':
		lx.emit(Token{Kind: TokenPunct}, i+1)
	case verbatim:
		for k := j + 1; k < len(src); k++ {
			if src[k] == '"' {
				if k+1 < len(src) && src[k+1] == '"' {
					k++
					continue
				}
				lx.emitLiteral(Verbatim, 0, j-i+1, 1, k+1)
				return
			}
		}
		lx.emitLiteral(Verbatim, 0, j-i+1, 0, len(src))
	default:
		if n := countByte(src[j:], '"'); n >= 3 {
			lx.raw(j-i+n, strings.Repeat(`"`, n))
			return
		}
		lx.quoted(j-i, '"')
	}
}

// quoted lexes a literal of quote q with backslash escapes whose quote is
// prefix bytes after lx.i. A Rust string may span lines; any other
// unterminated literal ends at the end of its line.
func (lx *lexer) quoted(prefix int, q byte) {
	src := lx.src
	multiline := lx.syn.RustLiterals && q == '"'
	for k := lx.i + prefix + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			if k+1 < len(src) {
				k++
			}
		case q:
			lx.emitLiteral(Quoted, prefix, prefix+1, 1, k+1)
			return
		case '\n':
			if !multiline {
				lx.emitLiteral(Quoted, prefix, prefix+1, 0, k)
				return
			}
		}
	}
	lx.emitLiteral(Quoted, prefix, prefix+1, 0, len(src))
}

// raw lexes a literal without escapes: open bytes from lx.i (its prefix
// included), then a body up to the first close.
func (lx *lexer) raw(open int, close string) {
	body := lx.i + open
	if end := bytes.Index(lx.src[body:], []byte(close)); end >= 0 {
		lx.emitLiteral(Raw, 0, open, len(close), body+end+len(close))
		return
	}
	lx.emitLiteral(Raw, 0, open, 0, len(lx.src))
}

// rustCharClose is the length of the closing quote of the n-byte character
// literal RustChar found at s: 0 when an escape ran to the end of its line.
func rustCharClose(s []byte, n int) int {
	if s[1] != '\\' || n >= 4 && s[n-1] == '\'' {
		return 1
	}
	return 0
}

func (lx *lexer) emitLiteral(form LiteralForm, prefix, open, close, end int) {
	lx.emit(Token{Kind: TokenLiteral, Form: form, Prefix: prefix, Open: open, Close: close}, end)
}

// numberEnd returns the end of the number at lx.i by the language's rule.
func (lx *lexer) numberEnd() int {
	src, i := lx.src, lx.i
	switch lx.syn.Numbers {
	case NumbersRust:
		for i++; i < len(src); i++ {
			b := src[i]
			// A '.' continues the number only before a digit: 1.5, not
			// 1..2 or 1.max(2).
			if b == '.' && i+1 < len(src) && isDigit(src[i+1]) {
				continue
			}
			if !(isASCIIAlnum(b) || b == '_') {
				break
			}
		}
	case NumbersC:
		for i++; i < len(src); i++ {
			b := src[i]
			if (b == '+' || b == '-') && strings.IndexByte("eEpP", src[i-1]) >= 0 {
				continue
			}
			if !(lx.isIdentStart(b) || isDigit(b) || b == '.' || b == '\'') {
				break
			}
		}
	default:
		for i < len(src) && (lx.isIdentStart(src[i]) || isDigit(src[i]) || src[i] == '.') {
			i++
		}
	}
	return i
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// InDirective reports whether the token t lies in a directive of lx.
func (lx *Lexed) InDirective(t Token) bool {
	for _, d := range lx.Directives {
		if d.Start <= t.Start && t.Start < d.End {
			return true
		}
	}
	return false
}

// Text is the source of a token.
func (lx *Lexed) Text(t Token) string { return string(lx.Src[t.Start:t.End]) }
