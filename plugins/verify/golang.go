package verify

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

	"github.com/osbench/osbench/schemas"
)

// goosNames are the GOOS values and the OS families used in build tags and
// file-name suffixes ("unix" and "bsd" are conventions, not GOOS values,
// but real repositories use them in file names).
var goosNames = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true,
	"zos": true, "unix": true, "bsd": true, "posix": true,
}

// goSelectors maps "importpath.Name" (or "importpath.*") to evidence.
var goSelectors = map[string]evidence{
	"runtime.GOOS":                        {label: schemas.LabelConditional, group: "platform_switch", weight: 0.85},
	"path/filepath.Separator":             {label: schemas.LabelPath, group: "path_separators", weight: 1},
	"path/filepath.ListSeparator":         {label: schemas.LabelPath, group: "path_lists", weight: 1},
	"os.PathSeparator":                    {label: schemas.LabelPath, group: "path_separators", weight: 1},
	"os.PathListSeparator":                {label: schemas.LabelPath, group: "path_lists", weight: 1},
	"path/filepath.VolumeName":            {label: schemas.LabelPath, group: "drive_letters", weight: 1},
	"os.UserHomeDir":                      {label: schemas.LabelPath, group: "home_dir", weight: 1},
	"os.UserConfigDir":                    {label: schemas.LabelPath, group: "config_dir", weight: 1},
	"os.UserCacheDir":                     {label: schemas.LabelPath, group: "cache_dir", weight: 1},
	"os.TempDir":                          {label: schemas.LabelPath, group: "temp_dir", weight: 0.8},
	"unicode/utf16.*":                     {label: schemas.LabelEncoding, group: "utf16_strings", weight: 1},
	"syscall.UTF16FromString":             {label: schemas.LabelEncoding, group: "utf16_strings", weight: 0.5},
	"syscall.UTF16PtrFromString":          {label: schemas.LabelEncoding, group: "utf16_strings", weight: 0.5},
	"syscall.UTF16ToString":               {label: schemas.LabelEncoding, group: "utf16_strings", weight: 0.5},
	"syscall.Getenv":                      {label: schemas.LabelAPI, group: "environment", weight: 0.3},
	"syscall.GetFileAttributes":           {label: schemas.LabelAPI, group: "file_attributes", weight: 1},
	"syscall.SetFileAttributes":           {label: schemas.LabelAPI, group: "file_attributes", weight: 1},
	"syscall.FILE_ATTRIBUTE_HIDDEN":       {label: schemas.LabelAPI, group: "file_attributes", weight: 1},
	"syscall.FILE_ATTRIBUTE_READONLY":     {label: schemas.LabelAPI, group: "file_attributes", weight: 1},
	"syscall.Stat":                        {label: schemas.LabelAPI, group: "file_metadata", weight: 1},
	"syscall.Stat_t":                      {label: schemas.LabelAPI, group: "file_metadata", weight: 1},
	"syscall.Getuid":                      {label: schemas.LabelAPI, group: "file_permissions", weight: 1},
	"syscall.Getgid":                      {label: schemas.LabelAPI, group: "file_permissions", weight: 1},
	"syscall.Getgroups":                   {label: schemas.LabelAPI, group: "file_permissions", weight: 1},
	"syscall.ENOSYS":                      {label: schemas.LabelOtherFeature, group: "unsupported_fallback", weight: 1},
	"syscall.ENOTSUP":                     {label: schemas.LabelOtherFeature, group: "unsupported_fallback", weight: 1},
	"syscall.EOPNOTSUPP":                  {label: schemas.LabelOtherFeature, group: "unsupported_fallback", weight: 1},
	"syscall.*":                           {label: schemas.LabelAPI, group: "syscalls", weight: 0.7},
	"golang.org/x/sys/unix.*":             {label: schemas.LabelAPI, group: "syscalls", weight: 1},
	"golang.org/x/sys/windows.*":          {label: schemas.LabelAPI, group: "win32_api", weight: 1},
	"golang.org/x/sys/windows/registry.*": {label: schemas.LabelAPI, group: "registry", weight: 1},
	"os/user.*":                           {label: schemas.LabelAPI, group: "user_accounts", weight: 1},
	"errors.ErrUnsupported":               {label: schemas.LabelOtherFeature, group: "unsupported_fallback", weight: 1},
	"golang.org/x/text/encoding/*":        {label: schemas.LabelEncoding, group: "code_pages", weight: 1},
}

// goPlatformTests are the selectors whose presence in a condition makes it
// a platform test.
var goPlatformTests = map[string]bool{
	"runtime.GOOS": true, "path/filepath.Separator": true, "path/filepath.ListSeparator": true,
	"os.PathSeparator": true, "os.PathListSeparator": true,
}

// goPortableSyscall matches the syscall names every GOOS defines: the
// errno constants (Windows has invented values for them) and the signals.
var goPortableSyscall = regexp.MustCompile(`^(E[A-Z0-9]+|SIG[A-Z0-9]+|Errno|Signal)$`)

var goSuffix = regexp.MustCompile(`_([a-z0-9]+)(?:_([a-z0-9]+))?(?:_test)?\.go$`)

// readGo reads a Go file with go/parser: build constraints and file-name
// suffixes guard the whole file; if/else and switch statements on
// runtime.GOOS or the path separators guard their branches; selectors and
// literals are the evidence.
func readGo(file string, src []byte) (*fileModel, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", file, err)
	}
	m := &fileModel{lines: countLines(src)}
	line := func(p token.Pos) int { return fset.Position(p).Line }

	m.fileGuards = goFileGuards(file, f, line)
	consts := goConstEvidence(f, line)
	imports := goImports(f)
	resolve := func(e ast.Expr) string { return goSelectorKey(e, imports) }

	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				m.funcs = append(m.funcs, funcSpan{name: goFuncName(n), doc: n.Doc.Text(),
					from: line(n.Pos()), to: line(n.End())})
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				m.calls = append(m.calls, callSite{callee: id.Name, line: line(n.Pos())})
			}
		case *ast.IfStmt:
			// A capability probe (errors.Is(err, errors.ErrUnsupported))
			// guards its fallback like a platform test does.
			if goIsPlatformTest(n.Cond, resolve) || goIsProbe(n.Cond, resolve) {
				cond := goText(src, fset, n.Cond)
				key := fmt.Sprintf("if:%d", line(n.Pos()))
				m.spans = append(m.spans, guardSpan{from: line(n.Body.Lbrace), to: line(n.Body.Rbrace),
					guard: guard{line: line(n.Cond.Pos()), text: cond, cond: key, strength: 0.85}})
				if n.Else != nil {
					m.spans = append(m.spans, guardSpan{from: line(n.Else.Pos()), to: line(n.Else.End()),
						guard: guard{line: line(n.Cond.Pos()), text: "else of " + cond, cond: key, strength: 0.8}})
				}
			}
		case *ast.BlockStmt:
			goEarlyReturnGuards(m, n, src, fset, resolve)
		case *ast.SwitchStmt:
			goSwitchGuards(m, n, src, fset, resolve)
		case *ast.SelectorExpr:
			key := resolve(n)
			if e, ok := lookupSelector(key); ok {
				e.line, e.what = line(n.Pos()), goText(src, fset, n)
				m.evidence = append(m.evidence, e)
			}
		case *ast.Ident:
			for _, e := range consts[n.Name] {
				if line(n.Pos()) != e.line {
					e.line, e.what = line(n.Pos()), n.Name+" (= "+e.what+")"
					m.evidence = append(m.evidence, e)
				}
			}
		case *ast.BasicLit:
			for _, e := range goLiteralEvidence(n) {
				e.line = line(n.Pos())
				m.evidence = append(m.evidence, e)
			}
		}
		return true
	})
	return m, nil
}

// goConstEvidence finds the package-level constants and variables of the
// file initialised with a telling literal (const CRLF = "\r\n"), so that
// code using the name counts as using the literal. The evidence keeps the
// line of the declaration, which readGo uses to skip the declaration itself.
func goConstEvidence(f *ast.File, line func(token.Pos) int) map[string][]evidence {
	out := map[string][]evidence{}
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
					e.line = line(vs.Names[i].Pos())
					out[vs.Names[i].Name] = append(out[vs.Names[i].Name], e)
				}
			}
		}
	}
	return out
}

func goFileGuards(file string, f *ast.File, line func(token.Pos) int) []guard {
	var gs []guard
	if sm := goSuffix.FindStringSubmatch(path.Base(file)); sm != nil {
		// name_GOOS.go, name_GOARCH.go or name_GOOS_GOARCH.go.
		if goosNames[sm[1]] && (sm[2] == "" || !goosNames[sm[2]]) {
			gs = append(gs, guard{text: "the _" + sm[1] + ".go file suffix", strength: 0.85})
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
				gs = append(gs, guard{line: line(c.Pos()), text: c.Text, strength: 0.85})
			}
		}
	}
	return gs
}

// goEarlyReturnGuards: `if runtime.GOOS == "windows" { …; return }` with
// no else guards the rest of its block as much as an else would, since
// that code runs only when the condition is false. Real libraries write
// platform code this way as often as with else.
func goEarlyReturnGuards(m *fileModel, b *ast.BlockStmt, src []byte, fset *token.FileSet, resolve func(ast.Expr) string) {
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
		m.spans = append(m.spans, guardSpan{from: line(b.List[i+1].Pos()), to: line(b.Rbrace),
			guard: guard{line: line(n.Cond.Pos()), text: "after " + cond + " returned early", cond: fmt.Sprintf("if:%d", line(n.Pos())), strength: 0.8}})
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

func goSwitchGuards(m *fileModel, n *ast.SwitchStmt, src []byte, fset *token.FileSet, resolve func(ast.Expr) string) {
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
		m.spans = append(m.spans, guardSpan{from: line(cc.Pos()), to: line(cc.End()),
			guard: guard{line: line(cc.Pos()), text: text, cond: fmt.Sprintf("switch:%d", line(n.Pos())), strength: 0.85}})
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
			if ev, ok := lookupSelector(resolve(sel)); ok && ev.label == schemas.LabelOtherFeature {
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
func lookupSelector(key string) (evidence, bool) {
	if key == "" {
		return evidence{}, false
	}
	if e, ok := goSelectors[key]; ok {
		return e, true
	}
	pkg := key[:strings.LastIndex(key, ".")]
	if e, ok := goSelectors[pkg+".*"]; ok {
		e.portable = pkg == "syscall" && goPortableSyscall.MatchString(key[len(pkg)+1:])
		return e, true
	}
	for p := pkg; strings.Contains(p, "/"); {
		p = p[:strings.LastIndex(p, "/")]
		if e, ok := goSelectors[p+"/*"]; ok {
			return e, true
		}
	}
	return evidence{}, false
}

func goLiteralEvidence(lit *ast.BasicLit) []evidence {
	if lit.Kind != token.STRING && lit.Kind != token.CHAR {
		return nil
	}
	value, err := strconv.Unquote(lit.Value) // handles 'c' literals too
	if err != nil {
		return nil
	}
	return literalEvidence(value, lit.Value)
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

// countLines counts lines the way editors number them: a final line
// without a newline still counts.
func countLines(src []byte) int {
	n := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
