package patchapply

import (
	"path"
	"strings"
	"testing"
)

// FuzzPatchPaths feeds arbitrary bytes through the header parser and the
// name rules. Neither may panic, and a patch the rules accept must name
// only paths and link targets that stay inside the repository.
func FuzzPatchPaths(f *testing.F) {
	for _, seed := range []string{
		"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+../../out\n\\ No newline at end of file\n",
		"diff --git \"a/\\303\\251\" \"b/\\303\\251\"\nrename from \"\\303\\251\"\nrename to ../x\n",
		"--- /tmp/x\n+++ /tmp/x\n@@ -1,2 +1 @@\n--- a\n+++ b\n",
		"Index: C:\\x\n*** a/.git/config\n@@ -0,0 +1,3 @@\n\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, patch []byte) {
		h, err := parsePatch(patch)
		if err != nil {
			return
		}
		touchedPaths(h)
		if checkNames(h) != "" {
			return
		}
		for _, file := range h.Files {
			for _, n := range file.Names {
				for _, p := range []string{n.Raw, n.Path} {
					if escapes(p) {
						t.Fatalf("accepted path %q", p)
					}
				}
			}
			if file.CreatesLink() {
				target := path.Join(path.Dir(file.New), file.LinkTarget())
				if strings.HasPrefix(file.LinkTarget(), "/") || escapes(target) {
					t.Fatalf("accepted link %q -> %q", file.New, file.LinkTarget())
				}
			}
		}
	})
}

// escapes is the fuzz test's own, plainer statement of a path that leaves
// the repository or enters .git.
func escapes(p string) bool {
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return true
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return true
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." || strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}
