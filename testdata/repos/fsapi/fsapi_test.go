package fsapi

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writeFile creates dir/name with some content and returns its path.
func writeFile(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(name), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestListVisible(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "b.txt")
	writeFile(t, dir, "a.txt")
	makeHidden(t, dir, "secret")

	got, err := ListVisible(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "b.txt"}; !slices.Equal(got, want) {
		t.Errorf("ListVisible = %q, want %q", got, want)
	}
}

func TestListVisibleMissingDir(t *testing.T) {
	_, err := ListVisible(filepath.Join(t.TempDir(), "missing"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ListVisible(missing) error = %v, want one wrapping %v", err, fs.ErrNotExist)
	}
}

// TestMissingFile covers the error wrapping every platform shares.
func TestMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		name string
		call func() error
	}{
		{"IsHidden", func() error { _, err := IsHidden(missing); return err }},
		{"IsWritable", func() error { _, err := IsWritable(missing); return err }},
		{"Resolve", func() error { _, err := Resolve(missing); return err }},
	}
	for _, tt := range tests {
		err := tt.call()
		if err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("%s(missing) error = %v, want one naming %s", tt.name, err, missing)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s(missing) error = %v, want one wrapping %v", tt.name, err, fs.ErrNotExist)
		}
	}
}

func TestIsWritable(t *testing.T) {
	path := writeFile(t, t.TempDir(), "data.txt")
	if got, err := IsWritable(path); err != nil || !got {
		t.Fatalf("IsWritable(new file) = %v, %v; want true, nil", got, err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if got, err := IsWritable(path); err != nil || got {
		t.Errorf("IsWritable(read-only file) = %v, %v; want false, nil", got, err)
	}
}

// homeVars are the variables HomeDir reads, primary first.
func homeVars() []string {
	if runtime.GOOS == "windows" {
		return []string{"USERPROFILE", "HOMEDRIVE", "HOMEPATH"}
	}
	return []string{"HOME"}
}

func TestHomeDir(t *testing.T) {
	want := filepath.Join(t.TempDir(), "home")
	for _, v := range homeVars() {
		t.Setenv(v, "")
	}
	t.Setenv(homeVars()[0], want)

	if got, err := HomeDir(); err != nil || got != want {
		t.Errorf("HomeDir() = %q, %v; want %q, nil", got, err, want)
	}
}

func TestHomeDirUnset(t *testing.T) {
	for _, v := range homeVars() {
		t.Setenv(v, "")
	}
	if got, err := HomeDir(); !errors.Is(err, ErrNoHome) {
		t.Errorf("HomeDir() = %q, %v; want error %v", got, err, ErrNoHome)
	}
}

// TestSymlinkResolve needs os.Symlink. It runs on every platform, so a
// platform that cannot create symbolic links (Wine) must skip it by name.
func TestSymlinkResolve(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}

	got, err := Resolve(link)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Resolve(target)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Resolve(%q) = %q, want %q (the resolved target)", link, got, want)
	}
}

// TestFindEntry looks a file up through a detour ("sub/../notes.txt").
//
// Under Wine, os.SameFile never matches an entry of os.ReadDir (Wine
// reports file ID 0 for directory entries), so FindEntry finds nothing and
// returns a nil entry, which this test then uses: it panics, and the panic
// kills the test binary of the whole package, so no test after it runs and
// no coverage is written. That is on purpose. The fixture needs one test
// whose failure under Wine is a crash rather than a failure, as in real
// repositories, so that the Windows platform's skip list and the parsing of
// panics have a real case. It passes on Linux and on Windows.
func TestFindEntry(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "other.txt")
	writeFile(t, dir, "notes.txt")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.Separator)
	detour := sub + sep + ".." + sep + "notes.txt"

	entry, err := FindEntry(dir, detour)
	if err != nil {
		t.Errorf("FindEntry(%q) error = %v", detour, err)
	}
	if got := entry.Name(); got != "notes.txt" {
		t.Errorf("FindEntry(%q) = %q, want %q", detour, got, "notes.txt")
	}
}
