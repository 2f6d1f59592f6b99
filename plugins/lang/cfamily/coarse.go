package cfamily

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Coarse masking of C and C++ functions the source platform compiles too.
//
// Removing statements from a target branch can break the target build: a
// declaration the shared code after the group reads, a label a goto jumps
// to. Replacing the whole body would change lines the source platform
// compiles, which masking never does. The preprocessor allows both: the
// body gets a guard on the condition of the masked branches, a placeholder
// body where that condition holds (the target) and the original body
// (with the masked branches emptied) everywhere else:
//
//	int f(int a)
//	{
//	#if defined(_WIN32)
//	    (void)a;
//	    return 0;
//	#else
//	    ...the body as it was, its _WIN32 branches emptied...
//	#endif
//	}
//
// The source platform's compiler sees exactly the tokens it saw before; the
// target's sees a placeholder body, which compiles whatever the branches
// declared.

// bodyGuard is the coarse placeholder of one function body.
type bodyGuard struct {
	fn    *cfunc
	ph    []string // the placeholder statements
	conds []string // conditions of the masked branches; the guard is their disjunction
}

// guardBody masks branch bi of the shared function fn coarsely: it empties
// the branch and puts fn's body under a guard. It returns why it cannot,
// or "" when it did.
func (m *cMasker) guardBody(r schemas.Region, bi int, fn *cfunc) string {
	toks, lines := m.f.lx.tokens, m.f.lines
	b := m.f.branches[bi]
	if fn.close < 0 || fn.open+1 >= fn.close {
		return "the function body is not closed"
	}
	if toks[fn.open+1].line == toks[fn.open].line || !lines.BlankBefore(toks[fn.close].start) {
		return "the body's braces do not stand at the ends of their lines"
	}
	cond, why := m.branchCondition(bi, fn)
	if why != "" {
		return why
	}
	g := m.guards[fn.open]
	if g == nil {
		ph, ok := m.placeholder(fn)
		if !ok {
			return fmt.Sprintf("function %s returns %s, which has no quiet zero value", fn.name, strings.Join(fn.result, " "))
		}
		g = &bodyGuard{fn: fn, ph: ph}
		m.guards[fn.open] = g
	}
	if !slices.Contains(g.conds, cond) {
		g.conds = append(g.conds, cond)
	}
	m.done[b.tokLo] = true
	// A branch nested in one emptied before went with it.
	if !m.enclosingDone(bi, fn) && b.last >= b.first {
		m.emptyLines(b.first, b.last)
	}
	m.actions = append(m.actions, Action{Region: r, Kind: lang.KindFunctionBody, Detail: fmt.Sprintf(
		"function %s: body replaced by %s where %s holds; branch on lines %d-%d emptied", fn.name, describe(g.ph), cond, b.first, b.last)})
	return ""
}

// enclosingDone reports whether a branch holding branch bi inside fn's body
// has been replaced already.
func (m *cMasker) enclosingDone(bi int, fn *cfunc) bool {
	for o := m.f.branches[bi].outer; o >= 0 && m.f.branches[o].tokLo > fn.open; o = m.f.branches[o].outer {
		if m.done[m.f.branches[o].tokLo] {
			return true
		}
	}
	return false
}

// emptyLines removes lines first..last, dropping the edits made inside
// them before (those of nested branches).
func (m *cMasker) emptyLines(first, last int) {
	start, end := m.f.lines.Start(first), m.f.lines.End(last)
	kept := m.edits[:0]
	for _, e := range m.edits {
		if e.Start < start || e.End > end {
			kept = append(kept, e)
		}
	}
	m.edits = append(kept, edit{Start: start, End: end, Text: ""})
}

// guardEdits adds the guard lines of every guarded body: the placeholder
// after the line of its '{', the original body after "#else", "#endif"
// before the line of its '}'.
func (m *cMasker) guardEdits() {
	opens := make([]int, 0, len(m.guards))
	for open := range m.guards {
		opens = append(opens, open)
	}
	sort.Ints(opens)
	toks, lines := m.f.lx.tokens, m.f.lines
	for _, open := range opens {
		if m.done[open] {
			// The function is defined in a masked branch and its whole body
			// was replaced (maskSegment): the guard's lines would land
			// around or inside that placeholder, and an "#endif" left
			// before the closing brace without its "#if" breaks the build
			// (cmocka's exception_handler, under #ifndef _WIN32 with a
			// nested #ifdef HAVE_STRSIGNAL).
			continue
		}
		g := m.guards[open]
		cond := g.conds[0]
		if len(g.conds) > 1 {
			cond = "(" + strings.Join(g.conds, ") || (") + ")"
		}
		indent := lines.Indent(toks[open+1].line)
		if indent == "" {
			indent = lines.Indent(toks[g.fn.close].line) + "    "
		}
		var head strings.Builder
		head.WriteString("#if " + cond + "\n")
		for _, s := range g.ph {
			head.WriteString(indented(indent, s) + "\n")
		}
		head.WriteString("#else\n")
		at := lines.End(toks[open].line)
		m.edits = append(m.edits, edit{Start: at, End: at, Text: head.String()})
		at = lines.Start(toks[g.fn.close].line)
		m.edits = append(m.edits, edit{Start: at, End: at, Text: "#endif\n"})
	}
}

// branchCondition spells the condition under which branch bi is compiled,
// as far as the conditionals inside fn's body decide it.
func (m *cMasker) branchCondition(bi int, fn *cfunc) (string, string) {
	var terms []string
	for b := bi; b >= 0 && m.f.branches[b].tokLo > fn.open; b = m.f.branches[b].outer {
		own, ok := m.f.ownCondition(b)
		if !ok {
			return "", "a directive's condition cannot be read"
		}
		terms = append(own, terms...)
	}
	if len(terms) == 0 {
		return "", "the branch has no condition"
	}
	return strings.Join(terms, " && "), ""
}

// ownCondition returns the terms of branch b's own condition: the
// negations of its group's earlier tests and its own test. ok is false
// when a directive's condition cannot be read.
func (f *cfile) ownCondition(b int) ([]string, bool) {
	dirs := f.branches[b].dirs
	var own []string
	for k, di := range dirs {
		c, ok := f.directiveCondition(di)
		if !ok {
			return nil, false
		}
		switch {
		case k < len(dirs)-1:
			own = append(own, negate(c))
		case c != "":
			own = append(own, parenthesize(c))
		}
	}
	return own, true
}

// directiveCondition returns the condition a conditional directive tests:
// "defined(X)" for #ifdef X, the expression of #if and #elif, "" for #else.
// ok is false for a directive without the operand it needs.
func (f *cfile) directiveCondition(di int) (string, bool) {
	d := f.lx.directives[di]
	text := strings.NewReplacer("\\\r\n", " ", "\\\n", " ").Replace(string(f.src[d.start:d.end]))
	text = stripComments(text)
	text = strings.TrimSpace(strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(text), "#"), " \t"))
	rest := strings.TrimSpace(strings.TrimPrefix(text, d.name))
	switch d.name {
	case "else":
		return "", true
	case "ifdef", "elifdef":
		return "defined(" + rest + ")", isMacroName(rest)
	case "ifndef", "elifndef":
		return "!defined(" + rest + ")", isMacroName(rest)
	default: // if, elif
		return rest, rest != ""
	}
}

// stripComments removes the comments of one directive line.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			return b.String()
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += 2 + end + 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

var (
	macroName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	simpleTerm = regexp.MustCompile(`^!?(defined\s*\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\)|[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$`)
)

func isMacroName(s string) bool { return macroName.MatchString(s) }

// parenthesize wraps a condition in parentheses unless it is one term.
func parenthesize(c string) string {
	if simpleTerm.MatchString(c) {
		return c
	}
	return "(" + c + ")"
}

// negate returns the negation of a condition, without a double "!".
func negate(c string) string {
	if strings.HasPrefix(c, "!") && simpleTerm.MatchString(c) {
		return c[1:]
	}
	return "!" + parenthesize(c)
}
