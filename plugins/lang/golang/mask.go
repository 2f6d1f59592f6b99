package golang

// The use analysis resolves identifiers through the parser's ast.Object
// scopes. Their replacement, go/types, needs the file type-checked with its
// imports, which a file masked for another platform cannot be here.
//lint:file-ignore SA1019 ast.Object is the only resolution available without type-checking

import (
	"fmt"
	"github.com/osbench/osbench/plugins/lang"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// goRemoval is one span of a Go function that masking removes: a run of
// statements of one statement list, or everything between the braces of a
// function body. Spans are in offsets of the original source.
type goRemoval struct {
	kind   string         // lang.KindStatements or lang.KindFunctionBody
	stmts  []ast.Stmt     // the run (lang.KindStatements)
	body   *ast.BlockStmt // the body (lang.KindFunctionBody)
	fn     *ast.FuncType  // innermost function: what a placeholder return returns
	name   string         // function name, for Action.Detail
	region schemas.Region
	// early: the run ends in a return whatever it held (a run inside a
	// function the source compiles too).
	early bool
	// Filled by the use analysis: placeholder statements that keep the
	// function compiling ("var x T", "_ = x").
	decls, blanks []string
}

func (r *goRemoval) span() (token.Pos, token.Pos) {
	if r.kind == lang.KindFunctionBody {
		return r.body.Lbrace + 1, r.body.Rbrace
	}
	return r.stmts[0].Pos(), r.stmts[len(r.stmts)-1].End()
}

// goMasker masks one Go file; see the package comment for the rules.
type goMasker struct {
	path    string
	src     []byte
	tf      *token.File
	file    *ast.File
	lines   lineIndex
	regions []schemas.VerifiedRegion
	coarse  bool
	used    map[[2]int]bool // regions (start, end) that produced an action
	edits   []edit
	actions []Action
	// editRegions remembers which region each edit of the original came
	// from, so that an import removal can name the region that took its
	// last use.
	editRegions []schemas.Region
	// needErrors: a placeholder returns errors.New and the file does not
	// import errors; errorsRegion is the first region whose placeholder
	// does.
	needErrors   bool
	errorsRegion schemas.Region
	// pkg is the package's types and methods, for placeholders returning
	// an interface (iface.go).
	pkg *pkgDecls
}

// maskGo masks the file at path; dir holds the files beside it (lang.MaskInput.Dir).
func maskGo(path string, src []byte, regions []schemas.VerifiedRegion, coarse bool, dir map[string][]byte) (Output, error) {
	fset := token.NewFileSet()
	// Object resolution (ast.Ident.Obj) stays on: the masker sees one file
	// without its package, and the parser's per-file scoping is exactly
	// what deciding "which local variable is this" needs.
	file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return Output{}, fmt.Errorf("mask %s: %w", path, err)
	}
	m := &goMasker{
		path: path, src: src, tf: fset.File(file.Pos()), file: file,
		lines: newLineIndex(src), regions: regions, used: map[[2]int]bool{},
	}
	m.coarse = coarse
	m.pkg = newPkgDecls(fset, file, src, path, dir)
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				m.maskFunc(d.Name.Name, d.Type, d.Body)
			}
		case *ast.GenDecl:
			// Function literals of package-level variables are functions
			// of their own.
			ast.Inspect(d, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					m.maskFunc("func literal", lit.Type, lit.Body)
					return false
				}
				return true
			})
		}
	}
	if m.needErrors {
		m.edits = append(m.edits, m.addErrorsImport())
		m.editRegions = append(m.editRegions, m.errorsRegion)
		m.actions = append(m.actions, Action{Region: m.errorsRegion, Kind: lang.KindImport,
			Detail: `added import "errors": a placeholder returns errors.New("` + lang.NeutralError + `")`})
	}
	out, err := applyEdits(src, m.edits)
	if err != nil {
		return Output{}, fmt.Errorf("mask %s: %w", path, err)
	}
	if len(m.edits) > 0 {
		if out, err = m.removeUnusedImports(out); err != nil {
			return Output{}, err
		}
	}
	for _, r := range regions {
		if !m.used[[2]int{r.Start, r.End}] {
			m.actions = append(m.actions, Action{Region: r.Region, Kind: lang.KindUnmasked,
				Detail: "no whole statement or function body lies inside the region"})
		}
	}
	return Output{Source: out, Actions: m.actions}, nil
}

func (m *goMasker) line(p token.Pos) int { return m.tf.Line(p) }
func (m *goMasker) off(p token.Pos) int  { return m.tf.Offset(p) }
func (m *goMasker) text(n ast.Node) string {
	return string(m.src[m.off(n.Pos()):m.off(n.End())])
}

// covering returns the region holding every line of n, if any.
func (m *goMasker) covering(n ast.Node) (schemas.Region, bool) {
	first, last := m.line(n.Pos()), m.line(n.End()-1)
	for _, r := range m.regions {
		if r.Start <= first && last <= r.End {
			return r.Region, true
		}
	}
	return schemas.Region{}, false
}

// touching returns the regions sharing a line with n.
func (m *goMasker) touching(n ast.Node) []schemas.VerifiedRegion {
	first, last := m.line(n.Pos()), m.line(n.End()-1)
	var rs []schemas.VerifiedRegion
	for _, r := range m.regions {
		if r.Start <= last && first <= r.End {
			rs = append(rs, r)
		}
	}
	return rs
}

// coversAll reports whether a non-empty body has every statement inside a
// region, and returns the region of the first.
func (m *goMasker) coversAll(body *ast.BlockStmt) (schemas.Region, bool) {
	if len(body.List) == 0 {
		return schemas.Region{}, false
	}
	first, ok := m.covering(body.List[0])
	for _, s := range body.List[1:] {
		if _, c := m.covering(s); !c {
			return schemas.Region{}, false
		}
	}
	return first, ok
}

// maskFunc masks the regions touching one outermost function. A function
// only the target compiles loses its whole body as soon as a region covers
// one of its statements, so that no surviving statement depends on a
// removed one (a kept index after its removed length check, a loop whose
// exit was removed). In a function the source compiles too, each run of
// covered statements becomes an early return: the code after it, which
// may depend on the run, is never reached on the masked path.
func (m *goMasker) maskFunc(name string, typ *ast.FuncType, body *ast.BlockStmt) {
	touching := m.touching(body)
	if len(touching) == 0 {
		return
	}
	shared := false
	for _, r := range touching {
		shared = shared || r.SourceCompiled
	}
	if !shared {
		region, ok := m.bodyRegion(body, typ, name, touching)
		if ok {
			m.emit([]*goRemoval{{kind: lang.KindFunctionBody, body: body, fn: typ, name: name, region: region}}, "")
			m.markUsed(touching)
		}
		return
	}
	note := ""
	if m.coarse {
		// The body outside the regions is code the source runs, which
		// masking never changes.
		note = "coarse declined, the source platform compiles this function; "
	}
	if r, all := m.coversAll(body); all {
		m.emit([]*goRemoval{{kind: lang.KindFunctionBody, body: body, fn: typ, name: name, region: r}}, note)
		return
	}
	// Statements whose removal would leave a variable without a typed
	// declaration are kept; each round keeps at least one more, so this
	// ends.
	kept := map[ast.Stmt]bool{}
	for {
		var removals []*goRemoval
		m.collect(body.List, typ, name, kept, &removals)
		for _, r := range removals {
			r.early = true
		}
		stuck := m.analyseUses(body, removals)
		if stuck == nil {
			m.emit(removals, note)
			return
		}
		kept[stuck] = true
	}
}

// bodyRegion decides whether a function only the target compiles loses its
// body, and names the region the action is recorded under: with Coarse
// set, any region touching it; else one that covers a whole statement of
// it (or its whole body).
func (m *goMasker) bodyRegion(body *ast.BlockStmt, typ *ast.FuncType, name string, touching []schemas.VerifiedRegion) (schemas.Region, bool) {
	if m.coarse {
		return touching[0].Region, true
	}
	if r, all := m.coversAll(body); all {
		return r, true
	}
	var removals []*goRemoval
	m.collect(body.List, typ, name, map[ast.Stmt]bool{}, &removals)
	if len(removals) == 0 {
		return schemas.Region{}, false
	}
	return removals[0].region, true
}

// markUsed records that the regions produced an action (the whole body
// that one of them caused covers them all).
func (m *goMasker) markUsed(rs []schemas.VerifiedRegion) {
	for _, r := range rs {
		m.used[[2]int{r.Start, r.End}] = true
	}
}

// collect finds the runs of covered statements in list, descending into
// the statements that are only partly covered.
func (m *goMasker) collect(list []ast.Stmt, fn *ast.FuncType, name string, kept map[ast.Stmt]bool, out *[]*goRemoval) {
	var run *goRemoval
	for _, s := range list {
		r, covered := m.covering(s)
		if covered && !kept[s] && !isClause(s) {
			if run == nil {
				run = &goRemoval{kind: lang.KindStatements, fn: fn, name: name, region: r}
				*out = append(*out, run)
			}
			run.stmts = append(run.stmts, s)
			continue
		}
		run = nil
		if len(m.touching(s)) > 0 {
			m.descend(s, fn, name, kept, out)
		}
	}
}

// descend looks for statement lists and function literals inside s.
func (m *goMasker) descend(s ast.Node, fn *ast.FuncType, name string, kept map[ast.Stmt]bool, out *[]*goRemoval) {
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if r, all := m.coversAll(n.Body); all {
				*out = append(*out, &goRemoval{kind: lang.KindFunctionBody, body: n.Body, fn: n.Type, name: "func literal in " + name, region: r})
			} else {
				m.collect(n.Body.List, n.Type, "func literal in "+name, kept, out)
			}
			return false
		case *ast.BlockStmt:
			m.collect(n.List, fn, name, kept, out)
			return false
		case *ast.CaseClause:
			m.collect(n.Body, fn, name, kept, out)
			return false
		case *ast.CommClause:
			m.collect(n.Body, fn, name, kept, out)
			return false
		}
		return true
	})
}

// isClause tells case and select clauses, which are kept (their bodies
// are masked), from statements.
func isClause(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// emit turns removals into edits and actions.
func (m *goMasker) emit(removals []*goRemoval, note string) {
	for _, r := range removals {
		needed := m.needErrors
		ph := r.placeholder(m)
		if m.needErrors && !needed {
			m.errorsRegion = r.region
		}
		var e edit
		var detail string
		if r.kind == lang.KindFunctionBody {
			e = m.bodyEdit(r.body, ph)
			detail = fmt.Sprintf("func %s: body replaced by %s", r.name, describe(ph))
		} else {
			e = m.stmtEdit(r.stmts, ph)
			detail = fmt.Sprintf("func %s: %d statement(s) on lines %d-%d replaced by %s", r.name, len(r.stmts),
				m.line(r.stmts[0].Pos()), m.line(r.stmts[len(r.stmts)-1].End()-1), describe(ph))
		}
		m.edits = append(m.edits, e)
		m.editRegions = append(m.editRegions, r.region)
		m.used[[2]int{r.region.Start, r.region.End}] = true
		m.actions = append(m.actions, Action{Region: r.region, Kind: r.kind, Detail: note + detail})
	}
	// A region may touch a function without covering any statement of it;
	// regions that produced nothing are reported by maskGo.
}

// placeholder returns the statements that stand in for the removal.
func (r *goRemoval) placeholder(m *goMasker) []string {
	ph := append(append([]string(nil), r.decls...), r.blanks...)
	ends := r.kind == lang.KindFunctionBody && r.fn.Results != nil && len(r.fn.Results.List) > 0
	if r.kind == lang.KindStatements {
		ends = r.early || isTerminating(r.stmts[len(r.stmts)-1], "")
	}
	if ends {
		ph = append(ph, m.placeholderReturn(r.fn))
	}
	return ph
}

// bodyEdit replaces everything between the braces of body.
func (m *goMasker) bodyEdit(body *ast.BlockStmt, ph []string) edit {
	start, end := m.off(body.Lbrace)+1, m.off(body.Rbrace)
	if m.line(body.Lbrace) == m.line(body.Rbrace) {
		if len(ph) == 0 {
			return edit{Start: start, End: end, Text: ""}
		}
		return edit{Start: start, End: end, Text: " " + strings.Join(ph, "; ") + " "}
	}
	indent := m.lines.Indent(m.line(body.Rbrace))
	var b strings.Builder
	b.WriteString("\n")
	for _, s := range ph {
		b.WriteString(indent + "\t" + s + "\n")
	}
	b.WriteString(indent)
	return edit{Start: start, End: end, Text: b.String()}
}

// stmtEdit removes a run of statements: whole lines when the run has its
// lines to itself, else only its text.
func (m *goMasker) stmtEdit(stmts []ast.Stmt, ph []string) edit {
	start, end := m.off(stmts[0].Pos()), m.off(stmts[len(stmts)-1].End())
	rest := strings.TrimSpace(string(m.lines.RestOfLine(end)))
	if m.lines.BlankBefore(start) && (rest == "" || strings.HasPrefix(rest, "//")) {
		first, last := m.lines.LineOf(start), m.lines.LineOf(end)
		indent := m.lines.Indent(first)
		var b strings.Builder
		for _, s := range ph {
			b.WriteString(indent + s + "\n")
		}
		return edit{Start: m.lines.Start(first), End: m.lines.End(last), Text: b.String()}
	}
	return edit{Start: start, End: end, Text: strings.Join(ph, "; ")}
}

// analyseUses finds what the removals of one function break and fills
// their decls and blanks: a variable declared in a removal and referred to
// outside gets "var x T"; a variable declared outside whose every use was
// removed gets "_ = x". It returns a statement that must be kept instead,
// when a needed declaration has no type the syntax tells.
func (m *goMasker) analyseUses(body *ast.BlockStmt, removals []*goRemoval) ast.Stmt {
	removalAt := func(p token.Pos) *goRemoval {
		for _, r := range removals {
			if s, e := r.span(); s <= p && p < e {
				return r
			}
		}
		return nil
	}
	type refs struct {
		obj           *ast.Object
		usedOutside   bool
		refOutside    bool
		firstUseInner token.Pos
	}
	byObj := map[*ast.Object]*refs{}
	var order []*refs
	assigned := assignedIdents(body)
	ast.Inspect(body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Obj == nil || id.Obj.Kind != ast.Var || id.Obj.Pos() == id.Pos() {
			return true
		}
		if _, param := id.Obj.Decl.(*ast.Field); param || !(body.Pos() <= id.Obj.Pos() && id.Obj.Pos() < body.End()) {
			return true
		}
		rf := byObj[id.Obj]
		if rf == nil {
			rf = &refs{obj: id.Obj}
			byObj[id.Obj] = rf
			order = append(order, rf)
		}
		inner := removalAt(id.Pos()) != nil
		use := !assigned[id]
		switch {
		case !inner:
			rf.refOutside = true
			rf.usedOutside = rf.usedOutside || use
		case use && rf.firstUseInner == token.NoPos:
			rf.firstUseInner = id.Pos()
		}
		return true
	})
	for _, r := range removals {
		r.decls, r.blanks = nil, nil
	}
	for _, rf := range order {
		name := rf.obj.Name
		if name == "_" {
			continue
		}
		declIn := removalAt(rf.obj.Pos())
		switch {
		case declIn != nil && rf.refOutside:
			typ, ok := m.declaredType(rf.obj)
			if !ok {
				return declaringStmt(declIn, rf.obj.Pos())
			}
			declIn.decls = append(declIn.decls, "var "+name+" "+typ)
			if !rf.usedOutside {
				declIn.blanks = append(declIn.blanks, "_ = "+name)
			}
		case declIn == nil && !rf.usedOutside && rf.firstUseInner != token.NoPos:
			r := removalAt(rf.firstUseInner)
			r.blanks = append(r.blanks, "_ = "+name)
		}
	}
	return nil
}

// declaringStmt returns the statement of a run that declares at p.
func declaringStmt(r *goRemoval, p token.Pos) ast.Stmt {
	for _, s := range r.stmts {
		if s.Pos() <= p && p < s.End() {
			return s
		}
	}
	return nil
}

// assignedIdents returns the identifiers that are only written: the bare
// left-hand sides of "=" and "op=" and the operands of "++" and "--",
// which the compiler does not count as uses.
func assignedIdents(n ast.Node) map[*ast.Ident]bool {
	set := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						set[id] = true
					}
				}
			}
		case *ast.IncDecStmt:
			if id, ok := s.X.(*ast.Ident); ok {
				set[id] = true
			}
		}
		return true
	})
	return set
}

// declaredType returns the type of a local variable as its declaration
// spells it or as its initial value shows it.
func (m *goMasker) declaredType(obj *ast.Object) (string, bool) {
	var value ast.Expr
	switch d := obj.Decl.(type) {
	case *ast.ValueSpec:
		if d.Type != nil {
			return m.text(d.Type), true
		}
		for i, n := range d.Names {
			if n.Name == obj.Name && len(d.Values) == len(d.Names) {
				value = d.Values[i]
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name == obj.Name && len(d.Rhs) == len(d.Lhs) {
				value = d.Rhs[i]
			}
		}
	}
	if value == nil {
		return "", false
	}
	return m.typeOfValue(value)
}

// typeOfValue reads the type of an expression off its syntax, for the few
// forms that spell it: literals, composite literals, &T{}, make, new and
// conversions to predeclared or literal types.
func (m *goMasker) typeOfValue(e ast.Expr) (string, bool) {
	switch v := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return map[token.Token]string{token.INT: "int", token.FLOAT: "float64", token.IMAG: "complex128",
			token.CHAR: "rune", token.STRING: "string"}[v.Kind], true
	case *ast.Ident:
		if v.Name == "true" || v.Name == "false" {
			return "bool", true
		}
	case *ast.CompositeLit:
		if v.Type != nil {
			return m.text(v.Type), true
		}
	case *ast.UnaryExpr:
		if lit, ok := v.X.(*ast.CompositeLit); ok && v.Op == token.AND && lit.Type != nil {
			return "*" + m.text(lit.Type), true
		}
	case *ast.CallExpr:
		if fun, ok := v.Fun.(*ast.Ident); ok && fun.Obj == nil && len(v.Args) > 0 {
			switch {
			case fun.Name == "make":
				return m.text(v.Args[0]), true
			case fun.Name == "new":
				return "*" + m.text(v.Args[0]), true
			case zeroOfPredeclared[fun.Name] != "":
				return fun.Name, true
			}
		}
		switch ast.Unparen(v.Fun).(type) {
		case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
			return m.text(v.Fun), true
		}
	}
	return "", false
}

// isTerminating reports whether s is a terminating statement in the sense
// of the Go specification; label is the label of s, if any.
func isTerminating(s ast.Stmt, label string) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := call.Fun.(*ast.Ident)
		return ok && id.Name == "panic" && id.Obj == nil
	case *ast.BlockStmt:
		return endsTerminating(s.List)
	case *ast.IfStmt:
		return s.Else != nil && isTerminating(s.Body, "") && isTerminating(s.Else, "")
	case *ast.ForStmt:
		return s.Cond == nil && !hasBreak(s.Body, label, true)
	case *ast.LabeledStmt:
		return isTerminating(s.Stmt, s.Label.Name)
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, label, true)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, label, true)
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, label, false)
	}
	return false
}

func endsTerminating(list []ast.Stmt) bool {
	return len(list) > 0 && isTerminating(list[len(list)-1], "")
}

// clausesTerminate checks the clauses of a switch (needDefault) or select.
func clausesTerminate(body *ast.BlockStmt, label string, needDefault bool) bool {
	hasDefault := false
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			list = c.Body
		case *ast.CommClause:
			list = c.Body
		}
		if hasBreak(&ast.BlockStmt{List: list}, label, true) {
			return false
		}
		if n := len(list); n > 0 {
			if b, ok := list[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				continue
			}
		}
		if !endsTerminating(list) {
			return false
		}
	}
	return hasDefault || !needDefault
}

// hasBreak reports whether n holds a break that leaves the statement whose
// body n is: an unlabelled one outside nested breakable statements
// (top), or one naming label.
func hasBreak(n ast.Node, label string, top bool) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *ast.BranchStmt:
			if x.Tok == token.BREAK && ((x.Label == nil && top) || (x.Label != nil && x.Label.Name == label)) {
				found = true
			}
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if x != n {
				found = found || (label != "" && hasBreak(bodyOf(x), label, false))
				return false
			}
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return found
}

func bodyOf(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	case *ast.SwitchStmt:
		return n.Body
	case *ast.TypeSwitchStmt:
		return n.Body
	case *ast.SelectStmt:
		return n.Body
	}
	return &ast.BlockStmt{}
}
