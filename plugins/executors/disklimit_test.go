package executors

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestTreeUsage: a tree's use counts what its files take on disk — a
// hard-linked file once, a sparse file by its blocks, not its length.
func TestTreeUsage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("block counts are a Unix measure")
	}
	dir := t.TempDir()
	data := make([]byte, 4<<20)
	for i := range data {
		data[i] = byte(i)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := treeUsage(dir)
	if before < 4<<20 {
		t.Fatalf("a 4 MiB file: use %d bytes, want at least 4 MiB", before)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "a"), filepath.Join(dir, "sub", "b")); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	sparse.Close()
	after := treeUsage(dir)
	if after-before > 1<<20 {
		t.Errorf("a hard link and a 1 GiB sparse file added %d bytes, want under 1 MiB (the link counted once, the holes not at all)", after-before)
	}
	if got := treeUsage(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("a missing dir uses %d bytes, want 0", got)
	}
}

func TestDiskLimitFor(t *testing.T) {
	dir := t.TempDir()
	size, ok := fileSystemSize(dir)
	if !ok && runtime.GOOS != "windows" {
		t.Fatal("no file-system size for a temp dir")
	}
	tests := []struct {
		name       string
		configured int64
		workDir    string
		want       int64
	}{
		{"none configured", 0, dir, 0},
		{"no work dir", 1 << 20, "", 0},
		{"a size", 1 << 20, dir, 1 << 20},
		{"automatic: a quarter of the file system", autoDiskLimit, dir, max(size/4, minAutoDiskLimit)},
	}
	if !ok {
		tests = tests[:3]
	}
	for _, tt := range tests {
		if got := diskLimitFor(tt.configured, tt.workDir); got != tt.want {
			t.Errorf("%s: diskLimitFor(%d, %q) = %d, want %d", tt.name, tt.configured, tt.workDir, got, tt.want)
		}
	}
}

func TestDefaultDiskLimit(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  int64
	}{{"", autoDiskLimit}, {"0", 0}, {"20G", 20 << 30}, {"512M", 512 << 20}, {"lots", autoDiskLimit}} {
		t.Setenv(DiskLimitVar, tt.value)
		if got := DefaultDiskLimit(); got != tt.want {
			t.Errorf("%s=%q: %d, want %d", DiskLimitVar, tt.value, got, tt.want)
		}
	}
}
