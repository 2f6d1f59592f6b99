package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dominikbraun/graph"
)

// Graph is a validated DAG of steps, with the adjacency kept in plain maps
// for the scheduler's own Kahn walk (graph.TopologicalSort is quadratic in
// dominikbraun/graph v0.23.0).
type Graph struct {
	g     graph.Graph[string, *Step]
	steps map[string]*Step
	order []string            // IDs in insertion order, for stable output
	succ  map[string][]string // step → steps that consume it
	preds map[string]int      // step → number of distinct producing steps
}

// CycleError reports every cycle at once, each as the list of steps in it
// with where they were declared.
type CycleError struct {
	Cycles [][]*Step
}

func (e *CycleError) Error() string {
	var b strings.Builder
	for i, cyc := range e.Cycles {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("dependency cycle:")
		for _, s := range cyc {
			b.WriteString(" " + s.ID)
			if src := stepSource(s); src != "" {
				b.WriteString(" (" + src + ")")
			}
			b.WriteString(" →")
		}
		b.WriteString(" " + cyc[0].ID)
	}
	return b.String()
}

// stepSource is the first manifest location among a step's fields.
func stepSource(s *Step) string {
	for _, f := range s.Config {
		if f.Source != "" {
			return f.Source
		}
	}
	return ""
}

// NewGraph checks steps (unique IDs, known kinds, existing inputs, no cycles)
// and builds the DAG.
func NewGraph(steps []*Step) (*Graph, error) {
	g := &Graph{
		g:     graph.New(func(s *Step) string { return s.ID }, graph.Directed()),
		steps: make(map[string]*Step, len(steps)),
		succ:  make(map[string][]string, len(steps)),
		preds: make(map[string]int, len(steps)),
	}
	var problems []string
	for _, s := range steps {
		if _, dup := g.steps[s.ID]; dup {
			problems = append(problems, fmt.Sprintf("step %s declared twice", s.ID))
			continue
		}
		if _, ok := LookupKind(s.Kind); !ok {
			problems = append(problems, fmt.Sprintf("step %s: unknown kind %q (known: %s)", s.ID, s.Kind, strings.Join(KindNames(), ", ")))
		}
		g.steps[s.ID] = s
		g.order = append(g.order, s.ID)
		if err := g.g.AddVertex(s); err != nil {
			return nil, err
		}
	}
	for _, id := range g.order {
		s := g.steps[id]
		seen := map[string]bool{}
		for _, in := range s.Inputs {
			if _, ok := g.steps[in.Step]; !ok {
				problems = append(problems, fmt.Sprintf("step %s: input %s names unknown step %s", s.ID, in.Name, in.Step))
				continue
			}
			if seen[in.Step] {
				continue
			}
			seen[in.Step] = true
			if err := g.g.AddEdge(in.Step, s.ID); err != nil {
				return nil, err
			}
			g.succ[in.Step] = append(g.succ[in.Step], s.ID)
			g.preds[s.ID]++
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("invalid graph:\n  %s", strings.Join(problems, "\n  "))
	}
	if err := g.checkCycles(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkCycles finds every cycle once, through strongly connected components.
func (g *Graph) checkCycles() error {
	sccs, err := graph.StronglyConnectedComponents(g.g)
	if err != nil {
		return err
	}
	var cycles [][]*Step
	for _, comp := range sccs {
		selfLoop := len(comp) == 1 && containsString(g.succ[comp[0]], comp[0])
		if len(comp) < 2 && !selfLoop {
			continue
		}
		sort.Strings(comp)
		cyc := make([]*Step, len(comp))
		for i, id := range comp {
			cyc[i] = g.steps[id]
		}
		cycles = append(cycles, cyc)
	}
	if len(cycles) == 0 {
		return nil
	}
	sort.Slice(cycles, func(i, j int) bool { return cycles[i][0].ID < cycles[j][0].ID })
	return &CycleError{Cycles: cycles}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Steps returns the steps in declaration order.
func (g *Graph) Steps() []*Step {
	out := make([]*Step, len(g.order))
	for i, id := range g.order {
		out[i] = g.steps[id]
	}
	return out
}

// Step returns the step with the given ID.
func (g *Graph) Step(id string) (*Step, bool) {
	s, ok := g.steps[id]
	return s, ok
}

// Len is the number of steps.
func (g *Graph) Len() int { return len(g.order) }

// Dot renders the graph in Graphviz's language.
func (g *Graph) Dot() string {
	var b strings.Builder
	b.WriteString("digraph osbench {\n  rankdir=LR;\n  node [shape=box];\n")
	for _, id := range g.order {
		fmt.Fprintf(&b, "  %q [label=%q];\n", id, id+"\\n("+g.steps[id].Kind+")")
	}
	for _, id := range g.order {
		for _, to := range g.succ[id] {
			fmt.Fprintf(&b, "  %q -> %q;\n", id, to)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders the graph as a Mermaid flowchart.
func (g *Graph) Mermaid() string {
	ids := make(map[string]string, len(g.order))
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for i, id := range g.order {
		ids[id] = fmt.Sprintf("s%d", i)
		fmt.Fprintf(&b, "  %s[\"%s<br/>(%s)\"]\n", ids[id], strings.ReplaceAll(id, `"`, "'"), g.steps[id].Kind)
	}
	for _, id := range g.order {
		for _, to := range g.succ[id] {
			fmt.Fprintf(&b, "  %s --> %s\n", ids[id], ids[to])
		}
	}
	return b.String()
}
