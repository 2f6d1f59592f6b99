package deps

import (
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"
)

// Own returns the names of the packages the tree at dir is, as a shared
// dependency cache would name them: for Rust, the package of its root
// Cargo.toml and the path packages of its Cargo.lock (the workspace's
// members). A cache that serves several repositories can hold a published
// version of one of them (a dependency of another repository), whose
// sources are the original of what a task masks; toolenv.Hide keeps
// them out of the tree's commands. The root manifest counts even without
// a lock, so a patch that deletes Cargo.lock hides nothing less. A name
// the lock also takes from a registry is left out: the tree's own build
// needs that copy (a dev-dependency that depends on the package itself).
// For Go, the module path of its root go.mod, unless its go.mod or
// go.sum name the module at a published version. A file that does not
// parse names nothing (cargo and the go command refuse it too).
func Own(language, dir string) []string {
	if language == Go {
		return ownModule(dir)
	}
	if language != Rust {
		return nil
	}
	local, registry := map[string]bool{}, map[string]bool{}
	var manifest struct {
		Package struct {
			Name string `toml:"name"`
		} `toml:"package"`
	}
	if b, err := readRegular(dir, "Cargo.toml"); err == nil && b != nil {
		if _, err := toml.Decode(string(b), &manifest); err == nil && manifest.Package.Name != "" {
			local[manifest.Package.Name] = true
		}
	}
	lock, _ := readCargoLock(dir)
	for _, p := range lock {
		if p.Source == "" {
			local[p.Name] = true
		} else {
			registry[p.Name] = true
		}
	}
	var own []string
	for name := range local {
		if !registry[name] {
			own = append(own, name)
		}
	}
	sort.Strings(own)
	return own
}

// ownModule is Own for Go.
func ownModule(dir string) []string {
	b, err := readRegular(dir, "go.mod")
	if err != nil || b == nil {
		return nil
	}
	path := modfile.ModulePath(b)
	if path == "" {
		return nil
	}
	mod, err := readGoMod(dir)
	if err != nil || mod == nil {
		return nil
	}
	sum, _ := readGoSum(dir)
	named := append([]string{}, mod.requires...)
	for m := range sum {
		named = append(named, m)
	}
	for _, m := range named {
		if p, _, _ := strings.Cut(m, "@"); p == path {
			return nil
		}
	}
	return []string{path}
}
