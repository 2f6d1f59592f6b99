package golang

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// zeroOfPredeclared maps Go's predeclared types to their zero values.
var zeroOfPredeclared = map[string]string{
	"bool": "false", "string": `""`, "error": "nil", "any": "nil",
	"int": "0", "int8": "0", "int16": "0", "int32": "0", "int64": "0",
	"uint": "0", "uint8": "0", "uint16": "0", "uint32": "0", "uint64": "0", "uintptr": "0",
	"float32": "0", "float64": "0", "complex64": "0", "complex128": "0", "byte": "0", "rune": "0",
}

// zeroValue spells the zero value of a type expression. Types declared in
// the file are looked through; anything else unknown (a type of another
// file or package, a type parameter) gets *new(T), which is the zero value
// of every type.
func (m *goMasker) zeroValue(t ast.Expr, depth int) string {
	switch t := t.(type) {
	case *ast.ParenExpr:
		return m.zeroValue(t.X, depth)
	case *ast.StarExpr, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return "nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return "nil"
		}
		return m.text(t) + "{}"
	case *ast.StructType:
		return m.text(t) + "{}"
	case *ast.Ident:
		if t.Obj == nil {
			if z, ok := zeroOfPredeclared[t.Name]; ok {
				return z
			}
		}
		if spec := m.typeSpec(t.Name); spec != nil && spec.TypeParams == nil && depth < 8 {
			// nil, 0, "" and false convert to the named type; a composite
			// zero is spelled with the type's own name.
			switch z := m.zeroValue(spec.Type, depth+1); {
			case strings.HasSuffix(z, "{}"):
				return t.Name + "{}"
			case !strings.HasPrefix(z, "*new("):
				return z
			}
		}
	}
	return "*new(" + m.text(t) + ")"
}

// typeSpec finds the package-level declaration of a type in the file.
func (m *goMasker) typeSpec(name string) *ast.TypeSpec {
	for _, d := range m.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
				return ts
			}
		}
	}
	return nil
}

// removeUnusedImports parses the masked text and removes the imports whose
// every use the masking took away. An import counts as used under its
// name or, without one, under the names its path suggests; one that looked
// unused before masking (a package named unlike its path) is left alone,
// since then the guess says nothing.
func (m *goMasker) removeUnusedImports(masked []byte) ([]byte, error) {
	fset := token.NewFileSet()
	after, err := parser.ParseFile(fset, m.path, masked, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("mask %s: masking produced unparsable Go (a masker bug): %w", m.path, err)
	}
	usesBefore, usesAfter := packageUses(m.file), packageUses(after)
	tf, lines := fset.File(after.Pos()), newLineIndex(masked)
	var edits []edit
	for _, d := range after.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		var dropped []*ast.ImportSpec
		for _, s := range g.Specs {
			spec := s.(*ast.ImportSpec)
			names := importNames(spec)
			if names == nil {
				continue
			}
			var firstUse token.Pos
			for _, n := range names {
				if p := m.firstMaskedUse(usesBefore[n]); p != token.NoPos && (firstUse == token.NoPos || p < firstUse) {
					firstUse = p
				}
			}
			stillUsed := false
			for _, n := range names {
				_, u := usesAfter[n]
				stillUsed = stillUsed || u
			}
			if firstUse == token.NoPos || stillUsed {
				continue
			}
			dropped = append(dropped, spec)
			m.actions = append(m.actions, Action{Region: m.regionOfOffset(m.off(firstUse)), Kind: lang.KindImport,
				Detail: "removed import " + spec.Path.Value + ": masking took its last use"})
		}
		switch {
		case len(dropped) == 0:
		case len(dropped) == len(g.Specs):
			// The blank line that set the declaration apart goes with it.
			e := lineSpan(tf, lines, g.Doc, g)
			if e.End < len(masked) && masked[e.End] == '\n' && e.Start > 0 && masked[e.Start-1] == '\n' {
				e.End++
			}
			edits = append(edits, e)
		default:
			for _, spec := range dropped {
				edits = append(edits, lineSpan(tf, lines, spec.Doc, spec))
			}
		}
	}
	out, err := applyEdits(masked, edits)
	if err != nil {
		return nil, fmt.Errorf("mask %s: %w", m.path, err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), m.path, out, parser.ImportsOnly); err != nil {
		return nil, fmt.Errorf("mask %s: removing imports produced unparsable Go (a masker bug): %w", m.path, err)
	}
	return out, nil
}

// firstMaskedUse returns the first of the use positions (in the original)
// that lies in a masked span, or NoPos when every use survived (then the
// import's name was not its real use in the first place).
func (m *goMasker) firstMaskedUse(uses []token.Pos) token.Pos {
	for _, p := range uses {
		if m.regionIndexOfOffset(m.off(p)) >= 0 {
			return p
		}
	}
	return token.NoPos
}

func (m *goMasker) regionIndexOfOffset(off int) int {
	for i, e := range m.edits {
		if e.Start <= off && off < e.End {
			return i
		}
	}
	return -1
}

func (m *goMasker) regionOfOffset(off int) schemas.Region {
	if i := m.regionIndexOfOffset(off); i >= 0 {
		return m.editRegions[i]
	}
	return schemas.Region{}
}

// lineSpan is the edit removing node n with its doc comment: whole lines
// when n has them to itself, else n's text.
func lineSpan(tf *token.File, lines lineIndex, doc *ast.CommentGroup, n ast.Node) edit {
	startPos := n.Pos()
	if doc != nil {
		startPos = doc.Pos()
	}
	start, end := tf.Offset(startPos), tf.Offset(n.End())
	rest := strings.TrimSpace(string(lines.RestOfLine(end)))
	if lines.BlankBefore(start) && (rest == "" || strings.HasPrefix(rest, "//")) {
		return edit{Start: lines.Start(lines.LineOf(start)), End: lines.End(lines.LineOf(end)), Text: ""}
	}
	return edit{Start: start, End: end, Text: ""}
}

// packageUses maps each identifier used as the X of a selector and bound
// to nothing in the file (so: an imported package) to its positions.
func packageUses(f *ast.File) map[string][]token.Pos {
	uses := map[string][]token.Pos{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				uses[id.Name] = append(uses[id.Name], id.Pos())
			}
		}
		return true
	})
	return uses
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// importNames returns the names an import may be used under, or nil for
// imports that are never removed: blank, dot and cgo imports.
func importNames(spec *ast.ImportSpec) []string {
	path, err := strconv.Unquote(spec.Path.Value)
	if err != nil || path == "C" {
		return nil
	}
	if spec.Name != nil {
		if spec.Name.Name == "_" || spec.Name.Name == "." {
			return nil
		}
		return []string{spec.Name.Name}
	}
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if majorVersion.MatchString(last) && len(elems) > 1 {
		last = elems[len(elems)-2]
	}
	names := []string{last}
	trimmed := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(last, "go-"), "-go"), ".go")
	if i := strings.Index(trimmed, ".v"); i > 0 {
		trimmed = trimmed[:i] // gopkg.in/yaml.v3
	}
	return append(names, trimmed, strings.ReplaceAll(trimmed, "-", "_"))
}
