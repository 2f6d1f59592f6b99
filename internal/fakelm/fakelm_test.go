package fakelm

import (
	"io"
	"net/http"
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

// TestResponsesStream checks the Responses API without Codex: the event
// stream of a shell call, the poll of a command still running, and the
// answer that ends the turn.
func TestResponsesStream(t *testing.T) {
	s := New(Script{YieldMS: 700, ByModel: map[string][]string{"m": {"make test"}}})
	defer s.Close()
	tools := `"tools":[{"type":"function","name":"exec_command"},{"type":"function","name":"write_stdin"}]`
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}`
	call := `{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c1"}`
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"the first turn calls the shell", user, []string{
			"event: response.created\n", "event: response.output_item.done\n", "event: response.completed\n",
			`"name":"exec_command"`, `"arguments":"{\"cmd\":\"make test\",\"yield_time_ms\":700}"`}},
		{"a command still running is polled", user + `,` + call + `,{"type":"function_call_output","call_id":"c1","output":"Process running with session ID 42\nOutput:\n"}`, []string{
			`"name":"write_stdin"`, `\"session_id\":42`}},
		{"the end of the script is an answer", user + `,` + call + `,{"type":"function_call_output","call_id":"c1","output":"Process exited with code 0\nOutput:\nok\n"}`, []string{
			`"type":"message"`, `scripted solution is complete`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"model":"m","stream":true,` + tools + `,"input":[` + tc.input + `]}`
			resp, err := http.Post(s.URL+"/v1/responses", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("content type %q", ct)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("no %q in\n%s", w, b)
				}
			}
		})
	}
	if r := s.Requests(); len(r) != 3 || r[0].Turn != 0 || r[2].Turn != 1 || r[0].Task != "fix it" {
		t.Errorf("requests %+v", r)
	}
}

// TestMiniScriptStepBudget runs the shipped manifests/agents/mini.sh the
// way osbench solve does (outside any sandbox here) with a budget of 2
// steps: mini stops after its second model call, so the third scripted
// command never runs.
func TestMiniScriptStepBudget(t *testing.T) {
	mini := MiniSWEAgent()
	if mini == "" {
		t.Skip("mini-swe-agent is not installed (make tools)")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "manifests", "agents", "mini.sh"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(Script{ByModel: map[string][]string{"steps": {"echo one >> log.txt", "echo two >> log.txt", "echo three >> log.txt"}}})
	defer s.Close()
	dir := t.TempDir()
	instruction := filepath.Join(dir, "instruction.md")
	if err := os.WriteFile(instruction, []byte("count to three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "MINI_VENV="+filepath.Dir(filepath.Dir(mini)), "OSBENCH_LM="+s.URL+"/v1", "OSBENCH_MODEL=steps",
		"OPENAI_API_KEY=fake-key", "HOME="+dir, "OSBENCH_INSTRUCTION="+instruction, "OSBENCH_ARTIFACTS="+dir, "OSBENCH_MAX_STEPS=2",
		"OSBENCH_MAX_COST=2.5", "OSBENCH_USAGE="+filepath.Join(dir, "usage.jsonl"))
	out, _ := cmd.CombinedOutput() // mini exits non-zero when a limit ends it
	b, _ := os.ReadFile(filepath.Join(ws, "log.txt"))
	if string(b) != "one\ntwo\n" {
		t.Errorf("log.txt = %q, want the first two commands only\n%s", b, out)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("%d model calls, want 2\n%s", n, out)
	}
	// Its usage reaches osbench's channel, the last line the totals (a
	// model litellm has no price for costs nothing).
	usage, _ := os.ReadFile(filepath.Join(dir, "usage.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(usage)), "\n")
	if last := lines[len(lines)-1]; last != `{"steps": 2, "cost_usd": 0.0}` {
		t.Errorf("usage.jsonl = %q, want a last line of 2 steps, no cost", usage)
	}
}
