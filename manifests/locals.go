package manifests

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// localValue is one NAME = EXPR entry of a `locals` block.
type localValue struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range // the whole `NAME = EXPR`
}

// decodeLocalsBlock returns a locals block's entries in source order.
func decodeLocalsBlock(block *hcl.Block) ([]*localValue, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	locals := make([]*localValue, 0, len(attrs))
	for _, attr := range attrs {
		locals = append(locals, &localValue{Name: attr.Name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	sort.Slice(locals, func(i, j int) bool { return locals[i].DeclRange.Start.Byte < locals[j].DeclRange.Start.Byte })
	return locals, diags
}

// localGraph is what evaluating a file's locals needs: the values by name
// and, for each, the names it refers to.
type localGraph struct {
	order  []*localValue // declaration order
	byName map[string]*localValue
	deps   map[string][]string
	// invalid marks locals whose references could not all be resolved; their
	// error is already reported, so they evaluate to an unknown value.
	invalid map[string]bool
}

// evalLocals computes a file's locals in dependency order and returns them as
// the object `local`. Values that cannot be computed (a reference cycle, an
// error, a reference to one of those) are unknown, so every expression using
// them stays quiet instead of repeating the same error.
func evalLocals(locals []*localValue, fns map[string]function.Function) (cty.Value, hcl.Diagnostics) {
	g, diags := newLocalGraph(locals)
	values := make(map[string]cty.Value, len(g.order))
	for _, component := range g.components() {
		if len(component) > 1 || g.refersToItself(component[0]) {
			diags = append(diags, cycleDiagnostic(component))
			for _, l := range component {
				values[l.Name] = cty.DynamicVal
			}
			continue
		}
		l := component[0]
		if g.invalid[l.Name] {
			values[l.Name] = cty.DynamicVal
			continue
		}
		ctx := &hcl.EvalContext{
			Variables: map[string]cty.Value{"local": cty.ObjectVal(values)},
			Functions: fns,
		}
		value, valueDiags := l.Expr.Value(ctx)
		diags = append(diags, valueDiags...)
		if valueDiags.HasErrors() {
			value = cty.DynamicVal
		}
		values[l.Name] = value
	}
	return cty.ObjectVal(values), diags
}

func newLocalGraph(locals []*localValue) (*localGraph, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	g := &localGraph{
		byName:  make(map[string]*localValue, len(locals)),
		deps:    make(map[string][]string, len(locals)),
		invalid: make(map[string]bool),
	}
	for _, l := range locals {
		if first, ok := g.byName[l.Name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate local value",
				Detail:   fmt.Sprintf("local.%s is already defined at %s; each local value is defined once per file.", l.Name, position(first.DeclRange)),
				Subject:  l.DeclRange.Ptr(),
			})
			continue
		}
		g.byName[l.Name] = l
		g.order = append(g.order, l)
	}
	for _, l := range g.order {
		for _, traversal := range l.Expr.Variables() {
			if traversal.RootName() != "local" {
				continue // an unknown variable; evaluation reports it
			}
			name, ok := localName(traversal)
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference",
					Detail:   `"local" cannot be used on its own; refer to one value, as in local.NAME.`,
					Subject:  traversal.SourceRange().Ptr(),
				})
				g.invalid[l.Name] = true
				continue
			}
			if _, ok := g.byName[name]; !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Reference to undeclared local value",
					Detail:   fmt.Sprintf("No local value named %q is defined in this file.%s", name, didYouMean(name, g.names())),
					Subject:  traversal.SourceRange().Ptr(),
				})
				g.invalid[l.Name] = true
				continue
			}
			g.deps[l.Name] = append(g.deps[l.Name], name)
		}
	}
	return g, diags
}

// localName returns NAME for a traversal local.NAME or local["NAME"].
func localName(traversal hcl.Traversal) (string, bool) {
	if len(traversal) < 2 {
		return "", false
	}
	switch step := traversal[1].(type) {
	case hcl.TraverseAttr:
		return step.Name, true
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			return step.Key.AsString(), true
		}
	}
	return "", false
}

func (g *localGraph) names() []string {
	names := make([]string, 0, len(g.order))
	for _, l := range g.order {
		names = append(names, l.Name)
	}
	return names
}

func (g *localGraph) refersToItself(l *localValue) bool {
	for _, dep := range g.deps[l.Name] {
		if dep == l.Name {
			return true
		}
	}
	return false
}

// components returns the strongly connected components of the reference
// graph (Tarjan's algorithm). A component comes after every component it
// refers to, which is exactly the order to evaluate them in; a component of
// more than one local is a reference cycle.
func (g *localGraph) components() [][]*localValue {
	var (
		index   = make(map[string]int, len(g.order))
		lowlink = make(map[string]int, len(g.order))
		onStack = make(map[string]bool, len(g.order))
		stack   []string
		next    int
		result  [][]*localValue
		visit   func(name string)
	)
	visit = func(name string) {
		index[name], lowlink[name] = next, next
		next++
		stack = append(stack, name)
		onStack[name] = true
		for _, dep := range g.deps[name] {
			if _, seen := index[dep]; !seen {
				visit(dep)
				lowlink[name] = min(lowlink[name], lowlink[dep])
			} else if onStack[dep] {
				lowlink[name] = min(lowlink[name], index[dep])
			}
		}
		if lowlink[name] != index[name] {
			return
		}
		var component []*localValue
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			component = append(component, g.byName[top])
			if top == name {
				break
			}
		}
		sort.Slice(component, func(i, j int) bool {
			return component[i].DeclRange.Start.Byte < component[j].DeclRange.Start.Byte
		})
		result = append(result, component)
	}
	for _, l := range g.order {
		if _, seen := index[l.Name]; !seen {
			visit(l.Name)
		}
	}
	return result
}

// cycleDiagnostic reports one reference cycle, pointing at its first local
// and listing where every member is defined.
func cycleDiagnostic(cycle []*localValue) *hcl.Diagnostic {
	members := make([]string, len(cycle))
	for i, l := range cycle {
		members[i] = fmt.Sprintf("local.%s (%s)", l.Name, position(l.DeclRange))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Reference cycle in locals",
		Detail:   fmt.Sprintf("These local values refer to each other, so none of them can be computed: %s.", strings.Join(members, ", ")),
		Subject:  cycle[0].DeclRange.Ptr(),
	}
}
