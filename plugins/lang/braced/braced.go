// Package braced is the verify front end the brace languages (C, C++,
// Rust, C#) share: it lexes a file (comments and literals set aside), walks
// its braces and preprocessor lines once, and fills an evidence.File with
// the guards, functions, calls and facts it finds. What differs between the
// languages (which preprocessor conditions and attributes name a platform,
// which headers open a class or a function, the table of OS-specific
// names) is a Grammar, which each language's package under plugins/lang
// defines beside its other rules and passes to Read.
package braced

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/lang/evidence"
)

// Grammar is what a brace language's front end knows beyond its
// lang.Syntax (which says how it writes comments, literals and whether it
// has a preprocessor).
type Grammar struct {
	Syntax lang.Syntax
	// PlatformDirective reports whether the condition of an #if, #ifdef,
	// #elif... line names a platform (_WIN32, WINDOWS). Only read when
	// Syntax.Preprocessor is set.
	PlatformDirective func(cond string) bool
	// Container matches the header of a block functions live in
	// (namespace, class, impl, extern "C"); a header with a '(' is one
	// only when ParenContainers is set and FunctionName finds no function
	// in it (Rust's impl<F: Fn()>).
	Container       *regexp.Regexp
	ParenContainers bool
	// FunctionName returns the name of the function a block header
	// declares, or "" (CFunctionName for the C-like languages).
	FunctionName func(header string) string
	// Attributes finds the platform attributes of a statement or block
	// header (Rust's #[cfg(windows)], C#'s [SupportedOSPlatform]); nil:
	// the language has none that guard.
	Attributes func(header string) []Attribute
	// IfCondition returns the platform condition of an if heading the
	// header (if cfg!(windows), if (OperatingSystem.IsWindows())), from
	// the if on, or ""; nil: the language tests the platform only in
	// its preprocessor.
	IfCondition func(header string) string
	// Patterns are the OS-specific names of the language, matched on
	// every line of code (comments removed, literal contents blanked).
	Patterns []Pattern
	// ExtraFacts adds facts that need the whole file (C#'s calls of its
	// own extern methods), after the patterns' and the literals'; nil:
	// none.
	ExtraFacts func(code []string, calls []evidence.Call) []evidence.Fact
}

// Attribute is a platform attribute found in a header.
type Attribute struct {
	// Needle is the text of the attribute, by which its line is found.
	Needle string
	// Text is the guard's text; "" takes the (trimmed, shortened) source
	// line the attribute is on.
	Text string
	// Cond names the condition the attribute is a branch of (see
	// evidence.Guard.Cond).
	Cond string
	// Inner attributes (#![cfg(windows)]) before any item of the file
	// guard the whole file.
	Inner bool
}

// Pattern is a rule over the code of a line.
type Pattern struct {
	Re     *regexp.Regexp
	Label  string
	Group  string
	Weight float64
}

// Read reads a file of a brace language with lang.Lex (the lexer the line
// classifier and the maskers share) and one pass over its braces: preprocessor branches, attributes and platform
// if-conditions guard the lines they cover; function headers give the
// functions; the grammar's pattern table and the literal rules give the
// facts.
func Read(g *Grammar, src []byte) *evidence.File {
	text := string(src)
	lx := lang.Lex(g.Syntax, src)
	code := lx.LineCode()
	sc := &braceScanner{
		g:      g,
		raw:    strings.Split(text, "\n"),
		m:      &evidence.File{Lines: evidence.CountLines(src)},
		closed: map[int]evidence.Guard{},
	}
	for i, c := range code {
		sc.line(i+1, c)
	}
	sc.finish(len(code))
	sc.m.Facts = append(sc.m.Facts, patternFacts(g, code, lx.Literals())...)
	sc.m.Calls = CallSites(g.Syntax, code)
	return sc.m
}

// block is an open brace.
type block struct {
	kind   blockKind
	name   string // function name, for functions
	doc    string
	from   int // first line of the header
	guards []evidence.Guard
	cond   evidence.Guard // the platform if-condition that opened it, for else
}

type blockKind int

const (
	plainBlock     blockKind = iota
	containerBlock           // namespace, class, impl, mod, extern "C": functions live inside
	functionBlock
)

// ppFrame is an open #if ... #endif.
type ppFrame struct {
	first       string // the opening directive
	ifLine      int
	branch      string // the current branch's directive
	branchLine  int
	platform    bool // the current branch depends on a platform macro
	anyPlatform bool // some branch so far did
	atIf        []block
	afterFirst  []block
	haveFirst   bool
}

type braceScanner struct {
	g          *Grammar
	raw        []string
	m          *evidence.File
	stack      []block
	pp         []ppFrame
	header     strings.Builder
	headerLine int
	pending    []evidence.Guard       // guards of attributes waiting for their item
	closed     map[int]evidence.Guard // depth → the platform if-condition of the block just closed there
	seenItem   bool
}

var (
	ppDirective = regexp.MustCompile(`^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$`)
	cFuncName   = regexp.MustCompile(`((?:[A-Za-z_~]\w*::)*[A-Za-z_~]\w*)\s*\(`)
	notFuncName = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
		"return": true, "sizeof": true, "using": true, "lock": true, "foreach": true, "fixed": true,
		"get": true, "set": true, "new": true, "typeof": true, "nameof": true, "defined": true}
)

func (sc *braceScanner) line(n int, code string) {
	if sc.g.Syntax.Preprocessor {
		if d := ppDirective.FindStringSubmatch(code); d != nil {
			sc.directive(n, d[1], strings.TrimSpace(d[2]))
			return
		}
		if strings.HasPrefix(strings.TrimSpace(code), "#") {
			return // #include, #define, #pragma, #region: not code
		}
	}
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '{':
			sc.open(n)
		case '}':
			sc.close(n)
		case ';':
			sc.endStatement(n)
		default:
			if sc.header.Len() == 0 && (c == ' ' || c == '\t' || c == '\r') {
				continue
			}
			if sc.header.Len() == 0 {
				sc.headerLine = n
			}
			sc.header.WriteByte(c)
		}
	}
	if sc.header.Len() > 0 {
		sc.header.WriteByte(' ')
	}
}

func (sc *braceScanner) directive(n int, kind, cond string) {
	text := strings.TrimSpace(sc.rawLine(n))
	isPlatform := sc.g.PlatformDirective
	switch kind {
	case "if", "ifdef", "ifndef":
		p := isPlatform(cond)
		sc.pp = append(sc.pp, ppFrame{first: text, ifLine: n, branch: text, branchLine: n, platform: p,
			anyPlatform: p, atIf: cloneBlocks(sc.stack)})
		return
	}
	if len(sc.pp) == 0 {
		return // an #else or #endif without #if: ignore it
	}
	f := &sc.pp[len(sc.pp)-1]
	sc.closeBranch(f, n-1)
	switch kind {
	case "elif", "elifdef", "elifndef", "else":
		if !f.haveFirst {
			f.afterFirst, f.haveFirst = cloneBlocks(sc.stack), true
		}
		sc.stack = cloneBlocks(f.atIf)
		f.branchLine = n
		if kind == "else" {
			f.branch = text + " (of " + f.first + ")"
			f.platform = f.anyPlatform
		} else {
			f.branch = text
			f.platform = f.anyPlatform || isPlatform(cond)
			f.anyPlatform = f.platform
		}
	case "endif":
		if f.haveFirst {
			sc.stack = f.afterFirst
		}
		sc.pp = sc.pp[:len(sc.pp)-1]
	}
}

func (sc *braceScanner) closeBranch(f *ppFrame, last int) {
	if f.platform && last > f.branchLine {
		sc.m.Spans = append(sc.m.Spans, evidence.GuardSpan{From: f.branchLine + 1, To: last,
			Guard: evidence.Guard{Line: f.branchLine, Text: f.branch, Cond: fmt.Sprintf("#if:%d", f.ifLine), Strength: 0.85}})
	}
}

func (sc *braceScanner) open(n int) {
	h := strings.TrimSpace(sc.header.String())
	from := sc.headerLine
	if h == "" {
		from = n
	}
	b := block{kind: plainBlock, from: from}
	inFunc := false
	for _, s := range sc.stack {
		inFunc = inFunc || s.kind == functionBlock
	}
	switch {
	case inFunc:
	case sc.g.Container.MatchString(h) && !strings.Contains(h, "("):
		b.kind = containerBlock
	default:
		if name := sc.g.FunctionName(h); name != "" {
			b.kind, b.name = functionBlock, name
		} else if sc.g.ParenContainers && sc.g.Container.MatchString(h) {
			b.kind = containerBlock
		}
	}
	if b.kind == functionBlock {
		b.doc = sc.docAbove(from)
	}
	b.guards = append(sc.headerGuards(h, from), sc.pending...)
	if cond := sc.ifCondition(h); cond != "" {
		b.cond = evidence.Guard{Line: sc.findLine(from, "if"), Text: cond}
	} else if c := sc.closed[len(sc.stack)]; strings.HasPrefix(h, "else") && c.Text != "" {
		b.guards = append(b.guards, evidence.Guard{Line: c.Line, Text: "else of " + c.Text,
			Cond: fmt.Sprintf("if:%d", c.Line), Strength: 0.8})
	}
	sc.pending = nil
	sc.stack = append(sc.stack, b)
	sc.resetHeader()
}

func (sc *braceScanner) close(n int) {
	sc.endStatement(n)
	if len(sc.stack) == 0 {
		return // unbalanced: ignore
	}
	b := sc.stack[len(sc.stack)-1]
	sc.stack = sc.stack[:len(sc.stack)-1]
	for _, g := range b.guards {
		sc.m.Spans = append(sc.m.Spans, evidence.GuardSpan{From: b.from, To: n, Guard: g})
	}
	if b.kind == functionBlock {
		sc.m.Funcs = append(sc.m.Funcs, evidence.Func{Name: b.name, Doc: b.doc, From: b.from, To: n})
	}
	sc.closed[len(sc.stack)] = b.cond
	sc.resetHeader()
}

// endStatement closes a statement: attributes and conditions in its header
// guard its lines (#[cfg(windows)] const X: u32 = 1;).
func (sc *braceScanner) endStatement(n int) {
	h := strings.TrimSpace(sc.header.String())
	if h != "" {
		gs := append(sc.headerGuards(h, sc.headerLine), sc.pending...)
		for _, g := range gs {
			sc.m.Spans = append(sc.m.Spans, evidence.GuardSpan{From: sc.headerLine, To: n, Guard: g})
		}
		sc.pending = nil
		sc.seenItem = true
	}
	sc.resetHeader()
}

func (sc *braceScanner) resetHeader() {
	sc.header.Reset()
	sc.headerLine = 0
}

// headerGuards finds the attributes and platform if-conditions of a
// statement or block header.
func (sc *braceScanner) headerGuards(h string, from int) []evidence.Guard {
	var gs []evidence.Guard
	if sc.g.Attributes != nil {
		for _, a := range sc.g.Attributes(h) {
			l := sc.findLine(from, a.Needle)
			text := a.Text
			if text == "" {
				text = sc.rawLine(l)
			}
			if a.Inner && !sc.seenItem && len(sc.stack) == 0 {
				sc.m.FileGuards = append(sc.m.FileGuards, evidence.Guard{Line: l, Text: text, Strength: 0.85})
				continue
			}
			gs = append(gs, evidence.Guard{Line: l, Text: text, Cond: a.Cond, Strength: 0.85})
		}
	}
	if cond := sc.ifCondition(h); cond != "" {
		l := sc.findLine(from, "if")
		gs = append(gs, evidence.Guard{Line: l, Text: cond, Cond: fmt.Sprintf("if:%d", l), Strength: 0.85})
	}
	return gs
}

// ifCondition returns the text of a platform if-condition heading h.
func (sc *braceScanner) ifCondition(h string) string {
	if sc.g.IfCondition == nil {
		return ""
	}
	return sc.g.IfCondition(h)
}

// findLine returns the first line at or after from whose source holds
// needle, or from.
func (sc *braceScanner) findLine(from int, needle string) int {
	for l := from; l > 0 && l <= len(sc.raw) && l < from+50; l++ {
		if strings.Contains(sc.raw[l-1], needle) {
			return l
		}
	}
	return from
}

func (sc *braceScanner) rawLine(n int) string {
	if n < 1 || n > len(sc.raw) {
		return ""
	}
	s := strings.TrimSpace(sc.raw[n-1])
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// docAbove collects the comment lines right above line from.
func (sc *braceScanner) docAbove(from int) string {
	var lines []string
	for l := from - 1; l >= 1 && l > from-30; l-- {
		t := strings.TrimSpace(sc.raw[l-1])
		if !(strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")) {
			break
		}
		t = strings.TrimLeft(t, "/*! ")
		t = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(t, "*/")), "*/")
		lines = append([]string{t}, lines...)
	}
	doc := strings.Join(lines, " ")
	for _, tag := range []string{"<summary>", "</summary>"} {
		doc = strings.ReplaceAll(doc, tag, "")
	}
	return doc
}

func (sc *braceScanner) finish(last int) {
	for len(sc.pp) > 0 {
		sc.closeBranch(&sc.pp[len(sc.pp)-1], last)
		sc.pp = sc.pp[:len(sc.pp)-1]
	}
	for len(sc.stack) > 0 {
		sc.close(last)
	}
}

// CFunctionName returns the name of the function a C, C++ or C# header
// declares, or "".
func CFunctionName(h string) string {
	if i := strings.Index(h, "="); i >= 0 && !strings.Contains(h[:i], "(") {
		return "" // an initialiser or a lambda assigned to a variable
	}
	m := cFuncName.FindStringSubmatch(h)
	if m == nil {
		return ""
	}
	name := m[1]
	if notFuncName[name[strings.LastIndex(name, ":")+1:]] {
		return ""
	}
	return name
}

func cloneBlocks(bs []block) []block { return append([]block(nil), bs...) }
