// Package deps is a repository's locked dependency set and its fetch: what
// the lock files pin (go.mod and go.sum for Go, Cargo.lock for cargo), the
// copy of the tree the fetch needs (the lock files and what the tool must
// see to read them, never the code), the fixed command that downloads the
// set into the shared module or crate cache with the network, and the check
// that a patched tree adds nothing outside the set.
//
// The fetch runs no code of the repository: `go mod download` reads go.mod
// and go.sum; `cargo fetch` reads the Cargo.toml files and Cargo.lock of a
// copy in which every Rust source file is empty and no .cargo/config
// exists. Builds and tests then run offline (plugins/toolenv.Offline), so
// a dependency the set does not hold is a build failure, never a download.
package deps

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Version changes when what a set holds, what the skeleton copies or what
// the fetch runs changes; the steps that use them put it in their keys.
const Version = "1"

// Languages with lock files.
const (
	Go   = "go"
	Rust = "rust"
)

// Locks reports whether a language has lock files osbench fetches from.
func Locks(language string) bool { return language == Go || language == Rust }

// SkeletonFile says what of a repository file (slash-separated path) the
// fetch's copy holds: keep, the file itself; empty, an empty file at its
// path (cargo discovers targets by their files' existence, never reading
// them for a fetch). Files under a VCS directory are never copied.
func SkeletonFile(language, p string) (keep, empty bool) {
	for _, part := range strings.Split(p, "/") {
		if part == ".git" || part == ".cargo" {
			return false, false
		}
	}
	base := path.Base(p)
	switch language {
	case Go:
		switch base {
		case "go.mod", "go.sum", "go.work", "go.work.sum":
			return true, false
		}
	case Rust:
		switch {
		case base == "Cargo.toml" || base == "Cargo.lock":
			return true, false
		case path.Ext(base) == ".rs":
			return false, true
		}
	}
	return false, false
}

// FetchArgv is the command the fetch runs in a skeleton at dir, or nil
// when there is nothing to fetch. For Go it always runs something: the
// pinned toolchain (GOTOOLCHAIN) is itself a download, which `go version`
// makes when there is no go.mod. `go mod download` with no arguments
// downloads every module needed to build and test the main module's
// packages (a go ≥ 1.17 go.mod lists them all; an older one gets its whole
// module graph). cargo fetch without --target fetches the dependencies of
// every target platform; --locked refuses a Cargo.lock that does not match
// the manifests instead of rewriting it.
func FetchArgv(language, dir string) []string {
	switch language {
	case Go:
		if regular(filepath.Join(dir, "go.mod")) {
			return []string{"go", "mod", "download"}
		}
		return []string{"go", "version"}
	case Rust:
		if regular(filepath.Join(dir, "Cargo.toml")) {
			return []string{"cargo", "fetch", "--locked", "--manifest-path", filepath.Join(dir, "Cargo.toml")}
		}
	}
	return nil
}

// Read reads the locked set of the tree at dir (a repository or its
// skeleton): nil when the language has no lock files or the tree has none
// at its root.
func Read(language, dir string) (*schemas.LockedDeps, error) {
	var (
		entries []string
		files   []string
	)
	switch language {
	case Go:
		mod, err := readGoMod(dir)
		if err != nil || mod == nil {
			return nil, err
		}
		files = append(files, "go.mod")
		set := map[string]bool{}
		for _, r := range mod.requires {
			set[r] = true
		}
		sum, err := readGoSum(dir)
		if err != nil {
			return nil, err
		}
		if sum != nil {
			files = append(files, "go.sum")
			for m := range sum {
				set[m] = true
			}
		}
		for m := range set {
			entries = append(entries, m)
		}
	case Rust:
		lock, err := readCargoLock(dir)
		if err != nil || lock == nil {
			return nil, err
		}
		files = append(files, "Cargo.lock")
		for _, p := range lock {
			if p.Source != "" {
				entries = append(entries, p.Name+"@"+p.Version+" "+p.Source)
			}
		}
	default:
		return nil, nil
	}
	return newSet(files, entries), nil
}

func newSet(files, entries []string) *schemas.LockedDeps {
	sort.Strings(entries)
	entries = compact(entries)
	h := sha256.New()
	for _, e := range entries {
		h.Write([]byte(e + "\n"))
	}
	if entries == nil {
		entries = []string{}
	}
	return &schemas.LockedDeps{Digest: "sha256:" + hex.EncodeToString(h.Sum(nil)), Files: files, Dependencies: entries}
}

// Outside returns, sorted, the dependencies the tree at patched names that
// the task's tree (task) does not lock — each a phrase for a verdict
// reason ("github.com/x/y@v1.2.3", "crate foo (registry)") — or none.
// Only the trees' root go.mod/go.sum, and Cargo.lock, every Cargo.toml and
// .cargo/config of the repository are read; a file the task has and the
// patch left alone adds nothing.
func Outside(task, patched string) ([]string, error) {
	var out []string
	g, err := goOutside(task, patched)
	if err != nil {
		return nil, err
	}
	out = append(out, g...)
	c, err := cargoOutside(task, patched)
	if err != nil {
		return nil, err
	}
	out = append(out, c...)
	sort.Strings(out)
	return compact(out), nil
}

func compact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func regular(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode().IsRegular()
}

// readRegular reads a repository file the patch may have written: a
// regular file only (never through a link), nil when there is none.
func readRegular(dir, rel string) ([]byte, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	if st.Size() > 16<<20 {
		return nil, fmt.Errorf("%s is larger than 16 MiB", rel)
	}
	return os.ReadFile(p)
}

// readGoSum returns the module versions go.sum holds a hash for (its zip or
// only its go.mod), nil when there is no go.sum.
func readGoSum(dir string) (map[string]bool, error) {
	b, err := readRegular(dir, "go.sum")
	if err != nil || b == nil {
		return nil, err
	}
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue
		}
		set[f[0]+"@"+strings.TrimSuffix(f[1], "/go.mod")] = true
	}
	return set, sc.Err()
}
