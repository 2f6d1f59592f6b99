//go:build unix

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestExportRemovesTempOfKilledBuild: a build SIGKILLed between writing an
// export's temporary and renaming it left ".a.txt.tmp-<pid>-…" in the out
// dir, and the rerun kept it for good (found by osbench-reliability: 1 of
// 50 kill trials). The rerun removes a dead process's temporary and leaves
// a live one's (a concurrent build exporting to the same dir) alone.
func TestExportRemovesTempOfKilledBuild(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	out := e.opts.OutDir
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(out, fmt.Sprintf(".a.txt.tmp-%d-123", gone.Process.Pid))
	live := filepath.Join(out, fmt.Sprintf(".a.txt.tmp-%d-456", os.Getpid()))
	other := filepath.Join(out, fmt.Sprintf(".b.txt.tmp-%d-789", gone.Process.Pid))
	for _, p := range []string{dead, live, other} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build(t, e, text("a", "g", "a"))
	if b, err := os.ReadFile(filepath.Join(out, "a.txt")); err != nil || string(b) != "a" {
		t.Fatalf("a.txt = %q, %v", b, err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the killed build's temporary is still there (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's temporary was removed: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another file's temporary was removed: %v", err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("out dir holds %v, want a.txt and the two kept temporaries", names)
	}
}
