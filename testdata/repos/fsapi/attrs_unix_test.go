//go:build unix

package fsapi

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// makeHidden creates a file that Unix hides: its name starts with a dot.
func makeHidden(t *testing.T, dir, name string) string {
	t.Helper()
	return writeFile(t, dir, "."+name)
}

func TestIsHiddenDotFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ".profile")
	writeFile(t, dir, "notes.txt")
	writeFile(t, dir, "dot.in.middle")
	if err := os.Mkdir(filepath.Join(dir, ".cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want bool
	}{
		{".profile", true},
		{".cache", true},
		{"notes.txt", false},
		{"dot.in.middle", false},
		{".", false},
	}
	for _, tt := range tests {
		got, err := IsHidden(filepath.Join(dir, tt.name))
		if err != nil || got != tt.want {
			t.Errorf("IsHidden(%q) = %v, %v; want %v, nil", tt.name, got, err, tt.want)
		}
	}
}

func TestSetHiddenUnsupported(t *testing.T) {
	path := writeFile(t, t.TempDir(), "plain.txt")
	if err := SetHidden(path, true); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("SetHidden on Unix: error = %v, want one wrapping %v", err, errors.ErrUnsupported)
	}
}

func TestPermitsWrite(t *testing.T) {
	const me, other = 1000, 2000
	tests := []struct {
		name             string
		perm             fs.FileMode
		fileUID, fileGID uint32
		want             bool
	}{
		{"owner may write", 0o644, me, other, true},
		{"owner read-only", 0o444, me, other, false},
		{"owner class wins over group", 0o464, me, me, false},
		{"group may write", 0o664, other, me, true},
		{"group read-only", 0o646, other, me, false},
		{"other may write", 0o666, other, other, true},
		{"other read-only", 0o664, other, other, false},
	}
	for _, tt := range tests {
		if got := permitsWrite(tt.perm, tt.fileUID, tt.fileGID, me, []int{me}); got != tt.want {
			t.Errorf("%s: permitsWrite(%v, uid %d, gid %d) = %v, want %v", tt.name, tt.perm, tt.fileUID, tt.fileGID, got, tt.want)
		}
	}
}
