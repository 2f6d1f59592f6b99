package toolenv

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/module"

	"github.com/osbench/osbench/plugins/deps"
)

// Hide returns what of the shared dependency cache in env the commands of
// the repository at repo must not see (executors.Cmd.HiddenPaths): the
// published versions of the repository's own packages (deps.Own). One
// cargo home and one module cache serve every repository built on a
// cache, so when another repository depends on this one, its original
// sources are there — the complete code a task masks, with no download,
// no new dependency and no new target for any other defence to notice: a
// `#[path]` or `include!` away for a crate, a read (and a build of a
// program of its own) away for a test of a Go module. Every version is
// hidden, not only the repository's own: an older release holds the same
// platform code as often as not.
//
// Hidden paths live in copy-on-write dirs, where the executor whites them
// out: a module cache that holds one becomes copy-on-write instead of
// read-only for the command (readOnly and cow are Offline's, returned
// adjusted). Its writes still reach no other command; they no longer fail
// — the go command writes nothing there offline once the fetch is done.
func Hide(env []string, language, repo string, readOnly, cow []string) (ro, cowOut, hidden []string) {
	own := deps.Own(language, repo)
	if len(own) == 0 {
		return readOnly, cow, nil
	}
	switch language {
	case deps.Rust:
		if home, ok := lookup(env, "CARGO_HOME"); ok && home != "" {
			hidden = ownCrates(home, own)
		}
		return readOnly, cow, hidden
	case deps.Go:
		modcache, ok := lookup(env, "GOMODCACHE")
		if !ok || modcache == "" || !slices.Contains(readOnly, modcache) {
			return readOnly, cow, nil
		}
		for _, path := range own {
			hidden = append(hidden, ownModules(modcache, path)...)
		}
		if len(hidden) == 0 {
			return readOnly, cow, nil
		}
		ro = slices.DeleteFunc(slices.Clone(readOnly), func(d string) bool { return d == modcache })
		return ro, append(slices.Clone(cow), modcache), hidden
	}
	return readOnly, cow, nil
}

// ownCrates lists the registry entries of the named crates in a cargo
// home: extracted sources (registry/src/<index>/<name>-<version>) and
// archives (registry/cache/<index>/<name>-<version>.crate).
func ownCrates(home string, own []string) []string {
	var hidden []string
	for _, sub := range []string{"src", "cache"} {
		indexes, _ := os.ReadDir(filepath.Join(home, "registry", sub))
		for _, index := range indexes {
			if !index.IsDir() {
				continue
			}
			dir := filepath.Join(home, "registry", sub, index.Name())
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if ownEntry(e.Name(), own) {
					hidden = append(hidden, filepath.Join(dir, e.Name()))
				}
			}
		}
	}
	return hidden
}

// crateVersion is what follows "NAME-" in a cargo home entry: a semantic
// version, then ".crate" for an archive.
var crateVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?(\.crate)?$`)

// ownEntry reports whether a registry entry (NAME-VERSION or
// NAME-VERSION.crate) is a version of one of the packages own names.
// Cargo names are case-insensitive and treat - and _ alike, so "foo_bar"
// also matches "foo-bar-1.0.0".
func ownEntry(entry string, own []string) bool {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "-")) }
	e := norm(entry)
	for _, name := range own {
		if rest, ok := strings.CutPrefix(e, norm(name)+"-"); ok && crateVersion.MatchString(rest) {
			return true
		}
	}
	return false
}

// majorSuffix is a module path's major version element (/v2, /v3, ...).
var majorSuffix = regexp.MustCompile(`/v[0-9]+$`)

// ownModules lists a Go module's entries in a module cache, at every
// version and every major version (path, path/v2, ...: one repository's
// code under another module path): the extracted module directories
// (<path>@<version>) and the download directories (cache/download/<path>/@v,
// the file:// proxy the offline go command reads).
func ownModules(modcache, path string) []string {
	base := majorSuffix.ReplaceAllString(path, "")
	esc, err := module.EscapePath(base)
	if err != nil {
		return nil
	}
	var hidden []string
	// <base>@<version>: entries of base's parent named <last>@...
	parent, last := filepath.Split(filepath.FromSlash(esc))
	entries, _ := os.ReadDir(filepath.Join(modcache, parent))
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), last+"@") {
			hidden = append(hidden, filepath.Join(modcache, parent, e.Name()))
		}
	}
	// <base>/vN@<version>
	entries, _ = os.ReadDir(filepath.Join(modcache, filepath.FromSlash(esc)))
	for _, e := range entries {
		if name, _, ok := strings.Cut(e.Name(), "@"); ok && e.IsDir() && majorSuffix.MatchString("/"+name) {
			hidden = append(hidden, filepath.Join(modcache, filepath.FromSlash(esc), e.Name()))
		}
	}
	download := filepath.Join(modcache, "cache", "download", filepath.FromSlash(esc))
	if st, err := os.Stat(filepath.Join(download, "@v")); err == nil && st.IsDir() {
		hidden = append(hidden, filepath.Join(download, "@v"))
	}
	entries, _ = os.ReadDir(download)
	for _, e := range entries {
		if e.IsDir() && majorSuffix.MatchString("/"+e.Name()) {
			if st, err := os.Stat(filepath.Join(download, e.Name(), "@v")); err == nil && st.IsDir() {
				hidden = append(hidden, filepath.Join(download, e.Name(), "@v"))
			}
		}
	}
	return hidden
}
