package manifests

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// A few test attributes — parser, skip_style, report — may depend on the
// preset's parameters, so that one parameter switches a preset between
// runners: parser = param.runner == "gtest" ? "junit" : "ctest". Such a
// value is known only when a repository is resolved; until then it is kept
// as an expression, checked as far as it can be with the parameters
// unknown. null means "not set", so a preset can leave report out for one
// runner and name a file for another.

// lateValue is one such attribute.
type lateValue struct {
	Name    string // the attribute's name, for messages
	Expr    hcl.Expression
	scope   *scope
	convert converter[string]
	Broken  bool
}

// decodeMaybeLate decodes an attribute that is either known now (a plain
// setting) or depends on param (a setting standing for it, plus the late
// value).
func decodeMaybeLate(attr *hcl.Attribute, sc *scope, convert converter[string]) (*setting[string], *lateValue, hcl.Diagnostics) {
	if attr == nil || !refersTo(attr.Expr, "param") {
		s, diags := decodeAttr(attr, sc.ctx, convert)
		return s, nil, diags
	}
	s := &setting[string]{Range: attr.Range, Expr: attr.Expr}
	late := &lateValue{Name: attr.Name, Expr: attr.Expr, scope: sc, convert: convert}
	value, diags := attr.Expr.Value(sc.commandContext(unknownCommandVariables()))
	if diags.HasErrors() {
		s.Broken, late.Broken = true, true
		return s, late, diags
	}
	if problem := late.check(value); problem != nil {
		s.Broken, late.Broken = true, true
		diags = append(diags, problem)
	}
	return s, late, diags
}

// check converts a known value; unknown and null values pass.
func (l *lateValue) check(value cty.Value) *hcl.Diagnostic {
	value, _ = value.UnmarkDeep()
	if !value.IsKnown() || value.IsNull() {
		return nil
	}
	if _, problem := l.convert(l.Name, value); problem != nil {
		return errorAt(l.Expr.Range(), "Invalid "+l.Name, problem.Detail)
	}
	return nil
}

// resolveLate evaluates a late value with a platform's final inputs: ""
// for null, ok false when it is unusable (and the error is reported).
func (r *resolver) resolveLate(l *lateValue, in commandInputs) (string, bool) {
	if l.Broken || in.Unknown {
		r.broken = true
		return "", false
	}
	value, diags := l.Expr.Value(l.scope.commandContext(commandVariables(in)))
	r.diags = append(r.diags, diags...)
	if diags.HasErrors() || !value.IsWhollyKnown() {
		r.broken = true
		return "", false
	}
	value, _ = value.UnmarkDeep()
	if value.IsNull() {
		return "", true
	}
	s, problem := l.convert(l.Name, value)
	if problem != nil {
		r.failOnce(errorAt(l.Expr.Range(), "Invalid "+l.Name, problem.Detail))
		return "", false
	}
	return s, true
}

// refersTo reports whether expr refers to the variable root.
func refersTo(expr hcl.Expression, root string) bool {
	for _, traversal := range expr.Variables() {
		if traversal.RootName() == root {
			return true
		}
	}
	return false
}
