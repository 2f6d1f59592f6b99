package lm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

var testRequest = Request{Model: "test-model", System: "be brief", Prompt: "say {}", Temperature: 0.2, MaxTokens: 1000}

func TestOpenAIRequestShape(t *testing.T) {
	for _, tc := range []struct {
		name       string
		azure      string
		wantQuery  string
		wantHeader map[string]string
	}{
		{name: "openai", wantHeader: map[string]string{"Authorization": "Bearer " + testKey, "Api-Key": ""}},
		{name: "azure", azure: "2024-10-21", wantQuery: "api-version=2024-10-21",
			wantHeader: map[string]string{"Api-Key": testKey, "Authorization": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAPI(t, OpenAIName, reply{Status: 200, Body: readTestdata(t, "openai/chat_completion.json")})
			cfg := f.testConfig()
			cfg.AzureAPIVersion = tc.azure
			resp, err := newTestProvider(t, f, cfg).Complete(context.Background(), testRequest)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(resp.Text, `{"regions":[{"start":19,"end":21,`) {
				t.Errorf("text = %q", resp.Text)
			}
			reqs := f.received()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Path != "/v1/chat/completions" || r.Query != tc.wantQuery {
				t.Errorf("path %q query %q", r.Path, r.Query)
			}
			tc.wantHeader["Content-Type"] = "application/json"
			checkHeaders(t, r.Header, tc.wantHeader)
			checkBody(t, r.Body, map[string]any{
				"model":           "test-model",
				"temperature":     0.2,
				"max_tokens":      1000.0,
				"response_format": map[string]any{"type": "json_object"},
				"messages": []any{
					map[string]any{"role": "system", "content": "be brief"},
					map[string]any{"role": "user", "content": "say {}"},
				},
			})
		})
	}
}

func TestAnthropicRequestShape(t *testing.T) {
	f := newFakeAPI(t, AnthropicName, reply{Status: 200, Body: readTestdata(t, "anthropic/message.json")})
	resp, err := newTestProvider(t, f, f.testConfig()).Complete(context.Background(), testRequest)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture splits the answer over two text blocks.
	if _, err := parseAnswer(resp.Text); err != nil {
		t.Errorf("joined text blocks do not parse: %v\n%s", err, resp.Text)
	}
	r := f.received()[0]
	if r.Path != "/v1/messages" || r.Query != "" {
		t.Errorf("path %q query %q", r.Path, r.Query)
	}
	checkHeaders(t, r.Header, map[string]string{
		"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json", "Authorization": "",
	})
	checkBody(t, r.Body, map[string]any{
		"model":       "test-model",
		"system":      "be brief",
		"max_tokens":  1000.0,
		"temperature": 0.2,
		"messages":    []any{map[string]any{"role": "user", "content": "say {}"}},
	})
}

func TestNoKeyConfiguredSendsNoCredentials(t *testing.T) {
	for _, provider := range []string{OpenAIName, AnthropicName} {
		t.Run(provider, func(t *testing.T) {
			f := newFakeAPI(t, provider, reply{Answer: "{}"})
			cfg := f.testConfig()
			cfg.APIKeyEnv = "" // a local vLLM or Ollama server
			if _, err := newTestProvider(t, f, cfg).Complete(context.Background(), testRequest); err != nil {
				t.Fatal(err)
			}
			checkHeaders(t, f.received()[0].Header, map[string]string{"Authorization": "", "X-Api-Key": "", "Api-Key": ""})
		})
	}
}

func TestRetries(t *testing.T) {
	tooMany := reply{Status: 429, Body: readTestdata(t, "openai/error_429.json"), RetryAfter: "0"}
	unavailable := reply{Status: 503, Body: "upstream unavailable"}
	overloaded := reply{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error"}}`}
	for _, tc := range []struct {
		name         string
		maxRetries   int
		replies      []reply
		wantRequests int
		wantErr      string // "" for success
	}{
		{name: "429 then 200", replies: []reply{tooMany, {Answer: "{}"}}, wantRequests: 2},
		{name: "5xx twice then 200", replies: []reply{unavailable, overloaded, {Answer: "{}"}}, wantRequests: 3},
		{name: "retries are bounded", maxRetries: 2, replies: []reply{unavailable, unavailable, unavailable}, wantRequests: 3,
			wantErr: "HTTP 503 Service Unavailable: upstream unavailable"},
		{name: "no retries", maxRetries: -1, replies: []reply{tooMany}, wantRequests: 1, wantErr: "HTTP 429"},
		{name: "400 is not retried", replies: []reply{{Status: 400, Body: `{"error":{"message":"bad model"}}`}}, wantRequests: 1,
			wantErr: `HTTP 400 Bad Request: {"error":{"message":"bad model"}}`},
	} {
		for _, provider := range []string{OpenAIName, AnthropicName} {
			t.Run(tc.name+"/"+provider, func(t *testing.T) {
				f := newFakeAPI(t, provider, tc.replies...)
				cfg := f.testConfig()
				cfg.MaxRetries = tc.maxRetries
				resp, err := newTestProvider(t, f, cfg).Complete(context.Background(), testRequest)
				if n := len(f.received()); n != tc.wantRequests {
					t.Errorf("%d requests, want %d", n, tc.wantRequests)
				}
				switch {
				case tc.wantErr == "" && err != nil:
					t.Fatalf("error: %v", err)
				case tc.wantErr == "" && resp.Text != "{}":
					t.Errorf("text = %q", resp.Text)
				case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
					t.Errorf("error = %v, want it to contain %q", err, tc.wantErr)
				}
			})
		}
	}
}

func TestUnauthorizedErrorIsClearAndKeyFree(t *testing.T) {
	for _, tc := range []struct{ provider, body string }{
		// A server that quotes the key back must not get it into the error.
		{OpenAIName, `{"error":{"message":"Incorrect API key provided: ` + testKey + `.","code":"invalid_api_key"}}`},
		{AnthropicName, readTestdata(t, "anthropic/error_401.json")},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			f := newFakeAPI(t, tc.provider, reply{Status: 401, Body: tc.body})
			_, err := newTestProvider(t, f, f.testConfig()).Complete(context.Background(), testRequest)
			var httpErr *HTTPError
			if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusUnauthorized {
				t.Fatalf("error = %v, want an HTTPError with status 401", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.provider+": HTTP 401 Unauthorized: {") {
				t.Errorf("error %q does not name the provider, the status and the body", msg)
			}
			if strings.Contains(msg, testKey) || strings.Contains(msg, "SECRET") {
				t.Errorf("error leaks the key: %q", msg)
			}
			if len(f.received()) != 1 {
				t.Errorf("401 was retried")
			}
		})
	}
}

func TestMissingKeyFailsBeforeAnyRequest(t *testing.T) {
	t.Setenv(testKeyEnv, "")
	_, err := NewProvider(Config{Provider: OpenAIName, Model: "m", APIKeyEnv: testKeyEnv})
	if err == nil || !strings.Contains(err.Error(), testKeyEnv) {
		t.Errorf("error = %v, want one naming %s", err, testKeyEnv)
	}
}

func TestBadResponses(t *testing.T) {
	big := strings.Repeat("x", maxResponseBytes+1)
	for _, tc := range []struct {
		name, provider, body, wantErr string
	}{
		{"oversized", OpenAIName, big, "larger than"},
		{"not JSON", OpenAIName, "<html>gateway</html>", "decode response"},
		{"no choices", OpenAIName, `{"choices":[]}`, "no choices"},
		{"null content", OpenAIName, `{"choices":[{"message":{"content":null},"finish_reason":"length"}]}`, `finish_reason "length"`},
		{"refusal", OpenAIName, `{"choices":[{"message":{"content":null,"refusal":"I can't"}}]}`, "refused: I can't"},
		{"no text block", AnthropicName, `{"content":[{"type":"tool_use"}],"stop_reason":"max_tokens"}`, `stop_reason "max_tokens"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAPI(t, tc.provider, reply{Status: 200, Body: tc.body})
			_, err := newTestProvider(t, f, f.testConfig()).Complete(context.Background(), testRequest)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want it to contain %q", err, tc.wantErr)
			}
			if err != nil && len(err.Error()) > 2*maxSnippetBytes {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
		})
	}
}

func TestCancelStopsWaitingForRetry(t *testing.T) {
	f := newFakeAPI(t, OpenAIName, reply{Status: 429, Body: "slow down", RetryAfter: "30"})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := newTestProvider(t, f, f.testConfig()).Complete(ctx, testRequest)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the context's", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Complete took %v after the context ended", d)
	}
}

func TestBackoffIsBounded(t *testing.T) {
	b := backoff{base: 10 * time.Millisecond, max: 80 * time.Millisecond}
	for n := 0; n < 100; n++ {
		if d := b.wait(n); d < 5*time.Millisecond || d > 80*time.Millisecond {
			t.Errorf("wait(%d) = %v, outside [5ms, 80ms]", n, d)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "0": 0, "3": 3 * time.Second, "soon": 0, "-1": 0} {
		if got := parseRetryAfter(in); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
	if got := parseRetryAfter(time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)); got < 59*time.Minute {
		t.Errorf("HTTP date an hour ahead gives %v", got)
	}
}

func checkHeaders(t *testing.T, h http.Header, want map[string]string) {
	t.Helper()
	for name, value := range want {
		if got := h.Get(name); got != value {
			t.Errorf("header %s = %q, want %q", name, got, value)
		}
	}
}

// checkBody compares the decoded JSON body with want, field by field, and
// reports fields the body has beyond want.
func checkBody(t *testing.T, body map[string]any, want map[string]any) {
	t.Helper()
	for k, w := range want {
		if got, ok := body[k]; !ok || !jsonEqual(got, w) {
			t.Errorf("body.%s = %#v, want %#v", k, got, w)
		}
	}
	for k := range body {
		if _, ok := want[k]; !ok {
			t.Errorf("body has unexpected field %q", k)
		}
	}
}

func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k := range a {
			if !jsonEqual(a[k], b[k]) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}
