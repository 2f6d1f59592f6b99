package gotest

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// goBuildContext is the build context the go command will use for the
// platform: GOARCH and CGO_ENABLED as the step's environment sets them,
// else the go command's own defaults (the host's architecture; cgo only
// when building for the host's OS).
func goBuildContext(platform string, env map[string]string) build.Context {
	bctx := build.Default
	bctx.GOOS = platform
	if arch := env["GOARCH"]; arch != "" {
		bctx.GOARCH = arch
	} else {
		bctx.GOARCH = runtime.GOARCH
	}
	switch env["CGO_ENABLED"] {
	case "0":
		bctx.CgoEnabled = false
	case "1":
		bctx.CgoEnabled = true
	default:
		bctx.CgoEnabled = build.Default.CgoEnabled && platform == runtime.GOOS
	}
	return bctx
}

// expectedTests lists the tests a suite should report, so the parser can
// tell "never ran" (missing) and "package did not build" (build-failed) from
// "passed": top-level TestXxx functions of the _test.go files that build
// constraints select for the platform.
func expectedTests(repo, platform string, env map[string]string) ([]string, error) {
	ids, _, err := goTests(repo, platform, env)
	return ids, err
}

// goTests lists the Go tests of the root module, and the directory
// (slash-separated, relative to repo) of each package that has tests, by
// import path.
func goTests(repo, platform string, env map[string]string) ([]string, map[string]string, error) {
	bctx := goBuildContext(platform, env)
	modules := map[string]string{} // dir (slash, relative) → module path
	var testDirs []string
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != repo && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(repo, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		switch {
		case d.Name() == "go.mod":
			b, err := os.ReadFile(p)
			if err == nil {
				if mp := modfile.ModulePath(b); mp != "" {
					modules[rel] = mp
				}
			}
		case strings.HasSuffix(d.Name(), "_test.go"):
			if len(testDirs) == 0 || testDirs[len(testDirs)-1] != rel {
				testDirs = append(testDirs, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	dirs := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range testDirs {
		modDir, modPath, ok := owningModule(modules, dir)
		if !ok || modDir != "." {
			// Only the root module: `go test ./...` does not enter nested modules.
			continue
		}
		importPath := modPath
		if dir != "." {
			importPath = path.Join(modPath, strings.TrimPrefix(dir, modDir+"/"))
		}
		dirs[importPath] = dir
		abs := filepath.Join(repo, filepath.FromSlash(dir))
		entries, _ := os.ReadDir(abs)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			if ok, err := bctx.MatchFile(abs, e.Name()); err != nil || !ok {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(abs, e.Name()), nil, parser.SkipObjectResolution)
			if err != nil {
				continue // a syntax error surfaces as a build failure of the package
			}
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && isTestFunc(fn) {
					ids = append(ids, importPath+"/"+fn.Name.Name)
				}
			}
		}
	}
	sort.Strings(ids)
	return ids, dirs, nil
}

// owningModule finds the nearest enclosing go.mod of dir.
func owningModule(modules map[string]string, dir string) (string, string, bool) {
	for d := dir; ; d = path.Dir(d) {
		if mp, ok := modules[d]; ok {
			return d, mp, true
		}
		if d == "." || d == "/" {
			return "", "", false
		}
	}
}

// isTestFunc matches what `go test` runs: func TestXxx(t *testing.T) where
// Xxx does not start with a lower-case letter.
func isTestFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if fn.Recv != nil || !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	if len(name) > 4 {
		r := name[4]
		if 'a' <= r && r <= 'z' {
			return false
		}
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}
