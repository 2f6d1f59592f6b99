package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// A Go placeholder returns an error with lang.NeutralError as its message when
// its function has an error result: callers check it before they use the
// other results, so a masked function fails its callers by their own error
// handling instead of handing them a nil pointer to dereference or a false
// "not yet" to retry forever. Every language's placeholders use the same
// message (plugins/lang).
//
// placeholderReturn is the return statement of a placeholder: the values
// of resultValues, except that a last result of type error gets
// errors.New(lang.NeutralError). A function with named results keeps a
// bare return when every value is its result's zero value.
//
// The coarse mode returns nil for the error: it is the retry of a mask
// whose target run crashed or hung, and what crashes on the neutral error
// is code that panics on any error (a test's if err != nil { panic(err) }),
// which a nil error lets fail by assertion. A nil error says the call
// worked, so the coarse mode's bool results say so too (true): false with
// a nil error is the "not yet" a polling caller (TryLockContext around
// TryLock) retries forever, while true lets the caller go on and find the
// effect missing.
func (m *goMasker) placeholderReturn(fn *ast.FuncType) string {
	if fn.Results == nil || len(fn.Results.List) == 0 {
		return "return"
	}
	types := resultTypes(fn)
	withError := isErrorType(types[len(types)-1])
	values, allZero := m.resultValues(fn, types, m.coarse && withError)
	if withError && !m.coarse {
		if pkg, ok := m.errorsPackage(fn); ok {
			values[len(values)-1] = pkg + "New(" + strconv.Quote(lang.NeutralError) + ")"
			allZero = false
		}
	}
	if allZero && len(fn.Results.List[0].Names) > 0 {
		return "return"
	}
	return "return " + strings.Join(values, ", ")
}

// resultTypes lists fn's result types, one per result.
func resultTypes(fn *ast.FuncType) []ast.Expr {
	var types []ast.Expr
	for _, f := range fn.Results.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			types = append(types, f.Type)
		}
	}
	return types
}

// isErrorType reports whether t is the predeclared error.
func isErrorType(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "error" && id.Obj == nil
}

// resultValues spells the placeholder's value of each result: its zero
// value, except that an interface of the package gets a zero value of a
// type of the package implementing it (iface.go) and, with boolsTrue, a
// bool gets true. allZero reports whether every value is the zero value.
func (m *goMasker) resultValues(fn *ast.FuncType, types []ast.Expr, boolsTrue bool) (values []string, allZero bool) {
	allZero = true
	for _, t := range types {
		v := m.zeroValue(t, 0)
		if id, ok := ast.Unparen(t).(*ast.Ident); ok {
			switch {
			case boolsTrue && id.Name == "bool" && id.Obj == nil:
				v, allZero = "true", false
			case id.Obj == nil || id.Obj.Kind == ast.Typ:
				if impl, typ, ok := m.pkg.implementation(id.Name); ok && m.unshadowed(typ, fn) {
					v, allZero = impl, false
				}
			}
		}
		values = append(values, v)
	}
	return values, allZero
}

// errorsPackage returns how the placeholder spells the errors package
// ("errors." or the import's own name), importing it when the file does
// not (addErrorsImport). It fails when the name would be shadowed: a
// package-level declaration or one of fn's parameters or results named
// errors.
func (m *goMasker) errorsPackage(fn *ast.FuncType) (string, bool) {
	for _, imp := range m.file.Imports {
		if imp.Path.Value != `"errors"` {
			continue
		}
		switch {
		case imp.Name == nil:
			return "errors.", m.unshadowed("errors", fn)
		case imp.Name.Name == ".":
			return "", false
		case imp.Name.Name != "_":
			return imp.Name.Name + ".", m.unshadowed(imp.Name.Name, fn)
		}
	}
	if m.file.Scope.Lookup("errors") != nil || !m.unshadowed("errors", fn) {
		return "", false
	}
	for _, id := range m.file.Unresolved {
		if id.Name == "errors" {
			return "", false // an errors of another file of the package
		}
	}
	m.needErrors = true
	return "errors.", true
}

// unshadowed reports whether no parameter or result of fn is named name.
func (m *goMasker) unshadowed(name string, fn *ast.FuncType) bool {
	for _, list := range []*ast.FieldList{fn.TypeParams, fn.Params, fn.Results} {
		if list == nil {
			continue
		}
		for _, f := range list.List {
			for _, n := range f.Names {
				if n.Name == name {
					return false
				}
			}
		}
	}
	return true
}

// addErrorsImport is the insertion that imports "errors" for the
// placeholders, where gofmt would keep it: in sorted position in the first
// group of the first parenthesized import declaration, or as a
// declaration of its own after the imports (or the package clause).
func (m *goMasker) addErrorsImport() edit {
	var after ast.Node = m.file.Name
	for _, d := range m.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		if g.Lparen.IsValid() && len(g.Specs) > 0 && !isCgoImport(g) {
			return m.insertSpec(g)
		}
		after = g
	}
	end := m.off(after.End())
	return edit{Start: end, End: end, Text: "\n\nimport \"errors\""}
}

func isCgoImport(g *ast.GenDecl) bool {
	for _, s := range g.Specs {
		if s.(*ast.ImportSpec).Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// insertSpec inserts the errors import into the first group of g: before
// the first spec sorting after it, or after the group's last spec.
func (m *goMasker) insertSpec(g *ast.GenDecl) edit {
	prevLine := 0
	var last *ast.ImportSpec
	for _, s := range g.Specs {
		spec := s.(*ast.ImportSpec)
		line := m.line(spec.Pos())
		if last != nil && line > prevLine+1 {
			break // a blank line ends the group
		}
		if spec.Path.Value > `"errors"` && m.lines.BlankBefore(m.off(spec.Pos())) {
			start := m.lines.Start(line)
			return edit{Start: start, End: start, Text: m.lines.Indent(line) + "\"errors\"\n"}
		}
		last, prevLine = spec, m.line(spec.End())
	}
	line := m.line(last.End())
	end := m.lines.End(line)
	return edit{Start: end, End: end, Text: m.lines.Indent(line) + "\"errors\"\n"}
}
