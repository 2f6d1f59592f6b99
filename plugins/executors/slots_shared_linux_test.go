package executors

import (
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
