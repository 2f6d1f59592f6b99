package deps

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

type cargoPackage struct {
	Name    string `toml:"name"`
	Version string `toml:"version"`
	Source  string `toml:"source"`
}

// readCargoLock reads the Cargo.lock at dir's root; nil when there is none.
func readCargoLock(dir string) ([]cargoPackage, error) {
	b, err := readRegular(dir, "Cargo.lock")
	if err != nil || b == nil {
		return nil, err
	}
	var lock struct {
		Package []cargoPackage `toml:"package"`
	}
	if _, err := toml.Decode(string(b), &lock); err != nil {
		return nil, fmt.Errorf("reading Cargo.lock: %w", err)
	}
	return lock.Package, nil
}

// cargoDep is one dependency a Cargo.toml or a .cargo/config names, as a
// comparable string: "crate NAME" (the default registry), "path DIR"
// (repository-relative), "git URL", "registry NAME", or for a [patch],
// [replace] or `paths` entry its whole specification.
type cargoDep struct {
	key  string // what is compared with the task's
	name string // the package, for registry dependencies
}

// cargoOutside is Outside for cargo: Cargo.lock's packages must be the
// task's (name, version, source); every dependency of every Cargo.toml
// must be a registry package the task's Cargo.lock holds, or a path or
// git dependency, [patch] or [replace] entry the task's manifests have;
// and a .cargo/config may add no `patch` or `paths`.
func cargoOutside(task, patched string) ([]string, error) {
	if !regular(filepath.Join(task, "Cargo.toml")) {
		return nil, nil
	}
	tl, err := readCargoLock(task)
	if err != nil {
		return nil, err
	}
	locked, registry, local := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, p := range tl {
		locked[p.Name+"@"+p.Version+" "+p.Source] = true
		switch {
		case p.Source == "":
			local[p.Name] = true
		case strings.HasPrefix(p.Source, "registry+") || strings.HasPrefix(p.Source, "sparse+"):
			registry[p.Name] = true
		}
	}
	var out []string
	pl, err := readCargoLock(patched)
	if err != nil {
		out = append(out, "Cargo.lock that does not parse ("+err.Error()+")")
	}
	for _, p := range pl {
		switch {
		case p.Source == "" && !local[p.Name]:
			out = append(out, p.Name+" (a path package in Cargo.lock)")
		case p.Source != "" && !locked[p.Name+"@"+p.Version+" "+p.Source]:
			out = append(out, p.Name+"@"+p.Version+" ("+p.Source+")")
		}
	}
	taskDeps, _, err := manifestDeps(task)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, d := range taskDeps {
		have[d.key] = true
	}
	deps, unreadable, err := manifestDeps(patched)
	if err != nil {
		return nil, err
	}
	out = append(out, unreadable...)
	for _, d := range deps {
		switch {
		case strings.HasPrefix(d.key, "crate "):
			if !registry[d.name] {
				out = append(out, "crate "+d.name+" (crates.io)")
			}
		case !have[d.key]:
			out = append(out, d.key)
		}
	}
	return out, nil
}

// manifestDeps walks a repository for Cargo.toml and .cargo/config files
// and returns the dependencies they name; files that do not parse are
// returned as reasons (cargo would refuse them too).
func manifestDeps(dir string) (deps []cargoDep, unreadable []string, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "target", "_osbench_target", "_osbench_cargo_home":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		isConfig := path.Base(path.Dir(rel)) == ".cargo" && (d.Name() == "config" || d.Name() == "config.toml")
		if d.Name() != "Cargo.toml" && !isConfig {
			return nil
		}
		b, err := readRegular(dir, rel)
		if err != nil {
			return err
		}
		var doc map[string]any
		if _, err := toml.Decode(string(b), &doc); err != nil {
			unreadable = append(unreadable, rel+" that does not parse")
			return nil
		}
		if isConfig {
			deps = append(deps, configDeps(rel, doc)...)
			return nil
		}
		deps = append(deps, tomlDeps(path.Dir(rel), doc)...)
		return nil
	})
	return deps, unreadable, err
}

var depTables = []string{"dependencies", "dev-dependencies", "dev_dependencies", "build-dependencies", "build_dependencies"}

// tomlDeps are the dependencies of one Cargo.toml in directory dir
// (repository-relative): its dependency tables, its targets', the
// workspace's, and its [patch] and [replace] entries.
func tomlDeps(dir string, doc map[string]any) []cargoDep {
	var deps []cargoDep
	tables := func(m map[string]any) {
		for _, t := range depTables {
			entries, _ := m[t].(map[string]any)
			for name, spec := range entries {
				if d, ok := depOf(dir, name, spec); ok {
					deps = append(deps, d)
				}
			}
		}
	}
	tables(doc)
	if targets, ok := doc["target"].(map[string]any); ok {
		for _, t := range targets {
			if m, ok := t.(map[string]any); ok {
				tables(m)
			}
		}
	}
	if ws, ok := doc["workspace"].(map[string]any); ok {
		tables(ws)
	}
	if patches, ok := doc["patch"].(map[string]any); ok {
		for source, entries := range patches {
			m, _ := entries.(map[string]any)
			for name, spec := range m {
				deps = append(deps, cargoDep{key: "[patch." + source + "] " + name + " = " + canonical(spec)})
			}
		}
	}
	if repl, ok := doc["replace"].(map[string]any); ok {
		for name, spec := range repl {
			deps = append(deps, cargoDep{key: "[replace] " + name + " = " + canonical(spec)})
		}
	}
	return deps
}

// configDeps are what a .cargo/config adds to the dependencies: its
// [patch] tables and its `paths` overrides.
func configDeps(file string, doc map[string]any) []cargoDep {
	var deps []cargoDep
	if patches, ok := doc["patch"].(map[string]any); ok {
		for source, entries := range patches {
			m, _ := entries.(map[string]any)
			for name, spec := range m {
				deps = append(deps, cargoDep{key: "[patch." + source + "] " + name + " = " + canonical(spec) + " in " + file})
			}
		}
	}
	if paths, ok := doc["paths"]; ok {
		deps = append(deps, cargoDep{key: "paths = " + canonical(paths) + " in " + file})
	}
	return deps
}

// depOf classifies one dependency entry; ok is false for one inherited
// from the workspace (whose own entry is checked).
func depOf(dir, key string, spec any) (cargoDep, bool) {
	m, isTable := spec.(map[string]any)
	if !isTable {
		return cargoDep{key: "crate " + key, name: key}, true
	}
	if ws, _ := m["workspace"].(bool); ws {
		return cargoDep{}, false
	}
	name := key
	if p, ok := m["package"].(string); ok && p != "" {
		name = p
	}
	if p, ok := m["path"].(string); ok {
		clean := path.Clean(path.Join(dir, filepath.ToSlash(p)))
		if path.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
			return cargoDep{key: "path " + p + " (outside the repository)"}, true
		}
		return cargoDep{key: "path " + clean}, true
	}
	if g, ok := m["git"].(string); ok {
		return cargoDep{key: "git " + g}, true
	}
	for _, k := range []string{"registry", "registry-index"} {
		if r, ok := m[k].(string); ok {
			return cargoDep{key: k + " " + r + " (" + name + ")"}, true
		}
	}
	return cargoDep{key: "crate " + name, name: name}, true
}

// canonical is a TOML value as sorted JSON, for comparing entries
// whatever their spelling.
func canonical(v any) string {
	b, err := json.Marshal(sortedValue(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func sortedValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([][2]any, 0, len(keys))
		for _, k := range keys {
			out = append(out, [2]any{k, sortedValue(t[k])})
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = sortedValue(e)
		}
		return out
	}
	return v
}
