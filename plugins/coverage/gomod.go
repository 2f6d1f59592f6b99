package coverage

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModulesFromGoMod scans a directory tree for go.mod files and returns module
// path → repo-relative dir ("" for a go.mod at the top). It takes an fs.FS so
// callers can pass os.DirFS or an in-memory tree.
//
// Directories the go command ignores (testdata, vendor, names starting with
// "." or "_") are not searched: modules there are not part of the build. A
// go.mod without a module line is skipped. When two go.mod files declare the
// same module path the shallower directory wins (then the first in lexical
// order), so the answer never depends on walk order.
func ModulesFromGoMod(fsys fs.FS) (map[string]string, error) {
	modules := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && ignoredDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() != "go.mod" {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		modPath := modfile.ModulePath(data)
		if modPath == "" {
			return nil
		}
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		if other, dup := modules[modPath]; dup && !shallower(dir, other) {
			return nil
		}
		modules[modPath] = dir
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("finding go.mod files: %w", err)
	}
	return modules, nil
}

// ignoredDir reports whether the go command skips a directory of this name
// when it matches packages.
func ignoredDir(name string) bool {
	return name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// shallower orders repo-relative directories by depth, then lexically.
func shallower(a, b string) bool {
	depth := func(dir string) int {
		if dir == "" {
			return 0
		}
		return strings.Count(dir, "/") + 1
	}
	if da, db := depth(a), depth(b); da != db {
		return da < db
	}
	return a < b
}
