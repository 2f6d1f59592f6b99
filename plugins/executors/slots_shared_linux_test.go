package executors

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A directory inside the command's own work directory does not choose its
// uid class: counted, it gave every test step a class, a uid and a Wine
// prefix (700 MB) of its own.
func TestSharedDirs(t *testing.T) {
	writable := []string{"/cache/state/go/build", "/cache/work/step-1/go-evidence", "/cache/work/step-10", "/cache/work/step-1"}
	got := sharedDirs(writable, "/cache/work/step-1")
	want := []string{"/cache/state/go/build", "/cache/work/step-10"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sharedDirs = %q, want %q", got, want)
	}
	if slotClass(sharedDirs([]string{"/w/a/records"}, "/w/a")) != slotClass(sharedDirs([]string{"/w/b/records"}, "/w/b")) {
		t.Errorf("two steps with only private writable dirs got different uid classes")
	}
}

// TestSharedDirByAnyPath: a shared directory reached through a symbolic
// link (a cache whose state is a link, as the end-to-end tests' caches
// are) has the group and uid class it has by its own path, so commands
// naming it either way never re-group each other's files.
func TestSharedDirByAnyPath(t *testing.T) {
	real := filepath.Join(t.TempDir(), "state", "go", "build-cache")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "state")
	if err := os.Symlink(filepath.Dir(filepath.Dir(real)), link); err != nil {
		t.Fatal(err)
	}
	viaLink := filepath.Join(link, "go", "build-cache")
	if a, b := cacheGID(real), cacheGID(viaLink); a != b {
		t.Errorf("group by path %d, through the link %d", a, b)
	}
	if a, b := slotClass([]string{real}), slotClass([]string{viaLink}); a != b {
		t.Errorf("uid class by path %d, through the link %d", a, b)
	}
	if a, b := cacheGID(real), cacheGID(filepath.Join(t.TempDir(), "other")); a == b {
		t.Errorf("two directories share group %d", a)
	}
}
