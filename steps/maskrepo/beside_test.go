package maskrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestFilesBeside: the masker sees the files of the masked file's
// directory that share its extension, as they were before the step masked
// any of them.
func TestFilesBeside(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"pkg/a.go":      "package pkg // a, masked",
		"pkg/b.go":      "package pkg // b on disk, masked already",
		"pkg/c_test.go": "package pkg // c",
		"pkg/notes.txt": "not Go",
		"pkg/sub/d.go":  "package sub",
		"top.go":        "package top",
	}
	for f, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	originals := map[string][]byte{"pkg/b.go": []byte("package pkg // b as checked out")}
	got, err := filesBeside(repo, "pkg/a.go", originals)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{
		"b.go":      []byte("package pkg // b as checked out"),
		"c_test.go": []byte("package pkg // c"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("filesBeside = %q, want %q", got, want)
	}
	if string(originals["pkg/c_test.go"]) != files["pkg/c_test.go"] {
		t.Errorf("a file read from disk is not remembered: %q", originals)
	}
	top, err := filesBeside(repo, "top.go", originals)
	if err != nil || len(top) != 0 {
		t.Errorf("filesBeside(top.go) = %q, %v; want none (pkg is a directory)", top, err)
	}
}
