package manifests

import (
	"fmt"
	"math"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// setting is one attribute as decoded from a manifest or preset: its Go
// value and where it was written. A nil *setting means "not written", which is
// what lets a manifest override its preset attribute by attribute.
type setting[T any] struct {
	Value T
	Range hcl.Range      // the whole `name = value`, recorded in Repository.Ranges
	Expr  hcl.Expression // the value, for pointing at one element of it
	// Broken means the attribute was written but its value is unusable: an
	// error about it was reported, or it depends on a value that had one.
	// Checks that need the value skip it, so one mistake is reported once.
	Broken bool
}

// valueError is a problem with an attribute's value found by a converter.
type valueError struct {
	Summary string // "" means "Invalid <attribute>"
	Detail  string
	Path    cty.Path // the offending element within the value; empty for the whole value
	// AtKey points at the key of Path's last step (an object's), not at
	// its value: the key is what is wrong.
	AtKey bool
}

func invalidValue(format string, args ...any) *valueError {
	return &valueError{Detail: fmt.Sprintf(format, args...)}
}

// converter turns an attribute's known, non-null value into its Go form, or
// says what is wrong with it. name is the attribute's name, for messages.
type converter[T any] func(name string, value cty.Value) (T, *valueError)

// decodeAttr evaluates attr in ctx and converts its value. It returns nil for
// an attribute that is not written, and a Broken setting for one whose value
// is unusable.
func decodeAttr[T any](attr *hcl.Attribute, ctx *hcl.EvalContext, convert converter[T]) (*setting[T], hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	s := &setting[T]{Range: attr.Range, Expr: attr.Expr}
	value, diags := attr.Expr.Value(ctx)
	if diags.HasErrors() {
		s.Broken = true
		return s, diags
	}
	value, _ = value.UnmarkDeep()
	if !value.IsWhollyKnown() {
		// Unknown values come only from locals or functions that already
		// reported an error.
		s.Broken = true
		return s, diags
	}
	if value.IsNull() {
		s.Broken = true
		return s, append(diags, errorAt(attr.Expr.Range(), "Invalid "+attr.Name, attr.Name+" must not be null."))
	}
	converted, problem := convert(attr.Name, value)
	if problem != nil {
		s.Broken = true
		summary := problem.Summary
		if summary == "" {
			summary = "Invalid " + attr.Name
		}
		at := rangeOfPath(attr.Expr, problem.Path)
		if problem.AtKey {
			at = rangeOfKey(attr.Expr, problem.Path)
		}
		return s, append(diags, errorAt(at, summary, problem.Detail))
	}
	s.Value = converted
	return s, diags
}

// rangeOfPath narrows expr's range to the element at path when expr is a
// literal list or object that spells it out, so an error about one entry of
// a multi-line list points at that entry's line.
func rangeOfPath(expr hcl.Expression, path cty.Path) hcl.Range {
	for _, step := range path {
		index, ok := step.(cty.IndexStep)
		if !ok || !index.Key.IsKnown() || index.Key.IsNull() {
			break
		}
		next := elementExpr(expr, index.Key)
		if next == nil {
			break
		}
		expr = next
	}
	return expr.Range()
}

// rangeOfKey is rangeOfPath for the key of path's last step, when expr
// spells out the object that has it.
func rangeOfKey(expr hcl.Expression, path cty.Path) hcl.Range {
	if len(path) == 0 {
		return expr.Range()
	}
	parent := rangeOfPath(expr, path[:len(path)-1])
	for _, step := range path[:len(path)-1] {
		index, ok := step.(cty.IndexStep)
		if !ok {
			return parent
		}
		if expr = elementExpr(expr, index.Key); expr == nil {
			return parent
		}
	}
	index, ok := path[len(path)-1].(cty.IndexStep)
	obj, isObj := expr.(*hclsyntax.ObjectConsExpr)
	if !ok || !isObj || index.Key.Type() != cty.String || !index.Key.IsKnown() {
		return rangeOfPath(expr, path[len(path)-1:])
	}
	for _, item := range obj.Items {
		k, diags := item.KeyExpr.Value(nil)
		if !diags.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() && k.AsString() == index.Key.AsString() {
			return item.KeyExpr.Range()
		}
	}
	return expr.Range()
}

func elementExpr(expr hcl.Expression, key cty.Value) hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.TupleConsExpr:
		if key.Type() != cty.Number {
			return nil
		}
		i, accuracy := key.AsBigFloat().Int64()
		if accuracy != 0 || i < 0 || i >= int64(len(e.Exprs)) {
			return nil
		}
		return e.Exprs[i]
	case *hclsyntax.ObjectConsExpr:
		if key.Type() != cty.String {
			return nil
		}
		for _, item := range e.Items {
			// Literal keys evaluate without a context; computed ones fail
			// quietly and keep the range of the whole object.
			k, diags := item.KeyExpr.Value(nil)
			if !diags.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() && k.AsString() == key.AsString() {
				return item.ValueExpr
			}
		}
	}
	return nil
}

// indexPath is the path to element i of a list.
func indexPath(i int) cty.Path { return cty.IndexPath(cty.NumberIntVal(int64(i))) }

// typeName is a value's type as a manifest author would say it.
func typeName(value cty.Value) string {
	ty := value.Type()
	switch {
	case ty == cty.String:
		return "a string"
	case ty == cty.Number:
		return "a number"
	case ty == cty.Bool:
		return "a bool"
	case ty.IsTupleType() || ty.IsListType():
		return "a list"
	case ty.IsSetType():
		return "a set"
	case ty.IsObjectType() || ty.IsMapType():
		return "a map"
	}
	return ty.FriendlyName()
}

// asString accepts only strings: a number where a string belongs is more
// likely a mistake (timeout = 10) than a wish for "10".
func asString(name string, value cty.Value) (string, *valueError) {
	if value.Type() != cty.String {
		return "", invalidValue("%s must be a string, not %s.", name, typeName(value))
	}
	return value.AsString(), nil
}

// asStringList accepts a list of strings, in order.
func asStringList(name string, value cty.Value) ([]string, *valueError) {
	ty := value.Type()
	if !ty.IsListType() && !ty.IsTupleType() {
		return nil, invalidValue("%s must be a list of strings, not %s.", name, typeName(value))
	}
	list := make([]string, 0, value.LengthInt())
	for i, element := 0, value.ElementIterator(); element.Next(); i++ {
		_, v := element.Element()
		if v.IsNull() || v.Type() != cty.String {
			what := "null"
			if !v.IsNull() {
				what = typeName(v)
			}
			return nil, &valueError{
				Detail: fmt.Sprintf("%s must be a list of strings; element %d is %s.", name, i+1, what),
				Path:   indexPath(i),
			}
		}
		list = append(list, v.AsString())
	}
	return list, nil
}

// asStringMap accepts a map or object whose values are all strings.
func asStringMap(name string, value cty.Value) (map[string]string, *valueError) {
	ty := value.Type()
	if !ty.IsMapType() && !ty.IsObjectType() {
		return nil, invalidValue("%s must be a map of strings, not %s.", name, typeName(value))
	}
	m := make(map[string]string, value.LengthInt())
	for element := value.ElementIterator(); element.Next(); {
		k, v := element.Element()
		key := k.AsString()
		if v.IsNull() || v.Type() != cty.String {
			what := "null"
			if !v.IsNull() {
				what = typeName(v)
			}
			return nil, &valueError{
				Detail: fmt.Sprintf("%s must be a map of strings; the value of %q is %s.", name, key, what),
				Path:   cty.IndexPath(k),
			}
		}
		m[key] = v.AsString()
	}
	return m, nil
}

// asWholeNumber accepts a whole number that fits an int.
func asWholeNumber(name string, value cty.Value) (int, *valueError) {
	if value.Type() != cty.Number {
		return 0, invalidValue("%s must be a whole number, not %s.", name, typeName(value))
	}
	f := value.AsBigFloat()
	if !f.IsInt() {
		return 0, invalidValue("%s must be a whole number, not %s.", name, f.Text('g', -1))
	}
	n, accuracy := f.Int64()
	if accuracy != 0 || n > math.MaxInt32 || n < math.MinInt32 {
		return 0, invalidValue("%s is out of range.", name)
	}
	return int(n), nil
}

// oneOf accepts a string from allowed.
func oneOf(allowed ...string) converter[string] {
	return func(name string, value cty.Value) (string, *valueError) {
		s, problem := asString(name, value)
		if problem != nil {
			return "", problem
		}
		for _, a := range allowed {
			if s == a {
				return s, nil
			}
		}
		return "", invalidValue("%s must be one of %s, not %q.", name, quotedList(allowed), s)
	}
}

// sortedKeys returns a map's keys in order, for deterministic iteration.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
