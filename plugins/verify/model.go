package verify

import (
	"sort"
)

// evidence is one fact in the text of a file that points at a label: an
// OS-only API, a path convention, a line ending, a capability probe, or a
// platform test (label platform-conditional).
type evidence struct {
	line   int
	label  string  // never false-positive
	group  string  // the feature group it suggests, snake_case
	what   string  // the text found, quoted in explanations
	weight float64 // how strongly it points at label, 0..1
	// portable evidence names something every OS has (syscall.EPERM,
	// syscall.SIGTERM: Go defines them on Windows too). It refines a
	// guarded region but proves nothing on its own: a shared function
	// returning syscall.EPERM is not platform code.
	portable bool
}

// guard is a platform condition under which some lines run: a build tag, a
// file suffix, a runtime.GOOS test, a preprocessor branch, a cfg attribute.
type guard struct {
	line int    // where the condition is written (0: the file name)
	text string // the condition as written, for explanations
	via  string // the caller through which the guard applies, if inherited
	// cond names the condition the guard is a branch of ("if:12", "cfg"):
	// two guards with one cond and different texts are opposite branches,
	// so a helper called under both runs everywhere.
	cond     string
	strength float64 // confidence that code under it is platform-specific
}

// guardSpan is a guard over the lines [from, to].
type guardSpan struct {
	from, to int
	guard
}

// funcSpan is a function (or method) over the lines [from, to], with its
// doc comment, used to name the functional area of a region and to pass
// guards from callers to callees.
type funcSpan struct {
	name     string
	doc      string
	from, to int
}

// callSite is a call of the function named callee on line line.
type callSite struct {
	callee string
	line   int
}

// fileModel is what a language front end reads from a file: everything the
// language-neutral judge needs, indexed by line.
type fileModel struct {
	lines      int
	fileGuards []guard // guards over the whole file
	spans      []guardSpan
	funcs      []funcSpan
	calls      []callSite
	evidence   []evidence
}

// guardsAt returns the guards of the spans that hold line, file guards
// excluded.
func (m *fileModel) guardsAt(line int) []guard {
	var gs []guard
	for _, s := range m.spans {
		if s.from <= line && line <= s.to {
			gs = append(gs, s.guard)
		}
	}
	return gs
}

// funcAt returns the innermost function holding line.
func (m *fileModel) funcAt(line int) (funcSpan, bool) {
	best, found := funcSpan{}, false
	for _, f := range m.funcs {
		if f.from <= line && line <= f.to && (!found || f.to-f.from < best.to-best.from) {
			best, found = f, true
		}
	}
	return best, found
}

// inheritGuards adds, for every unguarded function whose every call in the
// file is guarded, a span over the function with the callers' guards (a
// helper only a Windows branch calls is Windows code too). It iterates to
// a fixed point so that chains of helpers inherit, and gives inherited
// guards a lower strength than written ones.
func (m *fileModel) inheritGuards() {
	const inheritedStrength = 0.65
	byCallee := map[string][]int{}
	for _, c := range m.calls {
		byCallee[c.callee] = append(byCallee[c.callee], c.line)
	}
	done := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range m.funcs {
			sites := byCallee[f.name]
			if done[f.name] || len(sites) == 0 || len(m.guardsAt(f.from)) > 0 {
				continue
			}
			var inherited []guard
			allGuarded := true
			for _, line := range sites {
				if f.from <= line && line <= f.to {
					continue // recursion says nothing about the platform
				}
				gs := m.guardsAt(line)
				if len(gs) == 0 {
					allGuarded = false
					break
				}
				caller, _ := m.funcAt(line)
				for _, g := range gs {
					g.strength = min(g.strength, inheritedStrength)
					if g.via == "" {
						g.via = caller.name
					}
					inherited = append(inherited, g)
				}
			}
			if !allGuarded || len(inherited) == 0 || oppositeBranches(inherited) {
				continue
			}
			for _, g := range dedupeGuards(inherited) {
				m.spans = append(m.spans, guardSpan{from: f.from, to: f.to, guard: g})
			}
			done[f.name] = true
			changed = true
		}
	}
}

// oppositeBranches reports whether gs hold two branches of one condition.
func oppositeBranches(gs []guard) bool {
	branch := map[string]string{}
	for _, g := range gs {
		if g.cond == "" {
			continue
		}
		if t, ok := branch[g.cond]; ok && t != g.text {
			return true
		}
		branch[g.cond] = g.text
	}
	return false
}

func dedupeGuards(gs []guard) []guard {
	seen := map[[2]any]bool{}
	var out []guard
	for _, g := range gs {
		k := [2]any{g.line, g.text}
		if !seen[k] {
			seen[k] = true
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}
