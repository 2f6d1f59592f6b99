package cfamily

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// cbranch is one branch of a preprocessor conditional group: the lines
// between its directive and the next directive of the same group.
type cbranch struct {
	first, last  int // content lines (may be empty: last < first)
	tokLo, tokHi int // its tokens, nested groups included: tokens[tokLo:tokHi]
	after        int // index of the first token after the group's #endif
	depth        int // nesting of the group (0: outermost)
	// dirs are the indices (into lx.directives) of the directives of the
	// group up to and including the one opening this branch: what decides
	// whether the branch is compiled.
	dirs []int
	// outer is the index of the branch holding this branch's group, or -1.
	outer int
}

// cfunc is a function definition: its head and the braces of its body.
type cfunc struct {
	name        string
	result      []string // tokens of the declared return type
	params      []string // parameter names
	open, close int      // token indices of the body's braces
}

// cfile is a lexed C or C++ file with its structure.
type cfile struct {
	src      []byte
	cpp      bool
	lx       clexed
	lines    lineIndex
	branches []cbranch
	parent   []int // per token: index of the innermost enclosing '{', or -1
	match    map[int]int
	funcs    map[int]*cfunc      // by the token index of the body's '{'
	statics  []staticDecl        // file-scope statics, found on first use (statics.go)
	macros   map[string][]string // identifiers of each #define's replacement, found on first use (statics.go)
}

func parseC(src []byte, cpp bool) *cfile {
	lx := lexC(src)
	// A header named .h is C++ when it says so: C has no namespaces,
	// templates or access labels (leveldb's util/posix_logger.h).
	cpp = cpp || looksCPP(lx.tokens)
	f := &cfile{src: src, cpp: cpp, lx: lx, lines: newLineIndex(src), match: map[int]int{}, funcs: map[int]*cfunc{}}
	f.findBranches()
	f.findBraces()
	return f
}

// looksCPP reports tokens only C++ has: "namespace NAME {" or
// "namespace {", "template <", or an access label ("public:") of a class.
func looksCPP(toks []ctoken) bool {
	for i := 0; i+1 < len(toks); i++ {
		next := toks[i+1].text
		switch toks[i].text {
		case "namespace":
			if next == "{" || (isCIdent(next) && i+2 < len(toks) && (toks[i+2].text == "{" || toks[i+2].text == "::")) {
				return true
			}
		case "template":
			if next == "<" {
				return true
			}
		case "public", "private", "protected":
			if next == ":" && i > 0 && (toks[i-1].text == "{" || toks[i-1].text == ";" || toks[i-1].text == "}") {
				return true
			}
		}
	}
	return false
}

// findBranches pairs the conditional directives into groups and branches.
func (f *cfile) findBranches() {
	type open struct {
		branches []int // indices into f.branches
		dirs     []int // indices into f.lx.directives
	}
	var stack []open
	tok := 0
	tokenAt := func(off int) int { // first token at or after off
		for tok < len(f.lx.tokens) && f.lx.tokens[tok].start < off {
			tok++
		}
		return tok
	}
	closeBranch := func(d cdirective) {
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		b := &f.branches[top.branches[len(top.branches)-1]]
		b.last = d.line - 1
		b.tokHi = tokenAt(d.start)
	}
	for di, d := range f.lx.directives {
		switch d.name {
		case "if", "ifdef", "ifndef":
			stack = append(stack, open{})
			fallthrough
		case "elif", "elifdef", "elifndef", "else":
			if len(stack) == 0 {
				continue // a stray #else: no group to belong to
			}
			if d.name != "if" && d.name != "ifdef" && d.name != "ifndef" {
				closeBranch(d)
			}
			top := &stack[len(stack)-1]
			top.dirs = append(top.dirs, di)
			outer := -1
			if n := len(stack); n > 1 {
				outer = stack[n-2].branches[len(stack[n-2].branches)-1]
			}
			f.branches = append(f.branches, cbranch{first: d.last + 1, tokLo: tokenAt(d.end), depth: len(stack) - 1,
				dirs: append([]int(nil), top.dirs...), outer: outer})
			top.branches = append(top.branches, len(f.branches)-1)
		case "endif":
			if len(stack) == 0 {
				continue
			}
			closeBranch(d)
			after := tokenAt(d.end)
			for _, bi := range stack[len(stack)-1].branches {
				f.branches[bi].after = after
			}
			stack = stack[:len(stack)-1]
		}
	}
	// Groups left open by a truncated file end with it.
	for _, o := range stack {
		for _, bi := range o.branches {
			b := &f.branches[bi]
			if b.tokHi == 0 && b.last == 0 {
				b.last, b.tokHi, b.after = countLines(f.src), len(f.lx.tokens), len(f.lx.tokens)
			}
		}
	}
}

// findBraces matches braces. Each branch of a conditional group starts
// from the nesting its group started with, and the nesting after the
// group is the one after its first branch, as a compiler that took the
// first branch would see it.
func (f *cfile) findBraces() {
	f.parent = make([]int, len(f.lx.tokens))
	var stack []int
	type group struct{ start, afterFirst []int }
	var groups []group
	di := 0
	dirs := f.lx.directives
	for i, t := range f.lx.tokens {
		for ; di < len(dirs) && dirs[di].start < t.start; di++ {
			switch dirs[di].name {
			case "if", "ifdef", "ifndef":
				groups = append(groups, group{start: append([]int(nil), stack...)})
			case "elif", "elifdef", "elifndef", "else":
				if n := len(groups); n > 0 {
					if groups[n-1].afterFirst == nil {
						groups[n-1].afterFirst = append([]int{}, stack...)
					}
					stack = append([]int(nil), groups[n-1].start...)
				}
			case "endif":
				if n := len(groups); n > 0 {
					if groups[n-1].afterFirst != nil {
						stack = groups[n-1].afterFirst
					}
					groups = groups[:n-1]
				}
			}
		}
		f.parent[i] = -1
		if len(stack) > 0 {
			f.parent[i] = stack[len(stack)-1]
		}
		switch t.text {
		case "{":
			if !f.inFunction(i) {
				if fn := f.functionHead(i); fn != nil {
					f.funcs[i] = fn
				}
			}
			stack = append(stack, i)
		case "}":
			if len(stack) > 0 {
				f.match[stack[len(stack)-1]] = i
				if fn := f.funcs[stack[len(stack)-1]]; fn != nil {
					fn.close = i
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// sortedFuncs returns the token indices of the function bodies in order.
func (f *cfile) sortedFuncs() []int {
	opens := make([]int, 0, len(f.funcs))
	for open := range f.funcs {
		opens = append(opens, open)
	}
	sort.Ints(opens)
	return opens
}

// inFunction reports whether token i lies inside a function body.
func (f *cfile) inFunction(i int) bool {
	return f.enclosingFunc(i) != nil
}

// enclosingFunc returns the function whose body holds token i.
func (f *cfile) enclosingFunc(i int) *cfunc {
	for p := f.parent[i]; p >= 0; p = f.parent[p] {
		if fn := f.funcs[p]; fn != nil {
			return fn
		}
	}
	return nil
}

// cSpecifiers are words of a declaration's head that are not its type.
var cSpecifiers = map[string]bool{
	"static": true, "inline": true, "extern": true, "constexpr": true, "consteval": true, "virtual": true,
	"explicit": true, "friend": true, "__inline": true, "__inline__": true, "__forceinline": true,
	"WINAPI": true, "__stdcall": true, "__cdecl": true, "CALLBACK": true, "APIENTRY": true, "_Noreturn": true,
}

// classKeys open the declaration of a type or a namespace.
var classKeys = map[string]bool{"class": true, "struct": true, "union": true, "enum": true, "namespace": true, "typedef": true}

// accessLabels are the C++ access specifiers that label class members.
var accessLabels = map[string]bool{"public": true, "private": true, "protected": true}

// functionHead reads the head of the declaration whose '{' is token open
// and returns the function it defines, or nil when it defines none (a
// namespace, a class, an initializer).
func (f *cfile) functionHead(open int) *cfunc {
	toks := f.lx.tokens
	lo := open
	for lo > 0 {
		switch toks[lo-1].text {
		case ";", "{", "}":
			goto found
		}
		lo--
	}
found:
	var head []string
	for _, t := range toks[lo:open] {
		head = append(head, t.text)
	}
	head = dropSkipped(head)
	// A member defined in a class body follows its access label
	// ("public: explicit Logger(…) : fp_(fp) {"): the label is not part of
	// the declaration.
	for len(head) >= 2 && accessLabels[head[0]] && head[1] == ":" {
		head = head[2:]
	}
	if len(head) == 0 {
		return nil
	}
	switch head[0] {
	case "namespace", "extern", "typedef", "if", "for", "while", "switch", "do", "else", "return":
		if !(head[0] == "extern" && len(head) > 1 && !strings.HasPrefix(head[1], `"`)) {
			return nil
		}
	}
	if head[0] == "template" {
		head = skipAngles(head[1:])
	}
	// The parameter list is the first parenthesised group at depth 0 that
	// follows a name.
	for i := 1; i < len(head); i++ {
		if head[i] != "(" || !isCIdent(head[i-1]) {
			if head[i] == "=" {
				return nil
			}
			continue
		}
		end := closingParen(head, i)
		if end < 0 {
			return nil
		}
		// A macro call standing alone before a class, as in googletest's
		// "GTEST_DISABLE_MSC_DEPRECATED_PUSH_() class CapturedStream {",
		// is no function head: what follows a parameter list is never
		// a class key.
		if end+1 < len(head) && classKeys[head[end+1]] {
			return nil
		}
		fn := &cfunc{name: head[i-1], open: open, close: -1}
		nameAt := i - 1
		// A destructor's "~" comes before its class's qualifiers are
		// taken off ("Base::~Base()" has no result type, not "Base ::").
		if nameAt > 0 && head[nameAt-1] == "~" {
			nameAt--
		}
		for nameAt >= 2 && head[nameAt-1] == "::" && isCIdent(head[nameAt-2]) {
			nameAt -= 2
		}
		for _, t := range head[:nameAt] {
			if !cSpecifiers[t] {
				fn.result = append(fn.result, t)
			}
		}
		fn.result = dropSpecifierMacros(fn.result)
		rest := head[end+1:]
		for k, t := range rest {
			if t == "->" {
				fn.result = trimQualifiers(rest[k+1:])
				break
			}
		}
		fn.params = paramNames(head[i+1 : end])
		return fn
	}
	return nil
}

// dropSkipped removes attributes and calling-convention groups whose
// parentheses would otherwise be taken for a parameter list.
func dropSkipped(head []string) []string {
	var out []string
	for i := 0; i < len(head); i++ {
		switch head[i] {
		case "__attribute__", "__declspec", "alignas", "__attribute":
			if i+1 < len(head) && head[i+1] == "(" {
				if end := closingParen(head, i+1); end > 0 {
					i = end
					continue
				}
			}
		case "[":
			if i+1 < len(head) && head[i+1] == "[" {
				for i < len(head) && !(head[i] == "]" && i > 0 && head[i-1] == "]") {
					i++
				}
				continue
			}
		}
		out = append(out, head[i])
	}
	return out
}

func skipAngles(head []string) []string {
	depth := 0
	for i, t := range head {
		switch t {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return head[i+1:]
			}
		}
	}
	return nil
}

func closingParen(toks []string, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func trimQualifiers(toks []string) []string {
	for len(toks) > 0 {
		switch toks[len(toks)-1] {
		case "const", "volatile", "override", "final", "noexcept":
			toks = toks[:len(toks)-1]
			continue
		}
		break
	}
	return toks
}

func isCIdent(s string) bool {
	return s != "" && isIdentByte(s[0]) && !cKeywords[s]
}

// cKeywords are words that never name a function or a parameter.
var cKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "void": true,
	"int": true, "char": true, "short": true, "long": true, "unsigned": true, "signed": true, "float": true,
	"double": true, "bool": true, "_Bool": true, "const": true, "volatile": true, "struct": true, "enum": true,
	"union": true, "wchar_t": true, "auto": true, "decltype": true, "noexcept": true, "alignof": true,
	"static_assert": true, "catch": true, "typename": true,
}

// paramNames returns the names of the parameters in a parameter list;
// unnamed parameters, "void" and "..." give none.
func paramNames(list []string) []string {
	var names []string
	depth := 0
	var param []string
	flush := func() {
		name := ""
		for k, t := range param {
			if t == "=" {
				break
			}
			// A function pointer names itself inside the first
			// parentheses: int (*cb)(int).
			if t == "(" && k+2 < len(param) && param[k+1] == "*" && isCIdent(param[k+2]) {
				name = param[k+2]
				break
			}
			if isCIdent(t) && k > 0 {
				name = t
			}
		}
		if name != "" {
			names = append(names, name)
		}
		param = nil
	}
	for _, t := range list {
		switch t {
		case "(", "[", "<":
			depth++
		case ")", "]", ">":
			depth--
		case ",":
			if depth == 0 {
				flush()
				continue
			}
		}
		param = append(param, t)
	}
	flush()
	return names
}

// maskCFamily masks the regions of one C or C++ file.
func maskCFamily(path string, src []byte, cpp bool, regions []schemas.VerifiedRegion, coarse bool) (Output, error) {
	f := parseC(src, cpp)
	m := &cMasker{f: f, coarse: coarse, done: map[int]bool{}, guards: map[int]*bodyGuard{}}
	for _, r := range regions {
		m.maskRegion(r.Region)
	}
	m.guardEdits()
	out, err := applyEdits(src, dropNestedEdits(m.edits))
	if err != nil {
		return Output{}, fmt.Errorf("mask %s: %w", path, err)
	}
	return Output{Source: out, Actions: m.actions}, nil
}

// cMasker collects the edits of one C or C++ file.
type cMasker struct {
	f       *cfile
	coarse  bool
	edits   []edit
	actions []Action
	done    map[int]bool       // branches and function bodies already replaced, by first token
	guards  map[int]*bodyGuard // coarse placeholder bodies of shared functions, by the body's '{'
}

// innermostBranch returns the index of the innermost branch whose content
// holds line, or -1.
func (m *cMasker) innermostBranch(line int) int {
	best := -1
	for i, b := range m.f.branches {
		if b.first <= line && line <= b.last && (best < 0 || b.depth > m.f.branches[best].depth) {
			best = i
		}
	}
	return best
}

func (m *cMasker) maskRegion(r schemas.Region) {
	before := len(m.actions)
	for line := r.Start; line <= r.End; {
		bi := m.innermostBranch(line)
		if bi < 0 {
			line++
			continue
		}
		end := line
		for end < r.End && m.innermostBranch(end+1) == bi {
			end++
		}
		m.maskSegment(r, bi, line, end)
		line = end + 1
	}
	if len(m.actions) == before {
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked,
			Detail: "no statement or function body of a preprocessor-guarded block lies inside the region"})
	}
}

// segmentTokens returns the token indices of branch bi on lines [a, z]
// that belong to the branch itself (not to a nested group).
func (m *cMasker) segmentTokens(bi, a, z int) []int {
	var idx []int
	b := m.f.branches[bi]
	for i := b.tokLo; i < b.tokHi; i++ {
		if l := m.f.lx.tokens[i].line; l >= a && l <= z && m.innermostBranch(l) == bi {
			idx = append(idx, i)
		}
	}
	return idx
}

func (m *cMasker) maskSegment(r schemas.Region, bi, a, z int) {
	seg := m.segmentTokens(bi, a, z)
	if len(seg) == 0 {
		return
	}
	b := m.f.branches[bi]
	if fn := m.f.enclosingFunc(seg[0]); fn != nil && (fn.open < b.tokLo || fn.open >= b.tokHi) {
		m.maskStatements(r, bi, seg, fn)
		return
	}
	// Outside functions: the functions defined in the branch keep their
	// signatures and get placeholder bodies.
	for _, open := range m.f.sortedFuncs() {
		fn := m.f.funcs[open]
		if fn.close < 0 || m.done[open] || m.innermostBranch(m.f.lx.tokens[open].line) != bi {
			continue
		}
		first, last := m.f.lx.tokens[open].line, m.f.lx.tokens[fn.close].line
		if first > z || last < a || open < b.tokLo || open >= b.tokHi {
			continue
		}
		if why := m.refusal(fn, open+1, fn.close); why != "" {
			m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: why})
			continue
		}
		ph, ok := m.placeholder(fn)
		if !ok {
			m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: fmt.Sprintf(
				"function %s returns %s, which has no quiet zero value", fn.name, strings.Join(fn.result, " "))})
			continue
		}
		m.done[open] = true
		m.edits = append(m.edits, m.bodyEdit(open, fn.close, ph))
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindFunctionBody,
			Detail: fmt.Sprintf("function %s: body replaced by %s", fn.name, describe(ph))})
	}
}

// maskStatements masks a segment inside a function body.
func (m *cMasker) maskStatements(r schemas.Region, bi int, seg []int, fn *cfunc) {
	b := m.f.branches[bi]
	toks := m.f.lx.tokens
	if m.done[b.tokLo] {
		return
	}
	// The branch ends the function when what follows its group is the
	// body's closing brace.
	tail := m.f.parent[seg[0]] == fn.open && b.after == fn.close && seg[len(seg)-1] == b.tokHi-1
	lo, hi := seg[0], seg[len(seg)-1]+1
	if tail || m.coarse {
		lo, hi = b.tokLo, b.tokHi
	}
	if why := m.refusal(fn, lo, hi); why != "" {
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: why})
		return
	}
	note := ""
	if m.coarse && !tail {
		why := m.guardBody(r, bi, fn)
		if why == "" {
			return
		}
		note = "coarse declined (" + why + "); "
	}
	if tail || m.coarse {
		var ph []string
		if tail {
			var ok bool
			if ph, ok = m.placeholder(fn); !ok {
				m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: fmt.Sprintf(
					"function %s returns %s, which has no quiet zero value", fn.name, strings.Join(fn.result, " "))})
				return
			}
		}
		m.done[b.tokLo] = true
		indent := m.f.lines.Indent(toks[b.tokLo].line)
		var text strings.Builder
		for _, s := range ph {
			text.WriteString(indented(indent, s) + "\n")
		}
		m.edits = append(m.edits, edit{Start: m.f.lines.Start(b.first), End: m.f.lines.End(b.last), Text: text.String()})
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindPreprocessorBlock,
			Detail: fmt.Sprintf("%sfunction %s: branch on lines %d-%d replaced by %s", note, fn.name, b.first, b.last, describe(ph))})
		return
	}
	seg = m.closeBlocks(b, seg)
	if why := m.notStatements(b, seg); why != "" {
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: fmt.Sprintf("function %s: %s", fn.name, why)})
		return
	}
	first, last := toks[seg[0]].line, toks[seg[len(seg)-1]].line
	m.edits = append(m.edits, edit{Start: m.f.lines.Start(first), End: m.f.lines.End(last), Text: ""})
	m.actions = append(m.actions, Action{Region: r, Kind: lang.KindStatements,
		Detail: fmt.Sprintf("function %s: statements on lines %d-%d removed", fn.name, first, last)})
}

// closeBlocks extends a segment that ends inside blocks over the lines
// holding only their closing braces: coverage tools count no line for a
// lone "}", so a region that covers a block's statements stops short of it.
func (m *cMasker) closeBlocks(b cbranch, seg []int) []int {
	toks := m.f.lx.tokens
	depth := 0
	for _, i := range seg {
		switch toks[i].text {
		case "{":
			depth++
		case "}":
			depth--
		}
	}
	for next := seg[len(seg)-1] + 1; depth > 0 && next < b.tokHi && toks[next].text == "}"; next++ {
		seg = append(seg, next)
		depth--
	}
	return seg
}

// notStatements says why the tokens of seg are not a run of whole
// statements that can be removed, or "" when they are.
func (m *cMasker) notStatements(b cbranch, seg []int) string {
	toks := m.f.lx.tokens
	for k := 1; k < len(seg); k++ {
		if seg[k] != seg[k-1]+1 {
			return "the region is interrupted by a nested conditional"
		}
	}
	if lo := seg[0]; lo > b.tokLo {
		switch toks[lo-1].text {
		case ";", "{", "}", ":":
		default:
			return "the region starts inside a statement"
		}
	}
	if t := toks[seg[len(seg)-1]].text; t != ";" && t != "}" {
		return "the region ends inside a statement"
	}
	if hi := seg[len(seg)-1] + 1; hi < len(toks) {
		switch toks[hi].text {
		case "else", ";", ")", ",", "while":
			return "the region ends inside a statement"
		}
	}
	depth := 0
	for _, i := range seg {
		switch toks[i].text {
		case "{", "(", "[":
			depth++
		case "}", ")", "]":
			depth--
		}
		if depth < 0 {
			return "the region leaves the block it starts in"
		}
	}
	if depth != 0 {
		return "the region ends inside a block"
	}
	return ""
}

// bodyEdit replaces what lies between the braces open and close.
func (m *cMasker) bodyEdit(open, close int, ph []string) edit {
	toks, lines := m.f.lx.tokens, m.f.lines
	start, end := toks[open].end, toks[close].start
	if toks[open].line == toks[close].line {
		return edit{Start: start, End: end, Text: " " + strings.Join(unconditional(ph), " ") + " "}
	}
	outer := lines.Indent(toks[close].line)
	inner := outer + "    "
	if open+1 < close && toks[open+1].line > toks[open].line {
		inner = lines.Indent(toks[open+1].line)
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, s := range ph {
		b.WriteString(indented(inner, s) + "\n")
	}
	b.WriteString(outer)
	return edit{Start: start, End: end, Text: b.String()}
}

// mentions reports whether the file uses the identifier word.
func (m *cMasker) mentions(word string) bool {
	for _, t := range m.f.lx.tokens {
		if t.text == word {
			return true
		}
	}
	return false
}
