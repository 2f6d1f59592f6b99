package rust

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Coarse masking of Rust functions. A function only the target compiles
// gets a placeholder body. A function both platforms compile keeps what
// the source platform compiles, as the C coarse mode does with the
// preprocessor: the body goes under cfg, a placeholder for the target and
// the original (its target blocks emptied) for every other platform:
//
//	fn f(a: A) -> T {
//	    #[cfg(windows)]
//	    {
//	        let _ = a;
//	        Default::default()
//	    }
//	    #[cfg(not(windows))]
//	    {
//	    ...the body as it was, its #[cfg(windows)] blocks emptied...
//	    }
//	}

// maskCoarse masks the function enclosing r. done is false when it did
// not, and note then says why if the fine mask should tell.
func (m *rustMasker) maskCoarse(r schemas.Region) (done bool, note string) {
	f := m.f
	var fnb *rblock
	for _, open := range f.order {
		b := f.blocks[open]
		if b.kind == rbFn && f.toks[open].line <= r.Start && r.End <= f.toks[b.close].line {
			fnb = b // blocks are in file order: the last one found is the innermost
		}
	}
	if fnb == nil {
		return false, ""
	}
	for _, u := range m.units {
		if u.kind == ruFnBody && u.block == fnb {
			if u.close > u.open+1 {
				m.maskUnit(r, u, "")
				return true, ""
			}
			return false, ""
		}
	}
	decline := func(why string) (bool, string) {
		return false, fmt.Sprintf("coarse declined (%s); ", why)
	}
	var targets []*runit
	for _, u := range m.units {
		first, last, ok := m.contentLines(u)
		if !ok || (u.kind != ruBlock && u.kind != ruBranch) || f.enclosingFn(u.open) != fnb || r.End < first || last < r.Start {
			continue
		}
		targets = append(targets, u)
	}
	if len(targets) == 0 {
		return decline("no cfg block or cfg! branch of function " + fnb.fn.name + " lies in the region")
	}
	toks := f.toks
	if fnb.close <= fnb.open+1 || toks[fnb.open+1].line == toks[fnb.open].line || !f.lines.BlankBefore(toks[fnb.close].start) {
		return decline("the braces of function " + fnb.fn.name + " do not stand at the ends of their lines")
	}
	ph := m.unusedParams(fnb.fn)
	if fnb.fn.ret != nil {
		zero, why := m.zeroOf(fnb.fn)
		if why != "" {
			return decline(why)
		}
		ph = append(ph, zero)
	}
	// Blocks of the target are never compiled under the guard's not(…) and
	// are emptied; cfg! branches are compiled everywhere and get their
	// fine placeholder.
	phs := make([][]string, len(targets))
	for i, u := range targets {
		if u.kind == ruBranch {
			var why string
			if phs[i], why = m.placeholder(u); why != "" {
				return decline(u.label + ": " + why)
			}
		}
	}
	g := m.guards[fnb.open]
	if g == nil {
		g = &rustGuard{fn: fnb, ph: ph}
		m.guards[fnb.open] = g
	}
	for i, u := range targets {
		if !slices.Contains(g.preds, u.pred) {
			g.preds = append(g.preds, u.pred)
		}
		already := false
		for o := range m.edits {
			already = already || inside(u, o) || o == u
		}
		if !already {
			m.setEdit(u, phs[i])
		}
		first, last, _ := m.contentLines(u)
		m.actions = append(m.actions, Action{Region: r, Kind: lang.KindFunctionBody, Detail: fmt.Sprintf(
			"function %s: body replaced by %s where cfg(%s) holds; %s on lines %d-%d replaced by %s",
			fnb.fn.name, describeRust(ph), u.pred, u.label, first, last, describeRust(phs[i]))})
	}
	return true, ""
}

// guardEdits writes the cfg pair around every guarded body: the
// placeholder block and the opening of the original's block after the
// line of '{', the original's closing brace before the line of '}'.
func (m *rustMasker) guardEdits() []edit {
	opens := make([]int, 0, len(m.guards))
	for open := range m.guards {
		opens = append(opens, open)
	}
	sort.Ints(opens)
	f := m.f
	var edits []edit
	for _, open := range opens {
		g := m.guards[open]
		pred := g.preds[0]
		if len(g.preds) > 1 {
			pred = "any(" + strings.Join(g.preds, ", ") + ")"
		}
		indent := f.lines.Indent(f.toks[g.fn.close].line) + "    "
		var head strings.Builder
		head.WriteString(indent + "#[cfg(" + pred + ")]\n" + indent + "{\n")
		for _, s := range g.ph {
			head.WriteString(indent + "    " + s + "\n")
		}
		head.WriteString(indent + "}\n" + indent + "#[cfg(not(" + pred + "))]\n" + indent + "{\n")
		at := f.lines.End(f.toks[open].line)
		edits = append(edits, edit{Start: at, End: at, Text: head.String()})
		at = f.lines.Start(f.toks[g.fn.close].line)
		edits = append(edits, edit{Start: at, End: at, Text: indent + "}\n"})
	}
	return edits
}
