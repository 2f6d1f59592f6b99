package golang

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

var goSuffix = regexp.MustCompile(`_([a-z0-9]+)(?:_([a-z0-9]+))?(?:_test)?\.go$`)

// ReadEvidence is Go's verify front end (Language.Evidence): it reads a Go
// file with go/parser. Build constraints and file-name suffixes guard the
// whole file; if/else and switch statements on runtime.GOOS or the path
// separators guard their branches; selectors of OS-specific packages and
// names (verify_tables.go) and telling literals are the facts.
func ReadEvidence(file string, src []byte) (*evidence.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", file, err)
	}
	m := &evidence.File{Lines: evidence.CountLines(src)}
	line := func(p token.Pos) int { return fset.Position(p).Line }

	m.FileGuards = goFileGuards(file, f, line)
	consts := goConstEvidence(f, line)
	imports := goImports(f)
	resolve := func(e ast.Expr) string { return goSelectorKey(e, imports) }

	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				m.Funcs = append(m.Funcs, evidence.Func{Name: goFuncName(n), Doc: n.Doc.Text(),
					From: line(n.Pos()), To: line(n.End())})
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				m.Calls = append(m.Calls, evidence.Call{Callee: id.Name, Line: line(n.Pos())})
			}
		case *ast.IfStmt:
			// A capability probe (errors.Is(err, errors.ErrUnsupported))
			// guards its fallback like a platform test does.
			if goIsPlatformTest(n.Cond, resolve) || goIsProbe(n.Cond, resolve) {
				cond := goText(src, fset, n.Cond)
				key := fmt.Sprintf("if:%d", line(n.Pos()))
				m.Spans = append(m.Spans, evidence.GuardSpan{From: line(n.Body.Lbrace), To: line(n.Body.Rbrace),
					Guard: evidence.Guard{Line: line(n.Cond.Pos()), Text: cond, Cond: key, Strength: 0.85}})
				if n.Else != nil {
					m.Spans = append(m.Spans, evidence.GuardSpan{From: line(n.Else.Pos()), To: line(n.Else.End()),
						Guard: evidence.Guard{Line: line(n.Cond.Pos()), Text: "else of " + cond, Cond: key, Strength: 0.8}})
				}
			}
		case *ast.BlockStmt:
			goEarlyReturnGuards(m, n, src, fset, resolve)
		case *ast.SwitchStmt:
			goSwitchGuards(m, n, src, fset, resolve)
		case *ast.SelectorExpr:
			key := resolve(n)
			if e, ok := lookupSelector(key); ok {
				e.Line, e.What = line(n.Pos()), goText(src, fset, n)
				m.Facts = append(m.Facts, e)
			}
		case *ast.Ident:
			for _, e := range consts[n.Name] {
				if line(n.Pos()) != e.Line {
					e.Line, e.What = line(n.Pos()), n.Name+" (= "+e.What+")"
					m.Facts = append(m.Facts, e)
				}
			}
		case *ast.BasicLit:
			for _, e := range goLiteralEvidence(n) {
				e.Line = line(n.Pos())
				m.Facts = append(m.Facts, e)
			}
		}
		return true
	})
	return m, nil
}

// goConstEvidence finds the package-level constants and variables of the
// file initialised with a telling literal (const CRLF = "\r\n"), so that
// code using the name counts as using the literal. The evidence keeps the
// line of the declaration, which ReadEvidence uses to skip the declaration itself.
func goConstEvidence(f *ast.File, line func(token.Pos) int) map[string][]evidence.Fact {
	out := map[string][]evidence.Fact{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
			continue
		}
		for _, s := range gd.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) {
				continue
			}
			for i, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok {
					continue
				}
				for _, e := range goLiteralEvidence(lit) {
					e.Line = line(vs.Names[i].Pos())
					out[vs.Names[i].Name] = append(out[vs.Names[i].Name], e)
				}
			}
		}
	}
	return out
}

func goFileGuards(file string, f *ast.File, line func(token.Pos) int) []evidence.Guard {
	var gs []evidence.Guard
	if sm := goSuffix.FindStringSubmatch(path.Base(file)); sm != nil {
		// name_GOOS.go, name_GOARCH.go or name_GOOS_GOARCH.go.
		if goosNames[sm[1]] && (sm[2] == "" || !goosNames[sm[2]]) {
			gs = append(gs, evidence.Guard{Text: "the _" + sm[1] + ".go file suffix", Strength: 0.85})
		}
	}
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			platform := false
			expr.Eval(func(tag string) bool {
				platform = platform || goosNames[tag]
				return true
			})
			if platform {
				gs = append(gs, evidence.Guard{Line: line(c.Pos()), Text: c.Text, Strength: 0.85})
			}
		}
	}
	return gs
}

// goEarlyReturnGuards: `if runtime.GOOS == "windows" { …; return }` with
// no else guards the rest of its block as much as an else would, since
// that code runs only when the condition is false. Real libraries write
// platform code this way as often as with else.
func goEarlyReturnGuards(m *evidence.File, b *ast.BlockStmt, src []byte, fset *token.FileSet, resolve func(ast.Expr) string) {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	for i, st := range b.List {
		n, ok := st.(*ast.IfStmt)
		if !ok || n.Else != nil || i+1 == len(b.List) || !goTerminates(n.Body) {
			continue
		}
		if !goIsPlatformTest(n.Cond, resolve) {
			continue
		}
		cond := goText(src, fset, n.Cond)
		m.Spans = append(m.Spans, evidence.GuardSpan{From: line(b.List[i+1].Pos()), To: line(b.Rbrace),
			Guard: evidence.Guard{Line: line(n.Cond.Pos()), Text: "after " + cond + " returned early", Cond: fmt.Sprintf("if:%d", line(n.Pos())), Strength: 0.8}})
		return // a later guard of the same block is inside this span already
	}
}

// goTerminates reports whether a block always leaves its function or loop
// iteration: it ends in return, panic, a branch statement or os.Exit.
func goTerminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := last.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		switch f := call.Fun.(type) {
		case *ast.Ident:
			return f.Name == "panic"
		case *ast.SelectorExpr:
			if x, ok := f.X.(*ast.Ident); ok {
				return x.Name == "os" && f.Sel.Name == "Exit" || x.Name == "log" && strings.HasPrefix(f.Sel.Name, "Fatal")
			}
		}
	}
	return false
}

func goSwitchGuards(m *evidence.File, n *ast.SwitchStmt, src []byte, fset *token.FileSet, resolve func(ast.Expr) string) {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	tagged := n.Tag != nil && goIsPlatformTest(n.Tag, resolve)
	for _, st := range n.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok {
			continue
		}
		var text string
		switch {
		case tagged && cc.List == nil:
			text = "switch " + goText(src, fset, n.Tag) + " default"
		case tagged:
			text = "switch " + goText(src, fset, n.Tag) + " case " + goExprList(src, fset, cc.List)
		case cc.List != nil && goAnyPlatformTest(cc.List, resolve):
			text = "case " + goExprList(src, fset, cc.List)
		default:
			continue
		}
		m.Spans = append(m.Spans, evidence.GuardSpan{From: line(cc.Pos()), To: line(cc.End()),
			Guard: evidence.Guard{Line: line(cc.Pos()), Text: text, Cond: fmt.Sprintf("switch:%d", line(n.Pos())), Strength: 0.85}})
	}
}

func goAnyPlatformTest(es []ast.Expr, resolve func(ast.Expr) string) bool {
	for _, e := range es {
		if goIsPlatformTest(e, resolve) {
			return true
		}
	}
	return false
}

// goIsPlatformTest reports whether e reads runtime.GOOS or a path
// separator constant anywhere inside it.
func goIsPlatformTest(e ast.Expr, resolve func(ast.Expr) string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && goPlatformTests[resolve(sel)] {
			found = true
		}
		return !found
	})
	return found
}

// goIsProbe reports whether e tests for an unsupported operation.
func goIsProbe(e ast.Expr, resolve func(ast.Expr) string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if ev, ok := lookupSelector(resolve(sel)); ok && ev.Label == schemas.LabelOtherFeature {
				found = true
			}
		}
		return !found
	})
	return found
}

// goImports maps the names files use for their imports to import paths.
func goImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = p
	}
	return m
}

// goSelectorKey returns "importpath.Name" for pkg.Name selectors of an
// imported package, or "".
func goSelectorKey(e ast.Expr, imports map[string]string) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	p, ok := imports[id.Name]
	if !ok {
		return ""
	}
	return p + "." + sel.Sel.Name
}

// lookupSelector finds the evidence of an exact selector, then of its
// package ("syscall.*"), then of a parent package ("golang.org/x/text/encoding/*").
func lookupSelector(key string) (evidence.Fact, bool) {
	if key == "" {
		return evidence.Fact{}, false
	}
	if e, ok := goSelectors[key]; ok {
		return e, true
	}
	pkg := key[:strings.LastIndex(key, ".")]
	if e, ok := goSelectors[pkg+".*"]; ok {
		e.Portable = pkg == "syscall" && goPortableSyscall.MatchString(key[len(pkg)+1:])
		return e, true
	}
	for p := pkg; strings.Contains(p, "/"); {
		p = p[:strings.LastIndex(p, "/")]
		if e, ok := goSelectors[p+"/*"]; ok {
			return e, true
		}
	}
	return evidence.Fact{}, false
}

func goLiteralEvidence(lit *ast.BasicLit) []evidence.Fact {
	if lit.Kind != token.STRING && lit.Kind != token.CHAR {
		return nil
	}
	value, err := strconv.Unquote(lit.Value) // handles 'c' literals too
	if err != nil {
		return nil
	}
	return evidence.Literal(value, lit.Value)
}

func goFuncName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

func goText(src []byte, fset *token.FileSet, n ast.Node) string {
	from, to := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
	if from < 0 || to > len(src) || from > to {
		return ""
	}
	return strings.Join(strings.Fields(string(src[from:to])), " ")
}

func goExprList(src []byte, fset *token.FileSet, es []ast.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = goText(src, fset, e)
	}
	return strings.Join(parts, ", ")
}
