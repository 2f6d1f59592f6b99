package lm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// reply is one scripted answer of a fake API: a status with a raw body, or
// (Status 0) a model answer text that the fake wraps in its provider's
// response envelope.
type reply struct {
	Status     int
	Body       string
	RetryAfter string
	Answer     string
}

// recorded is one request a fake API received.
type recorded struct {
	Path   string
	Query  string
	Header http.Header
	Body   map[string]any
}

// fakeAPI is a local HTTP server that speaks one provider's API: it answers
// with a queue of replies and records every request.
type fakeAPI struct {
	t        *testing.T
	provider string
	srv      *httptest.Server

	mu       sync.Mutex
	replies  []reply
	requests []recorded
}

func newFakeAPI(t *testing.T, provider string, replies ...reply) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, provider: provider, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// baseURL is what a Config's BaseURL is for this fake.
func (f *fakeAPI) baseURL() string {
	if f.provider == OpenAIName {
		return f.srv.URL + "/v1"
	}
	return f.srv.URL
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	var body map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &body)
	}
	if err != nil {
		f.t.Errorf("fake %s: request body is not a JSON object: %v", f.provider, err)
	}
	f.mu.Lock()
	f.requests = append(f.requests, recorded{Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
	if len(f.replies) == 0 {
		f.mu.Unlock()
		f.t.Errorf("fake %s: unexpected request %d", f.provider, len(f.requests))
		http.Error(w, `{"error":"no reply scripted"}`, http.StatusTeapot)
		return
	}
	rep := f.replies[0]
	f.replies = f.replies[1:]
	f.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 {
		w.WriteHeader(rep.Status)
		io.WriteString(w, rep.Body)
		return
	}
	json.NewEncoder(w).Encode(f.envelope(rep.Answer))
}

// envelope wraps a model's text the way the provider's API returns it.
func (f *fakeAPI) envelope(text string) any {
	if f.provider == OpenAIName {
		return map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{
				"index":         0,
				"message":       map[string]any{"role": "assistant", "content": text},
				"finish_reason": "stop",
			}},
		}
	}
	return map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake",
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": "end_turn",
	}
}

func (f *fakeAPI) received() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}

// testConfig is a Config for the fake, its key in testKeyEnv.
func (f *fakeAPI) testConfig() Config {
	return Config{Provider: f.provider, Model: "test-model", BaseURL: f.baseURL(), APIKeyEnv: testKeyEnv, MaxTokens: 1000}
}

// Test credentials: the key is a marker that must never show up in errors.
const (
	testKeyEnv = "OSBENCH_LM_TEST_KEY"
	testKey    = "sk-test-SECRET-0123456789"
)

// newTestProvider returns f's provider, with the test key set and backoff
// shortened so retries take milliseconds.
func newTestProvider(t *testing.T, f *fakeAPI, cfg Config) Provider {
	t.Helper()
	t.Setenv(testKeyEnv, testKey)
	p, err := NewProvider(cfg)
	if err != nil {
		t.Fatalf("NewProvider: %v", err)
	}
	fast := backoff{base: time.Millisecond, max: 4 * time.Millisecond}
	switch p := p.(type) {
	case *openAI:
		p.http.backoff = fast
	case *anthropic:
		p.http.backoff = fast
	}
	return p
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
