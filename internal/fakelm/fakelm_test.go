package fakelm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// MiniSWEAgent finds the pinned mini-swe-agent CLI that `make tools`
// installs (OSBENCH_MINI_SWE_AGENT, else its place in the tools cache); ""
// when it is not installed.
func MiniSWEAgent() string {
	if p := os.Getenv("OSBENCH_MINI_SWE_AGENT"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "osbench-tools", "mini-swe-agent-"+MiniSWEAgentVersion, "bin", "mini")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestMiniSWEAgentReplays drives the real CLI, outside any sandbox, with a
// script that reads a file, edits it and checks the edit.
func TestMiniSWEAgentReplays(t *testing.T) {
	mini := MiniSWEAgent()
	if mini == "" {
		t.Skip("mini-swe-agent is not installed (make tools)")
	}
	s := New(Script{ByModel: map[string][]string{"greeting": {
		"cat hello.txt", "sed -i 's/hello/goodbye/' hello.txt", "grep -c goodbye hello.txt",
	}}})
	defer s.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mini, MiniArgs("greeting", "fix the greeting", filepath.Join(dir, "traj.json"))...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), MiniEnv(s.URL+"/v1", filepath.Join(dir, "home"))...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mini: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "hello.txt"))
	if string(b) != "goodbye world\n" {
		t.Errorf("hello.txt = %q\n%s", b, out)
	}
	reqs := s.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (3 commands and the end)\n%s", len(reqs), out)
	}
	last := reqs[3]
	if !last.HadTools || !strings.Contains(last.Results[0], "hello world") || !strings.Contains(last.Results[2], "1") {
		t.Errorf("the last request: %+v", last)
	}
}
