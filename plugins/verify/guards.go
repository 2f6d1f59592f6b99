package verify

import (
	"sort"

	"github.com/osbench/osbench/plugins/lang/evidence"
)

// The judge reads a language's front end's evidence.File; what it adds to
// the file's guards (inherited ones) is the judge's, the same in every
// language.

// inheritGuards adds, for every unguarded function whose every call in the
// file is guarded, a span over the function with the callers' guards (a
// helper only a Windows branch calls is Windows code too). It iterates to
// a fixed point so that chains of helpers inherit, and gives inherited
// guards a lower strength than written ones.
func inheritGuards(m *evidence.File) {
	const inheritedStrength = 0.65
	byCallee := map[string][]int{}
	for _, c := range m.Calls {
		byCallee[c.Callee] = append(byCallee[c.Callee], c.Line)
	}
	done := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range m.Funcs {
			sites := byCallee[f.Name]
			if done[f.Name] || len(sites) == 0 || len(m.GuardsAt(f.From)) > 0 {
				continue
			}
			var inherited []evidence.Guard
			allGuarded := true
			for _, line := range sites {
				if f.From <= line && line <= f.To {
					continue // recursion says nothing about the platform
				}
				gs := m.GuardsAt(line)
				if len(gs) == 0 {
					allGuarded = false
					break
				}
				caller, _ := m.FuncAt(line)
				for _, g := range gs {
					g.Strength = min(g.Strength, inheritedStrength)
					if g.Via == "" {
						g.Via = caller.Name
					}
					inherited = append(inherited, g)
				}
			}
			if !allGuarded || len(inherited) == 0 || oppositeBranches(inherited) {
				continue
			}
			for _, g := range dedupeGuards(inherited) {
				m.Spans = append(m.Spans, evidence.GuardSpan{From: f.From, To: f.To, Guard: g})
			}
			done[f.Name] = true
			changed = true
		}
	}
}

// oppositeBranches reports whether gs hold two branches of one condition.
func oppositeBranches(gs []evidence.Guard) bool {
	branch := map[string]string{}
	for _, g := range gs {
		if g.Cond == "" {
			continue
		}
		if t, ok := branch[g.Cond]; ok && t != g.Text {
			return true
		}
		branch[g.Cond] = g.Text
	}
	return false
}

func dedupeGuards(gs []evidence.Guard) []evidence.Guard {
	seen := map[[2]any]bool{}
	var out []evidence.Guard
	for _, g := range gs {
		k := [2]any{g.Line, g.Text}
		if !seen[k] {
			seen[k] = true
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
