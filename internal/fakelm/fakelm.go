// Package fakelm is an LM server for tests of real agent CLIs: it speaks
// the OpenAI chat completions API (what mini-swe-agent calls through
// litellm, with the `bash` tool) and the OpenAI Responses API streamed as
// server-sent events (what the Codex CLI calls, with its shell tool), and
// replays a scripted solution, one shell command per turn, then what ends
// the agent (mini's end command; a plain answer for Codex).
//
// The server is stateless about conversations: the turn it answers is the
// number of assistant messages already in the request, so a client that
// retries a request gets the same answer, and several attempts of the
// same agent can run against one server. Every request is recorded, tool
// results included, so a test can check what the agent saw (that its run
// of the target's tests passed, that a registry was out of reach).
package fakelm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Done is the command mini-swe-agent's prompt tells the model to issue to
// finish (config/mini.yaml: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT").
const Done = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

// Script is a scripted solution: the shell commands the model issues, one
// per turn, by the model name the client asks for (litellm's
// "openai/fix" asks for "fix"), so one server plays several agents.
type Script struct {
	// ByModel maps a model name to its commands.
	ByModel map[string][]string `json:"by_model"`
	// Default is for any other model.
	Default []string `json:"default"`
	// YieldMS is how long Codex's exec_command waits for a command before
	// it returns and the fake polls (default 30 s, Codex's cap).
	YieldMS int `json:"yield_ms"`
}

// Request is one chat completion request as the server saw it.
type Request struct {
	Model    string
	Task     string   // the first user message
	Turn     int      // 0-based
	Results  []string // the content of every tool message so far
	Path     string
	Auth     string
	HadTools bool
}

// Server is a running fake.
type Server struct {
	*httptest.Server
	script Script
	mu     sync.Mutex
	reqs   []Request
}

// New starts a server on 127.0.0.1 replaying script.
func New(script Script) *Server {
	s := &Server{script: script}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /chat/completions", s.chat)
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("POST /responses", s.responses)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"fakelm: no such endpoint `+r.URL.Path+`","type":"invalid_request_error"}}`, http.StatusNotFound)
	})
	s.Server = httptest.NewServer(mux)
	return s
}

// command is the scripted command of model's turn, false once the script
// is over.
func (s *Server) command(model string, turn int) (string, bool) {
	commands, ok := s.script.ByModel[model]
	if !ok {
		commands = s.script.Default
	}
	if turn < len(commands) {
		return commands[turn], true
	}
	return "", false
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// Addr is the server's host:port, what network.allow lists.
func (s *Server) Addr() string { return strings.TrimPrefix(s.URL, "http://") }

// Requests returns what the server was asked so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// text is a message's content, a string or a list of text parts.
func (m message) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string            `json:"model"`
		Messages []message         `json:"messages"`
		Tools    []json.RawMessage `json:"tools"`
		Stream   bool              `json:"stream"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"fakelm: bad request body"}}`, http.StatusBadRequest)
		return
	}
	seen := Request{Model: req.Model, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), HadTools: len(req.Tools) > 0}
	for _, m := range req.Messages {
		switch m.Role {
		case "user":
			if seen.Task == "" {
				seen.Task = m.text()
			}
		case "assistant":
			seen.Turn++
		case "tool":
			seen.Results = append(seen.Results, m.text())
		}
	}
	s.record(seen)

	command, more := s.command(req.Model, seen.Turn)
	if !more {
		command = Done
	}
	args, _ := json.Marshal(map[string]string{"command": command})
	id := fmt.Sprintf("call_%d", seen.Turn+1)
	if req.Stream {
		http.Error(w, `{"error":{"message":"fakelm: streaming is not scripted"}}`, http.StatusBadRequest)
		return
	}
	resp := map[string]any{
		"id": fmt.Sprintf("chatcmpl-fake-%d", seen.Turn+1), "object": "chat.completion", "created": 1700000000,
		"model": req.Model,
		"choices": []map[string]any{{
			"index": 0, "finish_reason": "tool_calls",
			"message": map[string]any{
				"role": "assistant", "content": fmt.Sprintf("Step %d of the scripted solution.", seen.Turn+1),
				"tool_calls": []map[string]any{{
					"id": id, "type": "function",
					"function": map[string]any{"name": "bash", "arguments": string(args)},
				}},
			},
		}},
		"usage": map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}
