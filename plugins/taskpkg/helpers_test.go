package taskpkg

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtures are the repositories of testdata/repos (see its README).
var fixtures = []string{"pathsep", "fsapi", "lineend", "cpath", "cppenc", "rsplat"}

func fixtureDir(name string) string {
	return filepath.Join("..", "..", "testdata", "repos", name)
}

// file is one entry of a tree in a test: content, or a link target when
// link is set; exec marks an executable file.
type file struct {
	content string
	exec    bool
	link    bool
}

// writeFiles creates the entries of files under dir.
func writeFiles(t *testing.T, dir string, files map[string]file) {
	t.Helper()
	for name, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case f.link:
			err = os.Symlink(f.content, path)
		case f.exec:
			err = os.WriteFile(path, []byte(f.content), 0o755)
		default:
			err = os.WriteFile(path, []byte(f.content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readTree reads every entry under dir except .git, as git would see it.
func readTree(t *testing.T, dir string) map[string]file {
	t.Helper()
	files := map[string]file{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			files[rel] = file{content: target, link: true}
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		files[rel] = file{content: string(b), exec: info.Mode()&0o100 != 0}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameTree fails the test unless got and want hold the same entries, byte
// for byte.
func sameTree(t *testing.T, got, want map[string]file) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: missing", name)
		case g != w:
			t.Errorf("%s: got %+v, want %+v", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected", name)
		}
	}
}

// copyDir copies everything under src, .git included, into dst.
func copyDir(t *testing.T, dst, src string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs git in dir with the package's isolated environment.
func run(t *testing.T, dir string, stdin []byte, args ...string) string {
	t.Helper()
	out, err := git(dir, stdin, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// maskLines stands in for the masker: it replaces the middle third of the
// lines of every non-test source file with a placeholder comment.
func maskLines(t *testing.T, dir string) int {
	t.Helper()
	masked := 0
	for name, f := range readTree(t, dir) {
		ext := filepath.Ext(name)
		if f.link || strings.Contains(name, "test") || !slices.Contains([]string{".go", ".c", ".cpp", ".h", ".hpp", ".rs"}, ext) {
			continue
		}
		lines := strings.SplitAfter(f.content, "\n")
		if len(lines) < 6 {
			continue
		}
		from, to := len(lines)/3, 2*len(lines)/3
		placeholder := "// masked\n"
		if ext == ".c" || ext == ".h" {
			placeholder = "/* masked */\n"
		}
		var b bytes.Buffer
		for i, l := range lines {
			switch {
			case i == from:
				b.WriteString(placeholder)
			case i > from && i < to:
			default:
				b.WriteString(l)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		masked++
	}
	return masked
}
