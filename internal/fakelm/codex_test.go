package fakelm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexReplays drives the real Codex CLI, outside any sandbox, over
// the streamed Responses API: read a file, edit it, check the edit, then a
// command that outlives exec_command's first yield (polled with
// write_stdin), then the answer that ends the turn.
func TestCodexReplays(t *testing.T) {
	codex := Codex()
	if codex == "" {
		t.Skip("codex is not installed (make tools)")
	}
	s := New(Script{YieldMS: 500, ByModel: map[string][]string{"greeting": {
		"sleep 2; echo slept", "cat hello.txt", "sed -i 's/hello/goodbye/' hello.txt", "grep -c goodbye hello.txt",
	}}})
	defer s.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, ".codex")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(codex, CodexArgs(s.URL+"/v1", "greeting", "fix the greeting", filepath.Join(dir, "last.txt"))...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), CodexEnv(home)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("codex: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "hello.txt"))
	if string(b) != "goodbye world\n" {
		t.Errorf("hello.txt = %q\n%s", b, out)
	}
	reqs := s.Requests()
	if len(reqs) < 6 {
		t.Fatalf("%d requests, want at least 6 (4 commands, a poll and the end)\n%s", len(reqs), out)
	}
	last := reqs[len(reqs)-1]
	if last.Turn != 4 || !last.HadTools || !strings.Contains(last.Task, "fix the greeting") ||
		!strings.Contains(strings.Join(last.Results, "\n"), "hello world") ||
		!strings.Contains(strings.Join(last.Results, "\n"), "slept") {
		t.Errorf("the last request: %+v\n%s", last, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "last.txt")); !strings.Contains(string(b), "scripted solution is complete") {
		t.Errorf("last message %q\n%s", b, out)
	}
}
