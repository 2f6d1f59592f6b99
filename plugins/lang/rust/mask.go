package rust

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Rust masking. Code one platform compiles and the other does not is
// marked in Rust by cfg: #[cfg(windows)] on an item or a statement block,
// cfg!(windows) in an if condition (compiled everywhere, run on one
// platform). A unit is the content of one such construct; a region masks
// the units whose content lines it covers. What replaces a unit keeps its
// surroundings compiling: Default::default() (or Ok(…) of it) where a
// value is expected, nothing where none is, the zero literal of a
// primitive const. Signatures, use declarations and type declarations are
// kept, since other code names them.

// runitKind says what construct a unit is the content of.
type runitKind uint8

const (
	ruBlock  runitKind = iota // #[cfg(P)] { … } in a function body
	ruBranch                  // the body of an if cfg!(P) branch (or of its else)
	ruFnBody                  // the body of a function only one platform compiles
	ruConst                   // the initializer of such a const or static
	ruKept                    // such a use, type alias, struct or enum: left alone
)

// runit is one maskable (or deliberately kept) construct.
type runit struct {
	kind        runitKind
	open, close int    // the tokens around the content: braces, or '=' and ';'
	pred        string // the cfg predicate under which the content runs
	block       *rblock
	label       string // for people: "function drive", "#[cfg(windows)] block"
	typ         []string
	// The if chain of a branch: its first and last tokens, and whether it
	// ends in a plain else.
	chainHead, chainEnd int
	hasElse             bool
}

// rustMasker collects the edits of one Rust file.
type rustMasker struct {
	f       *rfile
	rt      rustTypes
	units   []*runit
	tests   [][2]int // line spans of test code
	coarse  bool
	edits   map[*runit]edit
	guards  map[int]*rustGuard
	actions []Action
}

// rustGuard is the coarse placeholder of a function both platforms
// compile: #[cfg(P)] { placeholder } #[cfg(not(P))] { original body }.
type rustGuard struct {
	fn    *rblock
	ph    []string
	preds []string
}

// maskRust masks the regions of one Rust file.
func maskRust(path string, src []byte, regions []schemas.VerifiedRegion, coarse bool) (Output, error) {
	f := parseRust(src)
	m := &rustMasker{f: f, rt: f.types(), coarse: coarse, edits: map[*runit]edit{}, guards: map[int]*rustGuard{}}
	m.findUnits()
	for _, r := range regions {
		if span, ok := m.testSpan(r.Region); ok {
			// Differential coverage works on lines and cannot see a
			// #[cfg(test)] module: a test that only one platform runs makes
			// a region there. Test code is never masked; the region is
			// reported and left alone (a test file is refused outright).
			m.actions = append(m.actions, Action{Region: r.Region, Kind: lang.KindUnmasked,
				Detail: fmt.Sprintf("in test code (lines %d-%d), which is never masked", span[0], span[1])})
			continue
		}
		m.maskRegion(r.Region)
	}
	edits := make([]edit, 0, len(m.edits)+2*len(m.guards))
	for _, e := range m.edits {
		edits = append(edits, e)
	}
	edits = append(edits, m.guardEdits()...)
	out, err := applyEdits(src, edits)
	if err != nil {
		return Output{}, fmt.Errorf("mask %s: %w", path, err)
	}
	return Output{Source: out, Actions: m.actions}, nil
}

// findUnits lists the constructs of the file that one platform only
// compiles or runs, and the test code.
func (m *rustMasker) findUnits() {
	f := m.f
	if isTestCfg(f.fileCfg) {
		m.tests = append(m.tests, [2]int{1, countLines(f.src)})
	}
	for _, open := range f.order {
		b := f.blocks[open]
		if isTestAttr(b.attrs) {
			m.tests = append(m.tests, [2]int{f.toks[b.headLo].line, f.toks[b.close].line})
			continue
		}
		switch b.kind {
		case rbFn:
			if pred := f.targetCfg(open, b.attrs); pred != "" {
				m.units = append(m.units, &runit{kind: ruFnBody, open: open, close: b.close, pred: pred, block: b,
					label: "function " + b.fn.name})
			}
		case rbBare:
			if pred := platformCfg(b.attrs); pred != "" && f.enclosingFn(open) != nil {
				m.units = append(m.units, &runit{kind: ruBlock, open: open, close: b.close, pred: pred, block: b,
					label: "#[cfg(" + pred + ")] block"})
			}
		case rbData:
			if pred := f.targetCfg(open, b.attrs); pred != "" {
				m.units = append(m.units, &runit{kind: ruKept, open: b.headLo, close: b.close, pred: pred,
					label: "a type declaration"})
			}
		}
	}
	for k, t := range f.toks {
		switch {
		case t.kind != rkIdent:
		case t.text == "if" && f.text(k-1) != "else" && f.enclosingFn(k) != nil:
			m.findBranches(k)
		case t.text == "const" || t.text == "static" || t.text == "use" || t.text == "type":
			m.findItem(k)
		}
	}
}

// findBranches lists the cfg! branches of the if chain starting at token
// head.
func (m *rustMasker) findBranches(head int) {
	f := m.f
	var conds []string
	var branches []*runit
	for pos := head; ; {
		brace := pos + 1
		for brace < len(f.toks) && f.toks[brace].text != "{" && f.toks[brace].text != ";" && f.toks[brace].text != "}" {
			if (f.toks[brace].text == "(" || f.toks[brace].text == "[") && f.match[brace] > brace {
				brace = f.match[brace]
			}
			brace++
		}
		if brace >= len(f.toks) || f.toks[brace].text != "{" || f.match[brace] < 0 {
			return
		}
		pred := f.cfgMacro(pos+1, brace)
		conds = append(conds, pred)
		if pred != "" {
			branches = append(branches, &runit{kind: ruBranch, open: brace, close: f.match[brace], pred: pred,
				block: f.blocks[brace], label: "if cfg!(" + pred + ") branch"})
		}
		after := f.match[brace] + 1
		if f.text(after) != "else" {
			break
		}
		if f.text(after+1) == "if" {
			pos = after + 1
			continue
		}
		if f.text(after+1) == "{" && f.match[after+1] > after+1 {
			if pred := negateAll(conds); pred != "" {
				branches = append(branches, &runit{kind: ruBranch, open: after + 1, close: f.match[after+1], pred: pred,
					block: f.blocks[after+1], label: "else branch of a cfg! test"})
			}
			for _, b := range branches {
				b.hasElse = true
			}
		}
		break
	}
	end := head
	for _, b := range branches {
		end = max(end, b.close)
	}
	// The chain ends with its last block, which may have no cfg! test.
	for k := head; k < len(f.toks); {
		if f.toks[k].text == "{" && f.match[k] > k {
			end = f.match[k]
			if f.text(end+1) != "else" {
				break
			}
			k = end + 1
			continue
		}
		if f.toks[k].text == ";" || f.toks[k].text == "}" {
			break
		}
		if (f.toks[k].text == "(" || f.toks[k].text == "[") && f.match[k] > k {
			k = f.match[k]
		}
		k++
	}
	for _, b := range branches {
		b.chainHead, b.chainEnd = head, end
		m.units = append(m.units, b)
	}
}

// cfgMacro returns the predicate of a condition that is exactly cfg!(P)
// ("P") or !cfg!(P) ("not(P)"), or "".
func (f *rfile) cfgMacro(lo, hi int) string {
	neg := f.text(lo) == "!"
	if neg {
		lo++
	}
	if f.text(lo) != "cfg" || f.text(lo+1) != "!" || f.text(lo+2) != "(" || f.match[lo+2] != hi-1 {
		return ""
	}
	pred := f.spell(lo+3, hi-1)
	if pred == "" || isTestCfg(pred) {
		return ""
	}
	if neg {
		return "not(" + pred + ")"
	}
	return pred
}

// negateAll is the predicate of an else after the tests conds: all of
// them false. "" when one of them is no cfg! test.
func negateAll(conds []string) string {
	var neg []string
	for _, c := range conds {
		if c == "" {
			return ""
		}
		if inner, ok := strings.CutPrefix(c, "not("); ok && strings.HasSuffix(inner, ")") {
			neg = append(neg, strings.TrimSuffix(inner, ")"))
		} else {
			neg = append(neg, "not("+c+")")
		}
	}
	if len(neg) == 1 {
		return neg[0]
	}
	return "all(" + strings.Join(neg, ", ") + ")"
}

// findItem records the const, static, use or type item whose keyword is
// at token k, when only one platform compiles it.
func (m *rustMasker) findItem(k int) {
	f := m.f
	j := k - 1
	if f.text(j) == ")" && f.match[j] > 0 && f.text(f.match[j]-1) == "pub" {
		j = f.match[j] - 2
	} else if f.text(j) == "pub" {
		j--
	}
	var attrs []rattr
	for f.text(j) == "]" && f.match[j] > 0 && f.text(f.match[j]-1) == "#" {
		lo := f.match[j]
		attrs = append([]rattr{f.attr(lo-1, lo, j)}, attrs...)
		j = lo - 2
	}
	if j >= 0 && f.text(j) != ";" && f.text(j) != "{" && f.text(j) != "}" {
		return // not at the start of an item: const fn, impl const, a type in a type
	}
	kw := f.toks[k].text
	next := k + 1
	if kw == "static" && f.text(next) == "mut" {
		next++
	}
	if (kw == "const" || kw == "static") && !(next+1 < len(f.toks) && f.toks[next].kind == rkIdent && f.toks[next+1].text == ":") {
		return
	}
	end := k
	for end < len(f.toks) && f.toks[end].text != ";" {
		if t := f.toks[end].text; (t == "(" || t == "[" || t == "{") && f.match[end] > end {
			end = f.match[end]
		}
		end++
	}
	if end >= len(f.toks) {
		return
	}
	first := k
	if len(attrs) > 0 {
		first = attrs[0].lo
	}
	if f.inTest(k, attrs) {
		m.tests = append(m.tests, [2]int{f.toks[first].line, f.toks[end].line})
		return
	}
	pred := f.targetCfg(k, attrs)
	if pred == "" {
		return
	}
	if kw == "use" || kw == "type" {
		m.units = append(m.units, &runit{kind: ruKept, open: k, close: end, pred: pred,
			label: map[string]string{"use": "a use declaration", "type": "a type alias"}[kw]})
		return
	}
	eq := next + 2
	for eq < end && f.toks[eq].text != "=" {
		eq++
	}
	if eq >= end {
		return // an extern static without initializer
	}
	u := &runit{kind: ruConst, open: eq, close: end, pred: pred, label: kw + " " + f.toks[next].text}
	for t := next + 2; t < eq; t++ {
		u.typ = append(u.typ, f.toks[t].text)
	}
	m.units = append(m.units, u)
}

// testSpan returns the span of test code that r overlaps.
func (m *rustMasker) testSpan(r schemas.Region) ([2]int, bool) {
	for _, s := range m.tests {
		if r.Start <= s[1] && s[0] <= r.End {
			return s, true
		}
	}
	return [2]int{}, false
}

// contentLines returns the first and last lines of a unit's content; ok
// is false when it has none.
func (m *rustMasker) contentLines(u *runit) (int, int, bool) {
	if u.kind == ruKept {
		return m.f.toks[u.open].line, m.f.lastLine(u.close), true
	}
	if u.close <= u.open+1 {
		return 0, 0, false
	}
	return m.f.toks[u.open+1].line, m.f.lastLine(u.close - 1), true
}

// inside reports whether unit u lies within unit o.
func inside(u, o *runit) bool { return u != o && o.open <= u.open && u.close <= o.close }

// maskRegion masks the units r covers.
func (m *rustMasker) maskRegion(r schemas.Region) {
	if !r.SourceCompiled && m.maskTargetOnlyFns(r) {
		return
	}
	note := ""
	if m.coarse {
		var done bool
		if done, note = m.maskCoarse(r); done {
			return
		}
	}
	var covered []*runit
	for _, u := range m.units {
		if first, last, ok := m.contentLines(u); ok && u.kind != ruKept && r.Start <= first && last <= r.End {
			covered = append(covered, u)
		}
	}
	// A function only the target compiles loses its whole body when the
	// region touches it, as in Go: masking part of it would leave
	// statements that depend on the removed ones.
	for _, u := range m.units {
		if first, last, ok := m.contentLines(u); ok && u.kind == ruFnBody && r.Start <= last && first <= r.End && !(r.Start <= first && last <= r.End) {
			covered = append(covered, u)
		}
	}
	masked := 0
	for _, u := range covered {
		outer := false
		for _, o := range covered {
			outer = outer || inside(u, o)
		}
		if !outer {
			m.maskUnit(r, u, note)
			masked++
		}
	}
	if masked > 0 {
		return
	}
	m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: note + m.whyUnmasked(r)})
}

// maskTargetOnlyFns masks, for a region of a file the source platform
// does not compile (a module only the target declares: #[cfg(windows)] mod
// windows;), the whole body of every outermost function the region
// touches, as the Go rules do for a target-only function: no statement
// of it survives to depend on a removed one. It reports whether it masked
// any.
func (m *rustMasker) maskTargetOnlyFns(r schemas.Region) bool {
	f := m.f
	var fns []*rblock
	for _, open := range f.order {
		b := f.blocks[open]
		if b.kind != rbFn || b.close <= b.open+1 {
			continue
		}
		first, last := f.toks[b.open+1].line, f.lastLine(b.close-1)
		if r.End < first || last < r.Start {
			continue
		}
		if _, test := m.testSpan(schemas.Region{Start: f.toks[b.open].line, End: f.toks[b.close].line}); test {
			continue
		}
		if len(fns) > 0 && fns[len(fns)-1].open < b.open && b.close < fns[len(fns)-1].close {
			continue // inside the previous one: blocks are in file order
		}
		fns = append(fns, b)
	}
	masked := false
	for _, b := range fns {
		var unit *runit
		for _, u := range m.units {
			if u.kind == ruFnBody && u.block == b {
				unit = u
			}
		}
		if unit == nil {
			unit = &runit{kind: ruFnBody, open: b.open, close: b.close, block: b,
				label: "function " + b.fn.name + " (in a file the source does not compile)"}
			m.units = append(m.units, unit)
		}
		before := len(m.actions)
		m.maskUnit(r, unit, "")
		masked = masked || m.actions[before].Kind != lang.KindUnmasked
	}
	return masked
}

// whyUnmasked says why no unit of r could be masked.
func (m *rustMasker) whyUnmasked(r schemas.Region) string {
	var partial *runit
	for _, u := range m.units {
		first, last, ok := m.contentLines(u)
		if !ok || r.End < first || last < r.Start {
			continue
		}
		if u.kind == ruKept {
			return fmt.Sprintf("%s (lines %d-%d) is kept: other code may name it", u.label, first, last)
		}
		if partial == nil || inside(u, partial) {
			partial = u
		}
	}
	if partial != nil {
		first, last, _ := m.contentLines(partial)
		return fmt.Sprintf("the region covers part of the %s (lines %d-%d); the rules mask whole blocks", partial.label, first, last)
	}
	return "no cfg-guarded block, branch, function or constant lies in the region"
}

// maskUnit replaces the content of u by its placeholder.
func (m *rustMasker) maskUnit(r schemas.Region, u *runit, note string) {
	first, last, _ := m.contentLines(u)
	for o := range m.edits {
		if inside(u, o) {
			m.actions = append(m.actions, Action{Region: r, Kind: unitKind(o), Detail: fmt.Sprintf(
				"%s%s on lines %d-%d: masked already with the %s", note, u.label, first, last, o.label)})
			return
		}
	}
	ph, why := m.placeholder(u)
	if why != "" {
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindUnmasked, Detail: fmt.Sprintf("%s%s: %s", note, u.label, why)})
		return
	}
	m.setEdit(u, ph)
	m.actions = append(m.actions, Action{Region: r, Kind: unitKind(u), Detail: fmt.Sprintf(
		"%s%s: lines %d-%d replaced by %s", note, u.label, first, last, describeRust(ph))})
}

// setEdit records the edit of u, dropping those of units inside it.
func (m *rustMasker) setEdit(u *runit, ph []string) {
	for o := range m.edits {
		if inside(o, u) {
			delete(m.edits, o)
		}
	}
	m.edits[u] = m.contentEdit(u, ph)
}

func unitKind(u *runit) string {
	switch u.kind {
	case ruFnBody:
		return lang.KindFunctionBody
	case ruConst:
		return lang.KindConstant
	}
	return lang.KindPreprocessorBlock
}

func describeRust(ph []string) string {
	if len(ph) == 0 {
		return "nothing"
	}
	return strings.Join(ph, " ")
}

// placeholder returns the lines that replace u's content, or why there
// are none that compile.
func (m *rustMasker) placeholder(u *runit) ([]string, string) {
	f := m.f
	switch u.kind {
	case ruConst:
		if z := m.rt.literalZero(parseRustType(u.typ)); z != "" {
			return []string{z}, ""
		}
		return nil, fmt.Sprintf("its type %s has no zero literal", strings.Join(u.typ, " "))
	case ruFnBody:
		fn := u.block.fn
		ph := m.unusedParams(fn)
		if fn.ret == nil {
			return ph, ""
		}
		zero, why := m.zeroOf(fn)
		if why != "" {
			return nil, why
		}
		return append(ph, zero), ""
	case ruBlock:
		return m.valuePlaceholder(u.open, u.close, u.pred)
	case ruBranch:
		head := u.chainHead
		switch prev := f.text(head - 1); {
		case prev == "{" || prev == ";" || prev == "}" || prev == "]" && f.text(f.match[head-1]-1) == "#":
		default:
			return nil, "the if is part of an expression whose type the rules do not know"
		}
		if !u.hasElse {
			return nil, "" // an if without else is ()
		}
		return m.valuePlaceholder(head, u.chainEnd, u.pred)
	}
	return nil, "kept"
}

// valuePlaceholder is the placeholder of the statement first..last of a
// function body: nothing when it is a statement, the zero value of the
// function's result when it is the body's value.
func (m *rustMasker) valuePlaceholder(first, last int, pred string) ([]string, string) {
	if !m.effectiveTail(first, last, pred) {
		return nil, ""
	}
	fnb := m.f.enclosingFn(first)
	if fnb == nil || m.f.parent[first] != fnb.open {
		return nil, "the block is the value of an enclosing expression whose type the rules do not know"
	}
	if fnb.fn.ret == nil {
		return nil, ""
	}
	zero, why := m.zeroOf(fnb.fn)
	if why != "" {
		return nil, why
	}
	return []string{zero}, ""
}

// zeroOf spells the quiet result of fn.
func (m *rustMasker) zeroOf(fn *rfn) (string, string) {
	t := parseRustType(fn.ret)
	if fn.constFn {
		if z := m.rt.literalZero(t); z != "" {
			return z, ""
		}
		return "", fmt.Sprintf("const fn %s returns %s, which has no zero literal", fn.name, strings.Join(fn.ret, " "))
	}
	if z, ok := m.rt.zeroExpr(t); ok {
		return z, ""
	}
	return "", fmt.Sprintf("function %s returns %s, which the rules know no Default of", fn.name, strings.Join(fn.ret, " "))
}

// unusedParams is the statement that keeps fn's parameters used once its
// body is a placeholder; const fns get none (a tuple of them may need a
// destructor at compile time).
func (m *rustMasker) unusedParams(fn *rfn) []string {
	switch {
	case len(fn.params) == 0 || fn.constFn:
		return nil
	case len(fn.params) == 1:
		return []string{"let _ = " + fn.params[0] + ";"}
	}
	return []string{"let _ = (" + strings.Join(fn.params, ", ") + ");"}
}

// effectiveTail reports whether the statement first..last ends its block
// on a target where pred holds: what follows it is only statements that a
// cfg exclusive with pred removes there.
func (m *rustMasker) effectiveTail(first, last int, pred string) bool {
	f := m.f
	p := f.parent[first]
	if p < 0 || f.match[p] < 0 {
		return false
	}
	end := f.match[p]
	for j := last + 1; ; {
		if j == end {
			return true
		}
		if j > end {
			return false
		}
		attrs, k := f.attrsAt(j)
		gone := false
		for _, a := range attrs {
			gone = gone || a.cfg != "" && exclusive(a.cfg, pred)
		}
		if !gone {
			return false
		}
		j = f.skipStatement(k, end)
	}
}

// skipStatement returns the token after the statement starting at k in a
// block closing at end.
func (f *rfile) skipStatement(k, end int) int {
	skipTo := func(k int) int { // past the first block at this level
		for ; k < end; k++ {
			switch t := f.toks[k].text; {
			case t == "{" && f.match[k] > k:
				return f.match[k] + 1
			case t == ";":
				return k + 1
			case (t == "(" || t == "[") && f.match[k] > k:
				k = f.match[k]
			}
		}
		return end
	}
	if k < len(f.toks) && f.toks[k].kind == rkLifetime && f.text(k+1) == ":" {
		k += 2 // a loop label
	}
	switch f.text(k) {
	case "{", "unsafe", "match", "while", "for", "loop", "fn", "impl", "mod", "struct", "enum", "trait":
		return skipTo(k)
	case "if":
		k = skipTo(k)
		for f.text(k) == "else" && k < end {
			k = skipTo(k + 1)
		}
		return k
	}
	for ; k < end; k++ {
		switch t := f.toks[k].text; {
		case t == ";":
			return k + 1
		case (t == "(" || t == "[" || t == "{") && f.match[k] > k:
			k = f.match[k]
		}
	}
	return end
}

// contentEdit replaces u's content by ph. Whole lines are replaced when
// the content has lines of its own; otherwise the text between the
// delimiters, so only the lines of the content ever change.
func (m *rustMasker) contentEdit(u *runit, ph []string) edit {
	f := m.f
	first, last := f.toks[u.open+1], f.toks[u.close-1]
	if u.kind == ruConst {
		return edit{Start: first.start, End: last.end, Text: ph[0]}
	}
	var start, end int
	var text strings.Builder
	if first.line > f.toks[u.open].line {
		start = f.lines.Start(first.line)
		indent := f.lines.Indent(first.line)
		if len(ph) > 0 {
			text.WriteString(indent + strings.Join(ph, "\n"+indent))
		}
	} else {
		start = f.toks[u.open].end
		if len(ph) > 0 {
			text.WriteString(" " + strings.Join(ph, " "))
		}
	}
	if lastLine := f.lastLine(u.close - 1); lastLine < f.toks[u.close].line {
		end = f.lines.End(lastLine)
		if len(ph) > 0 {
			text.WriteString("\n")
		}
	} else {
		end = f.toks[u.close].start
		if len(ph) > 0 {
			text.WriteString(" ")
		}
	}
	return edit{Start: start, End: end, Text: text.String()}
}
