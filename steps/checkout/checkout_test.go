package checkout

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarOf(t *testing.T, entries map[string]string) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, body := range entries {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	return &buf
}

func TestUntarRefusesEscapes(t *testing.T) {
	for _, name := range []string{"../evil", "/etc/evil", "a/../../evil"} {
		dir := t.TempDir()
		err := untar(tarOf(t, map[string]string{name: "x"}), dir, false)
		if err == nil || !strings.Contains(err.Error(), "escapes") {
			t.Errorf("%s: err = %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil")); err == nil {
			t.Errorf("%s was written outside the checkout", name)
		}
	}
	dir := t.TempDir()
	if err := untar(tarOf(t, map[string]string{"a/b.txt": "hi"}), dir, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a", "b.txt")); string(b) != "hi" {
		t.Errorf("content = %q", b)
	}
}

func TestHashLocalIgnoresVCSAndFollowsContent(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a"), 0o644)
	h1, err := HashLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref"), 0o644)
	if h2, _ := HashLocal(dir); h2 != h1 {
		t.Errorf(".git changed the tree digest")
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package b"), 0o644)
	if h3, _ := HashLocal(dir); h3 == h1 {
		t.Errorf("content change did not change the tree digest")
	}
}
