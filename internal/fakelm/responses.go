package fakelm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The Responses API (POST /v1/responses), as the Codex CLI speaks it: the
// whole conversation is resent each turn as input items (messages,
// function_call, function_call_output), and the answer is streamed as
// server-sent events whose data lines are JSON objects with a "type". The
// turn is the number of shell commands already called, counted from the
// input, so the server stays stateless like the chat completions one.

// pollTool is Codex's tool for reading more output of a command still
// running when exec_command returned (it yields after yield_time_ms).
const pollTool = "write_stdin"

// runningSession matches what exec_command returns for a command that has
// not ended yet: the session to poll.
var runningSession = regexp.MustCompile(`session ID (\d+)`)

type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
}

// partsText is a content or output field: a string or a list of parts
// with text.
func partsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model  string          `json:"model"`
		Input  []responsesItem `json:"input"`
		Tools  []responsesTool `json:"tools"`
		Stream bool            `json:"stream"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"fakelm: bad request body"}}`, http.StatusBadRequest)
		return
	}
	seen := Request{Model: req.Model, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), HadTools: len(req.Tools) > 0}
	var tasks []string
	for _, it := range req.Input {
		switch it.Type {
		case "message":
			if it.Role == "user" {
				tasks = append(tasks, partsText(it.Content))
			}
		case "function_call":
			if it.Name != pollTool {
				seen.Turn++
			}
		case "function_call_output":
			seen.Results = append(seen.Results, partsText(it.Output))
		}
	}
	seen.Task = strings.Join(tasks, "\n")
	s.record(seen)

	var item map[string]any
	id := fmt.Sprintf("%d_%d", seen.Turn+1, len(req.Input))
	if session := pollSession(req.Input); session != "" {
		// The last command is still running: wait for it, as a model
		// would, before the script goes on.
		item = functionCall(id, pollTool, map[string]any{"session_id": atoi(session), "chars": "", "yield_time_ms": s.yieldMS()})
	} else if command, more := s.command(req.Model, seen.Turn); more {
		name, args, err := shellCall(req.Tools, command, s.yieldMS())
		if err != nil {
			http.Error(w, `{"error":{"message":"fakelm: `+err.Error()+`","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		item = functionCall(id, name, args)
	} else {
		item = map[string]any{
			"type": "message", "role": "assistant", "id": "msg_" + id, "status": "completed",
			"content": []map[string]any{{"type": "output_text", "text": "The scripted solution is complete.", "annotations": []any{}}},
		}
	}
	usage := map[string]any{
		"input_tokens": 100, "input_tokens_details": map[string]int{"cached_tokens": 0},
		"output_tokens": 20, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
		"total_tokens": 120,
	}
	resp := map[string]any{"id": "resp_" + id, "object": "response", "model": req.Model, "status": "completed", "output": []any{item}, "usage": usage}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	created := map[string]any{"id": "resp_" + id, "object": "response", "model": req.Model, "status": "in_progress", "output": []any{}}
	events := []map[string]any{
		{"type": "response.created", "response": created},
		{"type": "response.output_item.added", "output_index": 0, "item": item},
		{"type": "response.output_item.done", "output_index": 0, "item": item},
		{"type": "response.completed", "response": resp},
	}
	flusher, _ := w.(http.Flusher)
	for _, ev := range events {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

type responsesTool struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// shellCall is the call running command with the shell tool the client
// offers: exec_command (unified exec, a command line), shell_command (a
// command line) or shell (an argv), whichever comes first in that order.
func shellCall(tools []responsesTool, command string, yieldMS int) (string, map[string]any, error) {
	offered := map[string]bool{}
	for _, t := range tools {
		if t.Type == "function" {
			offered[t.Name] = true
		}
	}
	switch {
	case offered["exec_command"]:
		return "exec_command", map[string]any{"cmd": command, "yield_time_ms": yieldMS}, nil
	case offered["shell_command"]:
		return "shell_command", map[string]any{"command": command, "timeout_ms": 600000}, nil
	case offered["shell"]:
		return "shell", map[string]any{"command": []string{"bash", "-lc", command}, "timeout_ms": 600000}, nil
	}
	return "", nil, fmt.Errorf("no shell tool offered (exec_command, shell_command, shell)")
}

func functionCall(id, name string, args map[string]any) map[string]any {
	b, _ := json.Marshal(args)
	return map[string]any{
		"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "status": "completed",
		"name": name, "arguments": string(b),
	}
}

// pollSession is the session of a command the last tool output says is
// still running, "" when the last input is anything else.
func pollSession(input []responsesItem) string {
	if len(input) == 0 {
		return ""
	}
	last := input[len(input)-1]
	if last.Type != "function_call_output" {
		return ""
	}
	out := partsText(last.Output)
	if strings.Contains(out, "Process exited with code") {
		return ""
	}
	if m := runningSession.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

func (s *Server) yieldMS() int {
	if s.script.YieldMS > 0 {
		return s.script.YieldMS
	}
	return 30000
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
