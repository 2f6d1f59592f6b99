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
// needs that copy (a dev-dependency that depends on the package itself;
// SelfLocked names it). For Go, the module path of its root go.mod,
// unless its go.mod or go.sum name the module at a published version. A
// file that does not parse names nothing (cargo and the go command refuse
// it too).
func Own(language, dir string) []string {
	own, _ := ownAndSelfLocked(language, dir)
	return own
}

// SelfLocked returns, sorted, the tree's own packages that its own locked
// set also takes at a published version ("crate NAME@VERSION",
// "module PATH@VERSION"): a crate with a dev-dependency that depends on
// the crate itself, a module whose test dependency requires the module.
// Hiding cannot help such a tree, since its build reads that copy, and
// the copy is the complete source a task masks: task construction refuses
// the repository (steps/taskbuild).
func SelfLocked(language, dir string) []string {
	_, self := ownAndSelfLocked(language, dir)
	return self
}

func ownAndSelfLocked(language, dir string) (own, self []string) {
	switch language {
	case Go:
		return ownModule(dir)
	case Rust:
		return ownCrates(dir)
	}
	return nil, nil
}

// ownCrates is Own and SelfLocked for Rust.
func ownCrates(dir string) (own, self []string) {
	local := map[string]bool{}
	registry := map[string][]string{} // name → "name@version" of each registry copy
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
			registry[p.Name] = append(registry[p.Name], "crate "+p.Name+"@"+p.Version)
		}
	}
	for name := range local {
		if copies := registry[name]; len(copies) > 0 {
			self = append(self, copies...)
		} else {
			own = append(own, name)
		}
	}
	sort.Strings(own)
	sort.Strings(self)
	return own, compact(self)
}

// ownModule is Own and SelfLocked for Go.
func ownModule(dir string) (own, self []string) {
	b, err := readRegular(dir, "go.mod")
	if err != nil || b == nil {
		return nil, nil
	}
	path := modfile.ModulePath(b)
	if path == "" {
		return nil, nil
	}
	mod, err := readGoMod(dir)
	if err != nil || mod == nil {
		return nil, nil
	}
	sum, _ := readGoSum(dir)
	named := append([]string{}, mod.requires...)
	for m := range sum {
		named = append(named, m)
	}
	for _, m := range named {
		if p, _, _ := strings.Cut(m, "@"); p == path {
			self = append(self, "module "+m)
		}
	}
	if len(self) > 0 {
		sort.Strings(self)
		return nil, compact(self)
	}
	return []string{path}, nil
}
