package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osbench/osbench/schemas/schematest"
)

// lmServer speaks the OpenAI chat-completions API (/v1/chat/completions,
// bearer key) and the Anthropic Messages API (/v1/messages, x-api-key) on
// loopback for the testdata/lmsep fixture. It answers a verification prompt with a
// platform-path verdict on every region asked about, and a masking prompt
// with a zero-value return in place of every region (each region of the
// fixture is one return statement of a string function), and records
// which model every request asked.
type lmServer struct {
	t   *testing.T
	srv *httptest.Server
	key string

	mu       sync.Mutex
	requests []lmRequest
}

type lmRequest struct{ kind, model string } // kind: "verify" or "mask"; model: provider/model

var (
	promptRegion = regexp.MustCompile(`(?m)^- start (\d+), end (\d+)`)
	promptLine   = regexp.MustCompile(`(?m)^ *(\d+) (?:>>|  ) (.*)$`)
)

func newLMServer(t *testing.T, key string) *lmServer {
	s := &lmServer{t: t, key: key}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *lmServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	var provider, gotKey string
	switch r.URL.Path {
	case "/v1/chat/completions":
		provider, gotKey = "openai", strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	case "/v1/messages":
		provider, gotKey = "anthropic", r.Header.Get("x-api-key")
	}
	if r.Method != http.MethodPost || provider == "" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	if gotKey != key {
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		Model    string `json:"model"`
		System   string `json:"system"`
		Messages []struct{ Role, Content string }
	}
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) == 0 {
		s.t.Errorf("lm server: unexpected %s request %s", provider, b)
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	// OpenAI sends the instructions as a system message, Anthropic beside
	// the messages.
	system, user := req.System, req.Messages[len(req.Messages)-1].Content
	if provider == "openai" && len(req.Messages) == 2 {
		system = req.Messages[0].Content
	}
	kind, answer := "verify", map[string]any{}
	var items []map[string]any
	for _, m := range promptRegion.FindAllStringSubmatch(user, -1) {
		start, _ := strconv.Atoi(m[1])
		end, _ := strconv.Atoi(m[2])
		if strings.Contains(system, `{"edits":`) {
			kind = "mask"
			items = append(items, map[string]any{"start": start, "end": end, "replacement": placeholder(user, start, end)})
			continue
		}
		items = append(items, map[string]any{
			"start": start, "end": end, "label": "platform-path", "functional_area": "path separator",
			"feature_group": "path_separator", "explanation": "returns the separator of one platform", "confidence": 0.9,
		})
	}
	if kind == "mask" {
		answer["edits"] = items
	} else {
		answer["regions"] = items
	}
	s.mu.Lock()
	s.requests = append(s.requests, lmRequest{kind, provider + "/" + req.Model})
	s.mu.Unlock()
	text, _ := json.Marshal(answer)
	w.Header().Set("Content-Type", "application/json")
	if provider == "anthropic" {
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_e2e", "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{map[string]any{"type": "text", "text": string(text)}}, "stop_reason": "end_turn",
		})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-e2e", "object": "chat.completion", "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": string(text)}, "finish_reason": "stop"}},
	})
}

// placeholder is what the model puts in place of lines start..end of the
// file in a masking prompt: the first line of code becomes `return ""` at
// its indentation, the other lines go, and closing braces stay (a region
// can end with the brace of the block its code is in).
func placeholder(prompt string, start, end int) string {
	var out []string
	returned := false
	for _, m := range promptLine.FindAllStringSubmatch(prompt, -1) {
		n, _ := strconv.Atoi(m[1])
		code := m[2]
		switch {
		case n < start || n > end:
		case strings.TrimSpace(code) == "}":
			out = append(out, code)
		case !returned:
			out = append(out, code[:len(code)-len(strings.TrimLeft(code, " \t"))]+`return ""`)
			returned = true
		}
	}
	return strings.Join(out, "\n")
}

// counts returns how many requests of each "kind model" the server got.
func (s *lmServer) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := map[string]int{}
	for _, r := range s.requests {
		c[r.kind+" "+r.model]++
	}
	return c
}

// ranSteps lists the steps a build with --log-format json ran.
func ranSteps(stderr string) []string {
	var ran []string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct{ Step, Status string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Status == "ran" {
			ran = append(ran, ev.Step)
		}
	}
	sort.Strings(ran)
	return ran
}

// lmManifest is the fixture built twice: "lmsep" is verified and masked by
// the model through the OpenAI API, "lmmask" only masked by it, through the
// Anthropic API (its verifier is the rules).
func lmManifest(fixture, serverURL, model string) string {
	repo := func(name, verifier, provider, base string) string {
		settings := fmt.Sprintf(`{ provider = %q, model = %q, base_url = %q, api_key_env = "OSBENCH_E2E_LM_KEY" }`, provider, model, base)
		return fmt.Sprintf(`repository %q {
  preset = "go"
  source {
    path = %q
  }
  toolchain  = "go1.26.8"
  migrate    = ["linux->windows", "windows->linux"]
  flaky_runs = 1
  verifier   = %q
  masker     = "lm"
  lm         = %s
}
`, name, fixture, verifier, settings)
	}
	return repo("lmsep", "lm", "openai", serverURL+"/v1") + "\n" + repo("lmmask", "rules", "anthropic", serverURL)
}

// TestLMModelChangeRerunsOnlyWhatUsesTheModel builds a manifest whose
// verifier and masker are a language model, served by a local server that
// speaks the OpenAI and the Anthropic APIs, then changes the model: exactly
// the steps that ask the model (verify where the verifier is the model,
// every mask) and what their results feed rerun; the platform runs and the
// rules-verified repository's verify are hits. A new API key reruns nothing.
func TestLMModelChangeRerunsOnlyWhatUsesTheModel(t *testing.T) {
	requireBinary(t)
	began := time.Now()
	const key = "sk-e2e-0123456789"
	t.Setenv("OSBENCH_E2E_LM_KEY", key)
	srv := newLMServer(t, key)
	dir := reachableTempDir(t)
	cacheDir := filepath.Join(dir, "cache")
	// The tool caches (GOCACHE, the Wine prefix) are the corpus's, as for
	// every other test; the records are this test's own.
	if err := os.MkdirAll(filepath.Join(corpusCache, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(cacheDir, 0o755)
	if err := os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(cacheDir, "state")); err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(repoRoot, "cmd", "osbench", "testdata", "lmsep")
	mdir := filepath.Join(dir, "m")
	os.MkdirAll(mdir, 0o755)
	manifest := filepath.Join(mdir, "lm.hcl")
	write := func(model string) {
		if err := os.WriteFile(manifest, []byte(lmManifest(fixture, srv.srv.URL, model)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := func(step string) []string {
		t.Helper()
		start := time.Now()
		out := filepath.Join(dir, "out-"+step)
		stdout, stderr, code := runOsbench(t, cacheDir, "--log-format", "json", "build", mdir, "--out", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", step, code, stdout, stderr)
		}
		t.Logf("%s: %s, %s", step, time.Since(start).Round(time.Second), lastLine(stdout))
		return ranSteps(stderr)
	}

	write("model-a")
	build("first build")
	out := filepath.Join(dir, "out-first build")
	if got := srv.counts(); got["verify openai/model-a"] != 2 || got["mask openai/model-a"] != 2 || got["mask anthropic/model-a"] != 2 || len(got) != 3 {
		t.Errorf("first build asked %v; want 2 verify and 2 mask requests of openai/model-a (lmsep), 2 mask requests of anthropic/model-a (lmmask)", got)
	}
	regionsSchema := schematest.Compile(t, "regions")
	for _, d := range []string{"linux-to-windows", "windows-to-linux"} {
		p := filepath.Join(out, "candidates", "lmsep", d, "regions.json")
		schematest.ValidateFile(t, regionsSchema, p)
		var v struct {
			Regions []struct{ Label, Verifier string }
		}
		readJSON(t, p, &v)
		if len(v.Regions) != 1 || v.Regions[0].Verifier != "lm:openai/model-a" || v.Regions[0].Label != "platform-path" {
			t.Errorf("lmsep %s: regions %+v; want the one region judged by lm:openai/model-a", d, v.Regions)
		}
		for _, repo := range []string{"lmsep", "lmmask"} {
			var o struct {
				Accepted bool
				Rejected string
				Mask     struct {
					Masker  string
					Actions []struct{ Kind, Detail string }
				}
			}
			readJSON(t, filepath.Join(out, "tasks", repo+"__"+d, "outcome.json"), &o)
			if !o.Accepted || o.Mask.Masker != "lm" {
				t.Errorf("%s %s: accepted %v (%s), masker %q; want a task masked by the model", repo, d, o.Accepted, o.Rejected, o.Mask.Masker)
			}
			for _, a := range o.Mask.Actions {
				if a.Kind == "fallback" {
					t.Errorf("%s %s: the model's mask was refused: %s", repo, d, a.Detail)
				}
			}
		}
	}

	// A new model: plan says what reruns and why before anything runs.
	write("model-b")
	stdout, stderr, code := runOsbench(t, cacheDir, "plan", mdir)
	if code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		`(?m)^miss +lmsep/linux-to-windows/verify +.*model-a.*model-b`,
		`(?m)^miss +lmsep/windows-to-linux/verify `,
		`(?m)^miss +lmmask/linux-to-windows/mask +.*model-a.*model-b`,
		`(?m)^hit +lmmask/linux-to-windows/verify *$`,
		`(?m)^hit +lmsep/windows/test *$`,
		`(?m)^hit +lmsep/linux-to-windows/diffcov *$`,
	} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("plan after the model change: no line matching %s\n%s", want, stdout)
		}
	}
	ran := build("rebuild with model-b")
	t.Logf("the model change reran %v", ran)
	// mask-retry masks again (coarse) with the same masker when the first
	// mask's run is loud, so it is keyed by the model too.
	allowed := regexp.MustCompile(`^(lmsep/[a-z]+-to-[a-z]+/(verify|mask|mask-retry|(masked|retried)/[a-z]+/test|task)|lmmask/[a-z]+-to-[a-z]+/(mask|mask-retry|(masked|retried)/[a-z]+/test|task)|tasks)$`)
	need := map[string]bool{}
	for _, d := range []string{"linux-to-windows", "windows-to-linux"} {
		need["lmsep/"+d+"/verify"], need["lmsep/"+d+"/mask"], need["lmmask/"+d+"/mask"] = true, true, true
	}
	for _, id := range ran {
		if !allowed.MatchString(id) {
			t.Errorf("the model change reran %s, which does not use the model", id)
		}
		delete(need, id)
	}
	if len(need) > 0 {
		t.Errorf("the model change did not rerun %v (ran %v)", need, ran)
	}
	if got := srv.counts(); got["verify openai/model-b"] != 2 || got["mask openai/model-b"] != 2 || got["mask anthropic/model-b"] != 2 || len(got) != 6 {
		t.Errorf("after the model change the server got %v; want model-b asked as model-a was", got)
	}

	// The API key is not in any key: a new one reruns nothing.
	t.Setenv("OSBENCH_E2E_LM_KEY", key+"-rotated")
	srv.mu.Lock()
	srv.key = key + "-rotated"
	srv.mu.Unlock()
	if ran := build("rebuild with a new API key"); len(ran) != 0 {
		t.Errorf("a new API key reran %v", ran)
	}
	t.Logf("the whole test took %s", time.Since(began).Round(time.Second))
}
