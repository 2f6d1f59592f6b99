package toolenv

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/deps"
)

// Hidden returns what of the shared dependency cache in env the commands
// of the repository at repo must not see (executors.Cmd.HiddenPaths): the
// published versions of the repository's own packages (deps.Own). One
// cargo home serves every Rust repository built on a cache, so when
// another repository depends on this one, its original sources are there,
// extracted and as a .crate archive — the complete code a task masks, one
// `#[path]` or `include!` away from a patch, with no download, no new
// dependency and no new cargo target for any other defence to notice.
// Every version is hidden, not only the repository's own: an older
// release holds the same platform code as often as not.
func Hidden(env []string, language, repo string) []string {
	own := deps.Own(language, repo)
	if len(own) == 0 {
		return nil
	}
	home, ok := lookup(env, "CARGO_HOME")
	if !ok || home == "" {
		return nil
	}
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
