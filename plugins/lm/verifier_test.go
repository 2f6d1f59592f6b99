package lm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

func pathsepInput(t *testing.T) verify.Input {
	return verify.Input{Path: "pathsep.go", Source: readFixture(t, "pathsep/pathsep.go"),
		SourceOS: "linux", TargetOS: "windows", Regions: pathsepRegions}
}

// TestVerifyOverHTTP runs the verifier against each provider's fake API
// with scripted answers from testdata/answers.
func TestVerifyOverHTTP(t *testing.T) {
	good := reply{Answer: readTestdata(t, "answers/pathsep_good.json")}
	badLabel := reply{Answer: readTestdata(t, "answers/pathsep_bad_label.json")}
	partial := reply{Answer: readTestdata(t, "answers/pathsep_partial.json")}
	prose := reply{Answer: readTestdata(t, "answers/prose.txt")}
	for _, tc := range []struct {
		name       string
		replies    []reply
		wantLabels []string
		// wantRetryNote is in the second request's prompt, when there is one.
		wantRetryNote string
	}{
		{name: "good answer", replies: []reply{good},
			wantLabels: []string{schemas.LabelPath, schemas.LabelPath, schemas.LabelPath}},
		{name: "bad then good", replies: []reply{badLabel, good},
			wantLabels:    []string{schemas.LabelPath, schemas.LabelPath, schemas.LabelPath},
			wantRetryNote: "- at /regions/0/label: value must be one of"},
		{name: "two bad answers", replies: []reply{prose, badLabel},
			wantLabels:    []string{Unverified, Unverified, Unverified},
			wantRetryNote: "not one JSON object"},
		{name: "partial twice keeps what was answered", replies: []reply{partial, partial},
			wantLabels:    []string{schemas.LabelPath, Unverified, Unverified},
			wantRetryNote: "region 30-39 is not answered"},
		{name: "partial then the rest", replies: []reply{partial, good},
			wantLabels:    []string{schemas.LabelPath, schemas.LabelPath, schemas.LabelPath},
			wantRetryNote: "lines 30-40 are not one of the regions"},
	} {
		for _, provider := range []string{OpenAIName, AnthropicName} {
			t.Run(tc.name+"/"+provider, func(t *testing.T) {
				f := newFakeAPI(t, provider, tc.replies...)
				cfg := f.testConfig()
				v, err := NewVerifier(cfg, newTestProvider(t, f, cfg))
				if err != nil {
					t.Fatal(err)
				}
				verdicts, err := v.Verify(context.Background(), pathsepInput(t))
				if err != nil {
					t.Fatal(err)
				}
				if len(verdicts) != len(tc.wantLabels) {
					t.Fatalf("%d verdicts, want %d", len(verdicts), len(tc.wantLabels))
				}
				for i, verdict := range verdicts {
					if verdict.Label != tc.wantLabels[i] {
						t.Errorf("verdict %d label %q, want %q", i, verdict.Label, tc.wantLabels[i])
					}
					if verdict.Verifier != "lm:"+provider+"/test-model" {
						t.Errorf("verdict %d verifier %q", i, verdict.Verifier)
					}
					if verdict.Label == Unverified && (verdict.Confidence != 0 || !strings.Contains(verdict.Explanation, "after 2 attempts")) {
						t.Errorf("unverified verdict %d = %+v", i, verdict)
					}
				}
				reqs := f.received()
				if len(reqs) != len(tc.replies) {
					t.Fatalf("%d requests, want %d", len(reqs), len(tc.replies))
				}
				first := userTurn(t, provider, reqs[0])
				if !strings.Contains(first, "20 [W] \t\treturn c == '\\\\' || c == '/'") {
					t.Errorf("first prompt does not mark line 20:\n%s", first)
				}
				if len(reqs) > 1 {
					second := userTurn(t, provider, reqs[1])
					if !strings.HasPrefix(second, first) || !strings.Contains(second[len(first):], tc.wantRetryNote) {
						t.Errorf("second prompt is not the first plus %q:\n%s", tc.wantRetryNote, second[len(first):])
					}
				}
			})
		}
	}
}

// userTurn returns the user message of a recorded request.
func userTurn(t *testing.T, provider string, r recorded) string {
	t.Helper()
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		if m, ok := m.(map[string]any); ok && m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("%s request has no user message: %v", provider, r.Body)
	return ""
}

// scripted is a Provider double that returns fixed texts and counts calls.
type scripted struct {
	texts []string
	err   error
	calls int
}

func (s *scripted) Complete(ctx context.Context, req Request) (Response, error) {
	s.calls++
	if s.err != nil {
		return Response{}, s.err
	}
	if len(s.texts) == 0 {
		return Response{}, errors.New("no more answers")
	}
	text := s.texts[0]
	s.texts = s.texts[1:]
	return Response{Text: text}, nil
}

func TestVerifyRejectsUnusableInput(t *testing.T) {
	src := readFixture(t, "pathsep/pathsep.go")
	for _, tc := range []struct {
		name    string
		in      verify.Input
		wantErr string
	}{
		{"language", verify.Input{Path: "x.py", Source: src, SourceOS: "linux", TargetOS: "windows", Regions: pathsepRegions}, "unsupported language"},
		{"platform", verify.Input{Path: "x.go", Source: src, SourceOS: "linux", TargetOS: "darwin", Regions: pathsepRegions}, `platform "darwin"`},
		{"same platform", verify.Input{Path: "x.go", Source: src, SourceOS: "linux", TargetOS: "linux", Regions: pathsepRegions}, "both linux"},
		{"outside", verify.Input{Path: "x.go", Source: src, SourceOS: "linux", TargetOS: "windows",
			Regions: []schemas.Region{{Start: 100, End: 200}}}, "outside the file's 112 lines"},
		{"line outside region", verify.Input{Path: "x.go", Source: src, SourceOS: "linux", TargetOS: "windows",
			Regions: []schemas.Region{{Start: 10, End: 12, Lines: []int{13}}}}, "lists line 13"},
		{"duplicate range", verify.Input{Path: "x.go", Source: src, SourceOS: "linux", TargetOS: "windows",
			Regions: []schemas.Region{{Start: 10, End: 12}, {Start: 10, End: 12}}}, "two regions cover lines 10-12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{}
			v, err := NewVerifier(Config{Provider: OpenAIName, Model: "m"}, p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.Verify(context.Background(), tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want it to contain %q", err, tc.wantErr)
			}
			if p.calls != 0 {
				t.Errorf("provider called %d times for unusable input", p.calls)
			}
		})
	}
}

func TestVerifyWithoutRegionsAsksNothing(t *testing.T) {
	p := &scripted{}
	v, _ := NewVerifier(Config{Provider: AnthropicName, Model: "m"}, p)
	in := pathsepInput(t)
	in.Regions = nil
	verdicts, err := v.Verify(context.Background(), in)
	if err != nil || len(verdicts) != 0 || p.calls != 0 {
		t.Errorf("verdicts %v, err %v, %d calls", verdicts, err, p.calls)
	}
}

func TestVerifyProviderErrorIsAnError(t *testing.T) {
	p := &scripted{err: &HTTPError{Provider: "openai", StatusCode: 401, Status: "401 Unauthorized"}}
	v, _ := NewVerifier(Config{Provider: OpenAIName, Model: "m"}, p)
	_, err := v.Verify(context.Background(), pathsepInput(t))
	var httpErr *HTTPError
	if !errors.As(err, &httpErr) || !strings.Contains(err.Error(), "lm verify pathsep.go") {
		t.Errorf("error = %v, want the provider's, wrapped with the file", err)
	}
	if p.calls != 1 {
		t.Errorf("%d calls, want 1 (a provider failure is not a bad answer)", p.calls)
	}
}

func TestNewVerifierChecksArguments(t *testing.T) {
	if _, err := NewVerifier(Config{Provider: "bard", Model: "m"}, &scripted{}); err == nil {
		t.Error("unknown provider accepted")
	}
	if _, err := NewVerifier(Config{Provider: OpenAIName, Model: "m"}, nil); err == nil {
		t.Error("nil provider accepted")
	}
	v, err := NewVerifier(Config{Provider: OpenAIName, Model: "gpt-4o"}, &scripted{})
	if err != nil || v.Name() != "lm:openai/gpt-4o" {
		t.Errorf("Name = %q, err %v", v.Name(), err)
	}
}
