package patchapply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnsafeName(t *testing.T) {
	tests := []struct {
		name string
		want string // a word of the reason; "" for a safe name
	}{
		{"a/src/w.go", ""},
		{"b/dir with space/x.txt", ""},
		{"a/..x/y..", ""},
		{"a/.github/workflows/ci.yml", ""},
		{"a/../x", ".."},
		{"../x", ".."},
		{"b/src/../../x", ".."},
		{"/tmp/x", "absolute"},
		{`a\..\x`, "backslash"},
		{"C:/Windows/x", "drive"},
		{"a/.git/config", ".git"},
		{"a/sub/.GIT/hooks/pre-commit", ".git"},
		{"a/.git./config", ".git"},
		{"a/GIT~1/config", ".git"},
		{"a/x\ny", "control"},
		{"", "empty"},
	}
	for _, tt := range tests {
		got := unsafeName(tt.name)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("unsafeName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnsafeLinkTarget(t *testing.T) {
	tests := []struct {
		link, target string
		want         string
	}{
		{"l", "src/w.go", ""},
		{"a/b/l", "../c", ""},
		{"a/b/l", "../../c", ""},
		{"a/b/l", "../../../c", "outside"},
		{"l", "../../outside", "outside"},
		{"l", "..", "outside"},
		{"l", "/etc/passwd", "absolute"},
		{"l", `..\x`, "backslash"},
		{"l", "C:/x", "drive"},
		{"l", ".git/config", ".git"},
		{"l", "x\n", "control"},
	}
	for _, tt := range tests {
		got := unsafeLinkTarget(tt.link, tt.target)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("unsafeLinkTarget(%q, %q) = %q, want %q", tt.link, tt.target, got, tt.want)
		}
	}
}

// symlinks builds a directory of links (name -> target) and plain files
// (target "").
func symlinks(t *testing.T, entries map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	for name, target := range entries {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target == "" {
			err = os.WriteFile(p, []byte("x\n"), 0o644)
		} else {
			err = os.Symlink(target, p)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestLinkEscapes(t *testing.T) {
	root := symlinks(t, map[string]string{
		"src/file":     "",
		"inside":       "src/file",
		"dangling":     "src/nothing",
		"up":           "..",
		"abs":          "/etc",
		"via/abs":      "../abs/passwd",
		"loop1":        "loop2",
		"loop2":        "loop1",
		"deep/a/b":     "../../src",
		"deep/a/out":   "../../../x",
		"hop/to-deep":  "../deep/a/b/file",
		"hop/climb":    "../src/../../x",
		"hop/through":  "../deep/a/b/../../../..",
		"hop/insideup": "../deep/a/b/..",
	})
	tests := map[string]bool{
		"inside":       false,
		"dangling":     false,
		"up":           true,
		"abs":          true,
		"via/abs":      true,
		"loop1":        true,
		"deep/a/b":     false,
		"deep/a/out":   true,
		"hop/to-deep":  false,
		"hop/climb":    true,
		"hop/through":  true,
		"hop/insideup": false,
	}
	for rel, want := range tests {
		got, err := linkEscapes(root, rel)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if got != want {
			t.Errorf("linkEscapes(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestCheckLinksJudgesOnlyNewLinks(t *testing.T) {
	pristine := symlinks(t, map[string]string{"fixture": "/usr/share/zoneinfo", "ok": "a"})
	// The task's own link out is left alone; a changed or new one is not.
	for _, tt := range []struct {
		entries map[string]string
		want    string
	}{
		{map[string]string{"fixture": "/usr/share/zoneinfo", "ok": "a", "new": "ok"}, ""},
		{map[string]string{"fixture": "/usr/share/zoneinfo", "ok": "a", "new": "fixture/UTC"}, `"new"`},
		{map[string]string{"fixture": "/usr/share/zoneinfo", "ok": "../a"}, `"ok"`},
		{map[string]string{"fixture": "/usr/share/zoneinfo", "sub/moved": "../../x"}, `"sub/moved"`},
	} {
		repo := symlinks(t, tt.entries)
		got, err := checkLinks(repo, pristine)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%v: checkLinks = %q, want %s", tt.entries, got, tt.want)
		}
	}
}

func TestCheckRepoPaths(t *testing.T) {
	root := symlinks(t, map[string]string{
		"src/w.go": "",
		"lib":      "src",
		"out":      "../outside",
		"l":        "src/w.go",
	})
	tests := []struct {
		patch string
		want  string
	}{
		{"--- a/src/w.go\n+++ b/src/w.go\n@@ -1 +1 @@\n-x\n+y\n", ""},
		{"--- a/lib/w.go\n+++ b/lib/w.go\n@@ -1 +1 @@\n-x\n+y\n", `through the symbolic link "lib"`},
		{"--- /dev/null\n+++ b/out/new.txt\n@@ -0,0 +1 @@\n+y\n", `through the symbolic link "out"`},
		{"--- a/l\n+++ b/l\n@@ -1 +1 @@\n-x\n+y\n", "writes as a regular file"},
		{"diff --git a/l b/l\nindex 1..2 120000\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-src/w.go\n+src\n", ""},
		{"diff --git a/l b/m\nsimilarity index 100%\nrename from l\nrename to m\n", ""},
		{"diff --git a/src/w.go b/l\nsimilarity index 100%\nrename from src/w.go\nrename to l\n", "writes as a regular file"},
	}
	for _, tt := range tests {
		h, err := parsePatch([]byte(tt.patch))
		if err != nil {
			t.Fatal(err)
		}
		got, err := checkRepoPaths(root, h)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%q: checkRepoPaths = %q, want %q", tt.patch, got, tt.want)
		}
	}
}
