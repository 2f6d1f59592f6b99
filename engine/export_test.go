//go:build unix

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestFailedBuildKeepsCompleteExport: a collection built from absent
// inputs (a failed direction's tasks.jsonl) never replaces the complete
// one of an earlier build; it goes beside it as .partial. A partial export
// with nothing complete before it takes the place, and the next partial
// one replaces it; a complete build replaces both and removes the
// .partial file. Tree exports are swapped in whole.
func TestFailedBuildKeepsCompleteExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return "(none)"
		}
		return string(b)
	}
	steps := func(fail bool, text1 string) []*Step {
		a := text("a", "a", text1)
		b := text("b", "b", "b")
		setField(b, "fail", fail)
		all := &Step{ID: "all", Kind: "test.collect", Exports: []Export{{Output: "text", Path: "tasks.jsonl"}},
			Inputs: []Input{{Name: "a", Step: "a", Optional: true}, {Name: "b", Step: "b", Optional: true}}}
		return []*Step{a, b, all}
	}
	tests := []struct {
		name        string
		fail        bool
		text        string
		wantTasks   string
		wantPartial string
	}{
		{"partial with nothing before it", true, "1", "a=1\nb absent: failed: told to fail", "(none)"},
		{"partial over partial", true, "2", "a=2\nb absent: failed: told to fail", "(none)"},
		{"complete", false, "3", "a=3\nb=b", "(none)"},
		{"partial over complete", true, "4", "a=3\nb=b", "a=4\nb absent: failed: told to fail"},
		{"complete again", false, "5", "a=5\nb=b", "(none)"},
	}
	e := newEngine(t, dir)
	for _, tt := range tests {
		build(t, e, steps(tt.fail, tt.text)...)
		if got := read("tasks.jsonl"); got != tt.wantTasks {
			t.Errorf("%s: tasks.jsonl = %q, want %q", tt.name, got, tt.wantTasks)
		}
		if got := read("tasks.jsonl.partial"); got != tt.wantPartial {
			t.Errorf("%s: tasks.jsonl.partial = %q, want %q", tt.name, got, tt.wantPartial)
		}
	}
	if _, err := os.Stat(filepath.Join(out, partialMarker)); !os.IsNotExist(err) {
		t.Errorf("the partial marker outlived the complete build: %v", err)
	}
	// A tree export replaces the old tree whole, leaving no temporary.
	for _, content := range []string{"one", "two"} {
		build(t, e, &Step{ID: "tree", Kind: "test.tree", Config: []Field{{Name: "files", Value: map[string]string{"f/x": content}}},
			Exports: []Export{{Output: "tree", Path: "repo"}}})
		if got := read("repo/f/x"); got != content {
			t.Errorf("repo/f/x = %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(out)
	for _, ent := range entries {
		if strings.Contains(ent.Name(), ".tmp-") {
			t.Errorf("temporary %s left in the out dir", ent.Name())
		}
	}
}
