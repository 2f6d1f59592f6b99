package rust

import "strings"

// The structure of a Rust file the rules masker needs: matched brackets,
// the owner of every brace-delimited block (a function, a container item,
// a bare statement block, an expression), outer attributes and the cfg
// predicates they carry. It is not a parser: it reads item and statement
// heads backwards from the brace that opens their body, which is enough
// to find the code one platform compiles and the other does not.

// rfile is a lexed Rust file with its structure.
type rfile struct {
	src     []byte
	toks    []rtoken
	lines   lineIndex
	match   []int // per token: the matching bracket's index, or -1
	parent  []int // per token: the innermost enclosing '{', or -1
	fileCfg string
	blocks  map[int]*rblock // by the index of '{'
	order   []int           // the keys of blocks, in file order
}

// rblockKind says what owns a brace-delimited block.
type rblockKind uint8

const (
	rbExpr      rblockKind = iota // if, else, match, loop, closure, struct literal...
	rbBare                        // a statement block: only attributes (and unsafe/const) before it
	rbFn                          // a function body
	rbContainer                   // impl, trait, mod, extern block
	rbData                        // struct, enum, union
)

// rblock is one '{' … '}' pair and its owner.
type rblock struct {
	open, close int
	kind        rblockKind
	headLo      int     // the first token of its head, attributes included
	attrs       []rattr // the owner's outer attributes
	fn          *rfn    // for rbFn
}

// rattr is an outer attribute #[…].
type rattr struct {
	lo, hi int    // the '#' and the ']'
	name   string // cfg, test, derive, tokio::test...
	cfg    string // the predicate of #[cfg(…)], "" otherwise
}

// rfn is the head of a function.
type rfn struct {
	name     string
	params   []string // simple parameter names (self excluded)
	ret      []string // the tokens of the return type; nil for ()
	constFn  bool
	retStart int // token index of the return type, or -1
}

func parseRust(src []byte) *rfile {
	f := &rfile{src: src, toks: lexRust(src), lines: newLineIndex(src), blocks: map[int]*rblock{}}
	f.matchBrackets()
	f.fileCfg = f.innerCfg()
	for i, t := range f.toks {
		if t.text == "{" && f.match[i] > i {
			b := f.classify(i)
			f.blocks[i] = b
			f.order = append(f.order, i)
		}
	}
	return f
}

// matchBrackets pairs (), [] and {}. A stray closer (an unbalanced file)
// closes nothing; openers left at the end stay unmatched.
func (f *rfile) matchBrackets() {
	n := len(f.toks)
	f.match, f.parent = make([]int, n), make([]int, n)
	var stack, braces []int
	for i, t := range f.toks {
		f.match[i] = -1
		f.parent[i] = -1
		if len(braces) > 0 {
			f.parent[i] = braces[len(braces)-1]
		}
		if t.kind != rkPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
			if t.text == "{" {
				braces = append(braces, i)
			}
		case ")", "]", "}":
			want := map[string]string{")": "(", "]": "[", "}": "{"}[t.text]
			if len(stack) == 0 || f.toks[stack[len(stack)-1]].text != want {
				continue
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.match[open], f.match[i] = i, open
			if t.text == "}" {
				braces = braces[:len(braces)-1]
			}
		}
	}
}

// innerCfg returns the predicate of a #![cfg(…)] at the top of the file:
// the whole file then belongs to one platform.
func (f *rfile) innerCfg() string {
	for i := 0; i+2 < len(f.toks) && f.toks[i].text == "#" && f.toks[i+1].text == "!" && f.toks[i+2].text == "["; {
		end := f.match[i+2]
		if end < 0 {
			return ""
		}
		if a := f.attr(i, i+2, end); a.cfg != "" {
			return a.cfg
		}
		i = end + 1
	}
	return ""
}

func (f *rfile) text(i int) string {
	if i < 0 || i >= len(f.toks) {
		return ""
	}
	return f.toks[i].text
}

// attr reads the attribute whose '#' is at hash and brackets at lo, hi.
func (f *rfile) attr(hash, lo, hi int) rattr {
	a := rattr{lo: hash, hi: hi}
	j := lo + 1
	for j < hi && (f.toks[j].kind == rkIdent || f.toks[j].text == "::") {
		a.name += f.toks[j].text
		j++
	}
	if a.name == "cfg" && f.text(j) == "(" && f.match[j] > j && f.match[j] < hi {
		a.cfg = f.spell(j+1, f.match[j])
		if a.cfg == "" {
			a.cfg = "()"
		}
	}
	return a
}

// spell writes tokens lo..hi-1 back as one normalised line.
func (f *rfile) spell(lo, hi int) string {
	var b strings.Builder
	for k := lo; k < hi; k++ {
		t := f.toks[k]
		switch {
		case t.text == ",":
			b.WriteString(", ")
			continue
		case t.text == "=":
			b.WriteString(" = ")
			continue
		case k > lo && t.kind != rkPunct && f.toks[k-1].kind != rkPunct:
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return strings.TrimSpace(b.String())
}

// headStart returns the first token of the item or statement whose body
// opens at token open: the token after the previous ';', '{' or '}' of
// the same level, skipping over bracketed groups.
func (f *rfile) headStart(open int) int {
	j := open - 1
	for j >= 0 {
		switch t := f.toks[j].text; {
		case t == ";" || t == "{" || t == "}":
			return j + 1
		case (t == "]" || t == ")") && f.match[j] >= 0:
			j = f.match[j] - 1
		default:
			j--
		}
	}
	return 0
}

// attrsAt reads the outer attributes starting at token i and returns them
// with the index of the first token after them.
func (f *rfile) attrsAt(i int) ([]rattr, int) {
	var attrs []rattr
	for f.text(i) == "#" && f.text(i+1) == "[" && f.match[i+1] > i {
		end := f.match[i+1]
		attrs = append(attrs, f.attr(i, i+1, end))
		i = end + 1
	}
	return attrs, i
}

// skipQualifiers skips what may precede an item keyword: visibility,
// const, async, unsafe, extern "abi", default.
func (f *rfile) skipQualifiers(i int) int {
	for {
		switch f.text(i) {
		case "pub":
			i++
			if f.text(i) == "(" && f.match[i] > i {
				i = f.match[i] + 1
			}
		case "async", "unsafe", "default", "const":
			if f.text(i) == "const" && f.text(i+1) != "fn" && f.text(i+1) != "unsafe" && f.text(i+1) != "async" && f.text(i+1) != "extern" {
				return i
			}
			i++
		case "extern":
			i++
			if i < len(f.toks) && f.toks[i].kind == rkLiteral {
				i++
			}
			if f.text(i) == "{" || f.text(i) == "crate" {
				return i - 1 // an extern block or extern crate: the keyword itself
			}
		default:
			return i
		}
	}
}

// classify finds the owner of the block opening at token open.
func (f *rfile) classify(open int) *rblock {
	b := &rblock{open: open, close: f.match[open], headLo: f.headStart(open)}
	attrs, i := f.attrsAt(b.headLo)
	b.attrs = attrs
	q := f.skipQualifiers(i)
	switch f.text(q) {
	case "fn":
		if q+1 < open && f.toks[q+1].kind == rkIdent {
			b.kind, b.fn = rbFn, f.fnHead(i, q, open)
			return b
		}
	case "impl", "trait", "mod", "extern":
		b.kind = rbContainer
		return b
	case "struct", "enum", "union":
		b.kind = rbData
		return b
	}
	if q == open || (q+1 == open && (f.text(q) == "unsafe" || f.text(q) == "const")) {
		b.kind = rbBare
		return b
	}
	b.kind = rbExpr
	return b
}

// fnHead reads the head of the function whose qualifiers start at lo, its
// keyword at kw and its body at open.
func (f *rfile) fnHead(lo, kw, open int) *rfn {
	fn := &rfn{name: f.toks[kw+1].text, retStart: -1}
	for k := lo; k < kw; k++ {
		if f.toks[k].text == "const" {
			fn.constFn = true
		}
	}
	// The parameters are the first '(' after the generics.
	angle, p := 0, -1
	for k := kw + 2; k < open && p < 0; k++ {
		switch f.toks[k].text {
		case "<":
			angle++
		case ">":
			angle--
		case "(":
			if angle == 0 {
				p = k
			} else if f.match[k] > k {
				k = f.match[k]
			}
		}
	}
	if p < 0 || f.match[p] < 0 || f.match[p] >= open {
		return fn
	}
	fn.params = f.paramNames(p+1, f.match[p])
	k := f.match[p] + 1
	if f.text(k) == "->" {
		fn.retStart = k + 1
		angle := 0
		for k++; k < open; k++ {
			t := f.toks[k].text
			if t == "where" && angle == 0 {
				break
			}
			switch t {
			case "<":
				angle++
			case ">":
				angle--
			}
			fn.ret = append(fn.ret, t)
		}
	}
	return fn
}

// paramNames returns the names of the simple parameters (name: Type or mut
// name: Type) in tokens lo..hi-1; patterns and self give none.
func (f *rfile) paramNames(lo, hi int) []string {
	var names []string
	start := lo
	flush := func(end int) {
		k := start
		for f.text(k) == "#" && f.text(k+1) == "[" && f.match[k+1] > k { // #[cfg] on a parameter
			k = f.match[k+1] + 1
		}
		if f.text(k) == "mut" {
			k++
		}
		if k+1 < end && f.toks[k].kind == rkIdent && f.toks[k+1].text == ":" && f.toks[k].text != "self" && f.toks[k].text != "_" {
			names = append(names, f.toks[k].text)
		}
	}
	for k := lo; k < hi; k++ {
		switch t := f.toks[k].text; {
		case (t == "(" || t == "[" || t == "{") && f.match[k] > k:
			k = f.match[k]
		case t == "<":
			for depth := 0; k < hi; k++ { // generic arguments hold commas
				if f.toks[k].text == "<" {
					depth++
				} else if f.toks[k].text == ">" {
					if depth--; depth == 0 {
						break
					}
				}
			}
		case t == ",":
			flush(k)
			start = k + 1
		}
	}
	flush(hi)
	return names
}

// enclosing returns the blocks holding token i, innermost first.
func (f *rfile) enclosing(i int) []*rblock {
	var out []*rblock
	for p := f.parent[i]; p >= 0; p = f.parent[p] {
		if b := f.blocks[p]; b != nil {
			out = append(out, b)
		}
	}
	return out
}

// enclosingFn returns the innermost function body holding token i.
func (f *rfile) enclosingFn(i int) *rblock {
	for _, b := range f.enclosing(i) {
		if b.kind == rbFn {
			return b
		}
	}
	return nil
}

// platformCfg returns the first cfg predicate of attrs that is not about
// tests: the predicate that makes an item one platform's.
func platformCfg(attrs []rattr) string {
	for _, a := range attrs {
		if a.cfg != "" && !isTestCfg(a.cfg) {
			return a.cfg
		}
	}
	return ""
}

// isTestAttr reports whether attrs mark test code: #[test], #[bench],
// #[tokio::test] and the like, or a cfg that requires the test build.
func isTestAttr(attrs []rattr) bool {
	for _, a := range attrs {
		if a.name == "test" || a.name == "bench" || strings.HasSuffix(a.name, "::test") || isTestCfg(a.cfg) {
			return true
		}
	}
	return false
}

// isTestCfg reports whether a cfg predicate holds only in test builds:
// it names test, and not under a not(…).
func isTestCfg(pred string) bool {
	return containsWord(pred, "test") && !strings.Contains(pred, "not(")
}

func containsWord(s, word string) bool {
	for i := strings.Index(s, word); i >= 0; {
		end := i + len(word)
		before := i == 0 || !isRustWordByte(s[i-1])
		after := end == len(s) || !isRustWordByte(s[end])
		if before && after {
			return true
		}
		next := strings.Index(s[i+1:], word)
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

func isRustWordByte(c byte) bool { return isASCIIAlnum(c) || c == '_' }

// targetCfg returns the cfg predicate that confines token i to one
// platform: that of the innermost enclosing block (or item) carrying one,
// or the file's #![cfg]. own are the attributes of the item at i itself.
func (f *rfile) targetCfg(i int, own []rattr) string {
	if p := platformCfg(own); p != "" {
		return p
	}
	for _, b := range f.enclosing(i) {
		if p := platformCfg(b.attrs); p != "" {
			return p
		}
	}
	return f.fileCfg
}

// inTest reports whether token i is test code, or own marks it so.
func (f *rfile) inTest(i int, own []rattr) bool {
	if isTestAttr(own) {
		return true
	}
	for _, b := range f.enclosing(i) {
		if isTestAttr(b.attrs) {
			return true
		}
	}
	return isTestCfg(f.fileCfg)
}

// platformClass maps a cfg predicate to the platform family it selects:
// "windows", "unix", or "" when it says nothing about one.
func platformClass(pred string) string {
	p := strings.ReplaceAll(pred, " ", "")
	switch p {
	case "windows", `target_os="windows"`, `target_family="windows"`, "not(unix)":
		return "windows"
	case "unix", `target_family="unix"`, "not(windows)", `not(target_os="windows")`:
		return "unix"
	}
	if os, ok := strings.CutPrefix(p, `target_os="`); ok {
		return "unix:" + strings.TrimSuffix(os, `"`)
	}
	return ""
}

// exclusive reports whether no target satisfies both predicates.
func exclusive(p, q string) bool {
	pn, qn := strings.ReplaceAll(p, " ", ""), strings.ReplaceAll(q, " ", "")
	if pn == "not("+qn+")" || qn == "not("+pn+")" {
		return true
	}
	pc, qc := platformClass(p), platformClass(q)
	if pc == "" || qc == "" || pc == qc {
		return false
	}
	pf, _, pos := strings.Cut(pc, ":")
	qf, _, qos := strings.Cut(qc, ":")
	// unix and unix:linux overlap; unix:linux and unix:macos do not.
	return pf != qf || (pos && qos)
}

// lastLine returns the line of the last byte of token i.
func (f *rfile) lastLine(i int) int {
	t := f.toks[i]
	return f.lines.LineOf(max(t.start, t.end-1))
}
