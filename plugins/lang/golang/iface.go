package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"unicode"
)

// A placeholder returning an interface of the package returns a zero value
// of a concrete type of the package that implements it, not nil: callers
// that note an error and go on (a test's t.Error(err) before it reads the
// result) call the result's methods, and a nil interface panics there and
// takes the rest of the test binary with it, where a zero value answers
// zero times and empty names that the caller's own checks reject. The
// implementation is found over the syntax: the method sets of the types
// declared in the masked file and in the files beside it that every
// platform compiles (no build constraint, no _GOOS or _GOARCH suffix, no
// cgo), methods promoted through embedded fields included, matched to the
// interface's methods by name and signature as written. When no type
// qualifies, or the interface embeds one from another package, the
// placeholder keeps nil.

// pkgFile is one parsed file of the package.
type pkgFile struct {
	src  []byte
	fset *token.FileSet
	file *ast.File
}

func (f *pkgFile) text(n ast.Node) string {
	return string(f.src[f.fset.Position(n.Pos()).Offset:f.fset.Position(n.End()).Offset])
}

// pkgType is a type declared in one of the package's files.
type pkgType struct {
	spec *ast.TypeSpec
	file *pkgFile
}

// pkgMethod is a method declared on a type of the package.
type pkgMethod struct {
	sig     string // signature as written, without names and spaces
	pointer bool   // declared on *T
}

// pkgDecls is what the masker knows of the file's package.
type pkgDecls struct {
	order   []string // type names, masked file first, then siblings by name
	types   map[string]pkgType
	methods map[string]map[string]pkgMethod // receiver type → method → method
	// resolved memoizes the selectors of the types whose walk met no
	// cycle (those are the same from wherever they are reached), so that
	// embeddings fanning out cost each type once; budget bounds the walk
	// of what the memo cannot hold.
	resolved map[setKey]map[string]selector
	budget   int
	ifaces   map[string]*ifaceMethods
}

type setKey struct {
	name    string
	pointer bool
}

// selector is what a name selects on a type: the shallowest fields and
// methods of that name, as the Go specification resolves x.f.
type selector struct {
	depth  int
	count  int // how many at that depth: more than one is ambiguous
	method bool
	sig    string
	inSet  bool // a method in the method set (receiver kind and path allow it)
}

type ifaceMethods struct {
	methods map[string]string
	known   bool
}

// newPkgDecls reads the declarations of file (parsed from src) and of the
// siblings every platform compiles that belong to its package.
func newPkgDecls(fset *token.FileSet, file *ast.File, src []byte, path string, dir map[string][]byte) *pkgDecls {
	p := &pkgDecls{types: map[string]pkgType{}, methods: map[string]map[string]pkgMethod{},
		resolved: map[setKey]map[string]selector{}, budget: 10000, ifaces: map[string]*ifaceMethods{}}
	p.add(&pkgFile{src: src, fset: fset, file: file})
	self := path[strings.LastIndex(path, "/")+1:]
	names := make([]string, 0, len(dir))
	for name := range dir {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == self || !compiledEverywhere(name, dir[name]) {
			continue
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, name, dir[name], parser.SkipObjectResolution)
		if err != nil || f.Name.Name != file.Name.Name || importsC(f) {
			continue
		}
		p.add(&pkgFile{src: dir[name], fset: fs, file: f})
	}
	return p
}

func (p *pkgDecls) add(f *pkgFile) {
	for _, d := range f.file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				if _, seen := p.types[ts.Name.Name]; seen || ts.Assign.IsValid() || ts.TypeParams != nil {
					continue
				}
				p.types[ts.Name.Name] = pkgType{spec: ts, file: f}
				p.order = append(p.order, ts.Name.Name)
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			recv, pointer := d.Recv.List[0].Type, false
			if star, ok := recv.(*ast.StarExpr); ok {
				recv, pointer = star.X, true
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				continue // a generic receiver, T[P]
			}
			if p.methods[id.Name] == nil {
				p.methods[id.Name] = map[string]pkgMethod{}
			}
			p.methods[id.Name][d.Name.Name] = pkgMethod{sig: signature(f, d.Type), pointer: pointer}
		}
	}
}

// implementation returns the zero value of a concrete type of the package
// implementing the package's interface named name ("timespec{}",
// "new(conn)") and the type's name, or false.
func (p *pkgDecls) implementation(name string) (value, typ string, ok bool) {
	it, found := p.types[name]
	if !found {
		return "", "", false
	}
	if _, isInterface := it.spec.Type.(*ast.InterfaceType); !isInterface {
		return "", "", false
	}
	want, known := p.interfaceMethods(name)
	if !known || len(want) == 0 {
		return "", "", false
	}
	for _, tn := range p.order {
		t := p.types[tn]
		if _, isInterface := t.spec.Type.(*ast.InterfaceType); isInterface {
			continue
		}
		if set, ok := p.methodSet(tn, false); ok && covers(set, want) {
			if _, isStruct := t.spec.Type.(*ast.StructType); isStruct {
				return tn + "{}", tn, true
			}
			return "*new(" + tn + ")", tn, true
		}
		if set, ok := p.methodSet(tn, true); ok && covers(set, want) {
			return "new(" + tn + ")", tn, true
		}
	}
	return "", "", false
}

func covers(have, want map[string]string) bool {
	for name, sig := range want {
		if have[name] != sig {
			return false
		}
	}
	return true
}

// interfaceMethods returns the methods of the package's interface name,
// with those of the package's interfaces it embeds; false when it embeds
// anything else (another package's interface, a type set) or itself.
func (p *pkgDecls) interfaceMethods(name string) (map[string]string, bool) {
	if memo, seen := p.ifaces[name]; seen {
		if memo == nil {
			return nil, false // an embedding cycle: not valid Go
		}
		return memo.methods, memo.known
	}
	p.ifaces[name] = nil
	methods, known := p.readInterface(name)
	p.ifaces[name] = &ifaceMethods{methods: methods, known: known}
	return methods, known
}

func (p *pkgDecls) readInterface(name string) (map[string]string, bool) {
	t, ok := p.types[name]
	if !ok {
		return nil, false
	}
	it, ok := t.spec.Type.(*ast.InterfaceType)
	if !ok {
		return nil, false
	}
	methods := map[string]string{}
	for _, f := range it.Methods.List {
		if len(f.Names) > 0 {
			ft, ok := f.Type.(*ast.FuncType)
			if !ok {
				return nil, false
			}
			for _, n := range f.Names {
				methods[n.Name] = signature(t.file, ft)
			}
			continue
		}
		id, ok := f.Type.(*ast.Ident)
		if !ok {
			return nil, false
		}
		embedded, ok := p.interfaceMethods(id.Name)
		if !ok {
			return nil, false
		}
		for n, sig := range embedded {
			methods[n] = sig
		}
	}
	return methods, true
}

// methodSet returns the method set of type name (of *name with pointer),
// promoted methods included, as the Go specification builds it: a name
// goes to the shallowest field or method of that name, and one found twice
// at that depth is ambiguous and promotes nothing. ok is false when the
// set is not known: a struct embeds a type of another package, an
// interface, or an instance of a generic type (their methods are unknown
// here, or their zero value would panic when called), or the walk ran out
// of its budget.
func (p *pkgDecls) methodSet(name string, pointer bool) (map[string]string, bool) {
	sels, ok, _ := p.selectors(name, pointer, map[string]bool{})
	if !ok {
		return nil, false
	}
	set := map[string]string{}
	for n, sel := range sels {
		if sel.count == 1 && sel.method && sel.inSet {
			set[n] = sel.sig
		}
	}
	return set, true
}

// selectors resolves every name on type name. A type met again on the
// path that reached it adds nothing there (cut): whatever it holds is found
// shallower through its first occurrence, so the answer is exact, but it
// is not memoized, since from elsewhere the type's walk goes on.
func (p *pkgDecls) selectors(name string, pointer bool, onPath map[string]bool) (sels map[string]selector, ok, cut bool) {
	key := setKey{name, pointer}
	if memo, found := p.resolved[key]; found {
		return memo, true, false
	}
	if onPath[name] {
		return nil, true, true
	}
	if p.budget--; p.budget < 0 {
		return nil, false, false
	}
	onPath[name] = true
	defer delete(onPath, name)
	t, found := p.types[name]
	if !found {
		return nil, false, false
	}
	sels = map[string]selector{}
	add := func(n string, sel selector) {
		cur, seen := sels[n]
		switch {
		case !seen || sel.depth < cur.depth:
			sels[n] = sel
		case sel.depth == cur.depth:
			cur.count += sel.count
			sels[n] = cur
		}
	}
	switch typ := t.spec.Type.(type) {
	case *ast.InterfaceType:
		return nil, false, false
	case *ast.StructType:
		for _, f := range typ.Fields.List {
			for _, n := range f.Names {
				add(n.Name, selector{count: 1})
			}
			if len(f.Names) > 0 {
				continue
			}
			embedded, ptr := f.Type, pointer
			if star, isStar := embedded.(*ast.StarExpr); isStar {
				embedded, ptr = star.X, true
			}
			id, isIdent := embedded.(*ast.Ident)
			if !isIdent {
				return nil, false, false
			}
			add(id.Name, selector{count: 1})
			sub, known, subCut := p.selectors(id.Name, ptr, onPath)
			if !known {
				return nil, false, false
			}
			cut = cut || subCut
			for n, sel := range sub {
				sel.depth++
				add(n, sel)
			}
		}
	}
	for m, pm := range p.methods[name] {
		add(m, selector{count: 1, method: true, sig: pm.sig, inSet: pointer || !pm.pointer})
	}
	if !cut {
		p.resolved[key] = sels
	}
	return sels, true, cut
}

// signature spells a function type without parameter names or spaces:
// "(string,...int)(time.Time,error)".
func signature(f *pkgFile, ft *ast.FuncType) string {
	list := func(fl *ast.FieldList) string {
		if fl == nil {
			return ""
		}
		var types []string
		for _, field := range fl.List {
			n := len(field.Names)
			if n == 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				types = append(types, f.text(field.Type))
			}
		}
		return strings.Join(types, ",")
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, "("+list(ft.Params)+")("+list(ft.Results)+")")
}

// compiledEverywhere reports whether a file of the package is built on
// every platform: a Go file, not a test, without a build constraint or an
// OS or architecture suffix.
func compiledEverywhere(name string, src []byte) bool {
	if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
		return false
	}
	parts := strings.Split(strings.TrimSuffix(name, ".go"), "_")
	for _, p := range parts[1:] {
		if knownOS[p] || knownArch[p] {
			return false
		}
	}
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if strings.HasPrefix(line, "//go:build") || strings.HasPrefix(line, "// +build") {
			return false
		}
	}
	return true
}

func importsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// knownOS and knownArch are the values of GOOS and GOARCH a file name may
// end in (go/build's lists).
var (
	knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
		"linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos", "unix")
	knownArch = setOf("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips",
		"mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv",
		"riscv64", "s390", "s390x", "sparc", "sparc64", "wasm")
)

func setOf(names ...string) map[string]bool {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}
