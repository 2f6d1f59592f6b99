package verify

import (
	"fmt"
	"regexp"
	"strings"
)

// readBraced reads a C, C++, Rust or C# file with the lexer and one pass
// over its braces: preprocessor branches (C, C++, C#), attributes (Rust
// #[cfg], C# [SupportedOSPlatform]) and platform if-conditions (Rust
// cfg!, C# OperatingSystem.Is*) guard the lines they cover; function
// headers give the functions; the language's pattern table gives the
// evidence.
func readBraced(lang, file string, src []byte) *fileModel {
	text := string(src)
	lx := lex(lang, text)
	sc := &braceScanner{
		lang:   lang,
		raw:    strings.Split(text, "\n"),
		m:      &fileModel{lines: countLines(src)},
		closed: map[int]guard{},
	}
	for i, code := range lx.code {
		sc.line(i+1, code)
	}
	sc.finish(len(lx.code))
	sc.m.evidence = append(sc.m.evidence, patternEvidence(lang, lx)...)
	sc.m.calls = callSites(lang, lx)
	return sc.m
}

// block is an open brace.
type block struct {
	kind   blockKind
	name   string // function name, for functions
	doc    string
	from   int // first line of the header
	guards []guard
	cond   guard // the platform if-condition that opened it, for else
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
	lang       string
	raw        []string
	m          *fileModel
	stack      []block
	pp         []ppFrame
	header     strings.Builder
	headerLine int
	pending    []guard       // guards of attributes waiting for their item
	closed     map[int]guard // depth → the platform if-condition of the block just closed there
	seenItem   bool
}

var (
	ppDirective       = regexp.MustCompile(`^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$`)
	cPlatformMacros   = regexp.MustCompile(`\b(_WIN32|_WIN64|WIN32|_WINDOWS|__WINDOWS__|__linux__|__linux|linux|__gnu_linux__|__unix__|__unix|unix|_MSC_VER|__APPLE__|__MACH__|__MINGW32__|__MINGW64__|__CYGWIN__|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__sun|__HAIKU__|__ANDROID__|_AIX|_POSIX_VERSION|__EMSCRIPTEN__)\b`)
	csPlatformSymbols = regexp.MustCompile(`\b(WINDOWS|LINUX|OSX|MACOS|UNIX|FREEBSD|ANDROID|IOS|WIN32|WIN64)\b`)
	rustCfgAttr       = regexp.MustCompile(`#!?\[\s*cfg\s*\((.*)\)\s*\]`)
	rustPlatformCfg   = regexp.MustCompile(`\b(windows|unix|target_os|target_family|target_env|target_vendor)\b`)
	rustIfCfg         = regexp.MustCompile(`\bif\b.*\bcfg!\s*\(([^)]*)`)
	csPlatformAttr    = regexp.MustCompile(`\[\s*(SupportedOSPlatform|UnsupportedOSPlatform|SupportedOSPlatformGuard)\b`)
	csIfPlatform      = regexp.MustCompile(`\bif\s*\(.*\b(OperatingSystem\.Is\w+|RuntimeInformation\.IsOSPlatform|Environment\.OSVersion|Path\.DirectorySeparatorChar)`)
	containerHeader   = map[string]*regexp.Regexp{
		LangC:      regexp.MustCompile(`\b(struct|union|enum)\b|\bextern\s*"`),
		LangCPP:    regexp.MustCompile(`\b(namespace|class|struct|union|enum)\b|\bextern\s*"`),
		LangRust:   regexp.MustCompile(`^\s*(pub(\([^)]*\))?\s+)?(unsafe\s+)?(mod|impl|trait|struct|enum|union|extern)\b|\bimpl\b`),
		LangCSharp: regexp.MustCompile(`\b(namespace|class|struct|interface|record|enum)\b`),
	}
	rustFnName  = regexp.MustCompile(`\bfn\s+([A-Za-z_]\w*)`)
	cFuncName   = regexp.MustCompile(`((?:[A-Za-z_~]\w*::)*[A-Za-z_~]\w*)\s*\(`)
	notFuncName = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
		"return": true, "sizeof": true, "using": true, "lock": true, "foreach": true, "fixed": true,
		"get": true, "set": true, "new": true, "typeof": true, "nameof": true, "defined": true}
)

func (sc *braceScanner) line(n int, code string) {
	if sc.lang != LangRust {
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
	isPlatform := func(s string) bool {
		if sc.lang == LangCSharp {
			return csPlatformSymbols.MatchString(s)
		}
		return cPlatformMacros.MatchString(s)
	}
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
		sc.m.spans = append(sc.m.spans, guardSpan{from: f.branchLine + 1, to: last,
			guard: guard{line: f.branchLine, text: f.branch, cond: fmt.Sprintf("#if:%d", f.ifLine), strength: 0.85}})
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
	case containerHeader[sc.lang].MatchString(h) && !strings.Contains(h, "("):
		b.kind = containerBlock
	case sc.lang == LangRust && rustFnName.MatchString(h):
		b.kind, b.name = functionBlock, rustFnName.FindStringSubmatch(h)[1]
	case sc.lang == LangRust && containerHeader[LangRust].MatchString(h):
		b.kind = containerBlock
	case sc.lang != LangRust:
		if name := cLikeFuncName(h); name != "" {
			b.kind, b.name = functionBlock, name
		}
	}
	if b.kind == functionBlock {
		b.doc = sc.docAbove(from)
	}
	b.guards = append(sc.headerGuards(h, from), sc.pending...)
	if cond := sc.ifCondition(h); cond != "" {
		b.cond = guard{line: sc.findLine(from, "if"), text: cond}
	} else if c := sc.closed[len(sc.stack)]; strings.HasPrefix(h, "else") && c.text != "" {
		b.guards = append(b.guards, guard{line: c.line, text: "else of " + c.text,
			cond: fmt.Sprintf("if:%d", c.line), strength: 0.8})
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
		sc.m.spans = append(sc.m.spans, guardSpan{from: b.from, to: n, guard: g})
	}
	if b.kind == functionBlock {
		sc.m.funcs = append(sc.m.funcs, funcSpan{name: b.name, doc: b.doc, from: b.from, to: n})
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
			sc.m.spans = append(sc.m.spans, guardSpan{from: sc.headerLine, to: n, guard: g})
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
func (sc *braceScanner) headerGuards(h string, from int) []guard {
	var gs []guard
	switch sc.lang {
	case LangRust:
		for _, a := range rustCfgAttr.FindAllStringSubmatch(h, -1) {
			if rustPlatformCfg.MatchString(a[1]) {
				if strings.HasPrefix(a[0], "#!") && !sc.seenItem && len(sc.stack) == 0 {
					sc.m.fileGuards = append(sc.m.fileGuards, guard{line: sc.findLine(from, a[0]), text: a[0], strength: 0.85})
					continue
				}
				gs = append(gs, guard{line: sc.findLine(from, a[0]), text: a[0], cond: "cfg", strength: 0.85})
			}
		}
	case LangCSharp:
		if loc := csPlatformAttr.FindStringIndex(h); loc != nil {
			l := sc.findLine(from, h[loc[0]:loc[1]])
			gs = append(gs, guard{line: l, text: strings.TrimSpace(sc.rawLine(l)), cond: "os-attribute", strength: 0.85})
		}
	}
	if cond := sc.ifCondition(h); cond != "" {
		l := sc.findLine(from, "if")
		gs = append(gs, guard{line: l, text: cond, cond: fmt.Sprintf("if:%d", l), strength: 0.85})
	}
	return gs
}

// ifCondition returns the text of a platform if-condition heading h.
func (sc *braceScanner) ifCondition(h string) string {
	var re *regexp.Regexp
	switch sc.lang {
	case LangRust:
		re = rustIfCfg
	case LangCSharp:
		re = csIfPlatform
	default:
		return ""
	}
	loc := re.FindStringIndex(h)
	if loc == nil || (sc.lang == LangRust && !rustPlatformCfg.MatchString(re.FindStringSubmatch(h)[1])) {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(h[loc[0]:], "else "))
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

// cLikeFuncName returns the name of the function a C, C++ or C# header
// declares, or "".
func cLikeFuncName(h string) string {
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
