package lm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// pathsepVerified are pathsepRegions with the verdicts the masker is told.
func pathsepVerified() []schemas.VerifiedRegion {
	areas := []string{"separator test", "separator conversion", "quoted list splitting"}
	var rs []schemas.VerifiedRegion
	for i, r := range pathsepRegions {
		rs = append(rs, schemas.VerifiedRegion{Region: r, Verdict: schemas.Verdict{
			Label: schemas.LabelPath, FunctionalArea: areas[i], Explanation: "Windows path rules.", Verifier: "rules"}})
	}
	return rs
}

func pathsepMaskInput(t *testing.T) mask.Input {
	return mask.Input{Path: "pathsep.go", Source: readFixture(t, "pathsep/pathsep.go"), Regions: pathsepVerified()}
}

// checkGolden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name))
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update after checking the change):\n%s", path, got)
	}
}

func TestMaskPromptGolden(t *testing.T) {
	f, err := newMaskFile(pathsepMaskInput(t))
	if err != nil {
		t.Fatal(err)
	}
	got := "=== system\n" + maskSystemPrompt(f.lang) + "=== user\n" + maskUserPrompt(f)
	checkGolden(t, "prompts/pathsep_go_mask.golden", got)
}

// TestMaskOverHTTP runs the masker against each provider's fake API with
// scripted answers from testdata/mask_answers.
func TestMaskOverHTTP(t *testing.T) {
	answer := func(name string) reply { return reply{Answer: readTestdata(t, "mask_answers/"+name)} }
	for _, tc := range []struct {
		name    string
		replies []reply
		// wantRetryNote is in the second request's prompt, when there is one.
		wantRetryNote string
		// wantErrRegions are the regions a *MaskError names; nil for success.
		wantErrRegions []string
	}{
		{name: "good answer", replies: []reply{answer("pathsep_good.json")}},
		{name: "fenced answer", replies: []reply{answer("pathsep_fenced.md")}},
		{name: "bad then good", replies: []reply{answer("pathsep_no_replacement.json"), answer("pathsep_good.json")},
			wantRetryNote: "- at /edits/0: missing property 'replacement'"},
		{name: "edit outside its region then good", replies: []reply{answer("pathsep_outside.json"), answer("pathsep_good.json")},
			wantRetryNote: "the edit of lines 19-21 is not inside one region"},
		{name: "edit outside its region twice", replies: []reply{answer("pathsep_outside.json"), answer("pathsep_outside.json")},
			wantRetryNote: "region 20-20 has no edit", wantErrRegions: []string{"20-20"}},
		{name: "unparsable Go then good", replies: []reply{answer("pathsep_unparsable.json"), answer("pathsep_good.json")},
			wantRetryNote: "no longer parses as Go"},
		{name: "unparsable Go twice", replies: []reply{answer("pathsep_unparsable.json"), answer("pathsep_unparsable.json")},
			wantRetryNote: "no longer parses as Go", wantErrRegions: []string{"20-20", "30-39", "76-95"}},
	} {
		for _, provider := range []string{OpenAIName, AnthropicName} {
			t.Run(tc.name+"/"+provider, func(t *testing.T) {
				f := newFakeAPI(t, provider, tc.replies...)
				cfg := f.testConfig()
				m, err := NewMasker(cfg, newTestProvider(t, f, cfg))
				if err != nil {
					t.Fatal(err)
				}
				out, err := m.Mask(context.Background(), pathsepMaskInput(t))
				if tc.wantErrRegions != nil {
					var merr *MaskError
					if !errors.As(err, &merr) {
						t.Fatalf("error = %v, want a *MaskError", err)
					}
					var got []string
					for _, r := range merr.Regions {
						got = append(got, spanText(r))
					}
					if !slices.Equal(got, tc.wantErrRegions) || merr.Attempts != 2 || !strings.Contains(err.Error(), "pathsep.go") {
						t.Errorf("MaskError %v names %v, want %v", err, got, tc.wantErrRegions)
					}
				} else {
					if err != nil {
						t.Fatal(err)
					}
					checkGolden(t, "masked/pathsep.go.golden", string(out.Source))
					if len(out.Actions) != 3 {
						t.Fatalf("actions %+v, want 3", out.Actions)
					}
					for i, a := range out.Actions {
						if a.Kind != KindLMEdit || a.Region.Start != pathsepRegions[i].Start || !strings.Contains(a.Detail, "lm:"+provider+"/test-model") {
							t.Errorf("action %d = %+v", i, a)
						}
					}
				}

				reqs := f.received()
				if len(reqs) != len(tc.replies) {
					t.Fatalf("%d requests, want %d", len(reqs), len(tc.replies))
				}
				checkMaskRequest(t, provider, reqs[0])
				first := userTurn(t, provider, reqs[0])
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

func spanText(r schemas.Region) string { return fmt.Sprintf("%d-%d", r.Start, r.End) }

// checkMaskRequest checks the shape of a masking request: endpoint, model,
// instructions and the numbered, marked file.
func checkMaskRequest(t *testing.T, provider string, r recorded) {
	t.Helper()
	wantPath := map[string]string{OpenAIName: "/v1/chat/completions", AnthropicName: "/v1/messages"}[provider]
	if r.Path != wantPath {
		t.Errorf("request path %q, want %q", r.Path, wantPath)
	}
	if r.Body["model"] != "test-model" {
		t.Errorf("request model %v", r.Body["model"])
	}
	system, _ := r.Body["system"].(string) // anthropic
	if msgs, ok := r.Body["messages"].([]any); ok && provider == OpenAIName {
		if m, ok := msgs[0].(map[string]any); ok && m["role"] == "system" {
			system, _ = m["content"].(string)
		}
	}
	for _, want := range []string{"quiet placeholder", `{"edits":[{"start":N,"end":N,"replacement":"..."}]}`, "panic, log.Fatal"} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, system)
		}
	}
	user := userTurn(t, provider, r)
	for _, want := range []string{"20 >> \t\treturn c == '\\\\' || c == '/'", "19    \tif filepath.Separator", "- start 30, end 39: platform-path (separator conversion)"} {
		if !strings.Contains(user, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, user)
		}
	}
}

// TestMaskChecksEdits runs small files through the masker with a scripted
// provider: each case is the answers given and what must come of them.
func TestMaskChecksEdits(t *testing.T) {
	const goSrc = "package p\n\nimport \"runtime\"\n\nfunc F() bool {\n\treturn runtime.GOOS == \"windows\"\n}\n\nfunc G() string {\n\treturn runtime.GOARCH\n}\n"
	region := func(start, end int) schemas.VerifiedRegion {
		return schemas.VerifiedRegion{Region: schemas.Region{Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelConditional}}
	}
	edit := func(start, end int, repl string) string {
		return fmt.Sprintf(`{"edits":[{"start":%d,"end":%d,"replacement":%s}]}`, start, end, quote(repl))
	}
	for _, tc := range []struct {
		name    string
		in      mask.Input
		answers []string
		want    string   // the masked file, when the masker succeeds
		wantErr []string // substrings of the error otherwise
	}{
		{name: "go placeholder",
			in:      mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(6, 6)}},
			answers: []string{edit(6, 6, "\t_ = runtime.GOOS\n\treturn false")},
			want:    strings.Replace(goSrc, "\treturn runtime.GOOS == \"windows\"\n", "\t_ = runtime.GOOS\n\treturn false\n", 1)},
		{name: "go unparsable twice names the region",
			in:      mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(6, 6), region(10, 10)}},
			answers: []string{`{"edits":[{"start":6,"end":6,"replacement":"\treturn ("},{"start":10,"end":10,"replacement":"\treturn \"\""}]}`, `{"edits":[{"start":6,"end":6,"replacement":"\treturn ("},{"start":10,"end":10,"replacement":"\treturn \"\""}]}`},
			wantErr: []string{"region 6-6 after 2 attempts", "no longer parses as Go"}},
		{name: "declaration removed",
			in:      mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(5, 7)}},
			answers: []string{edit(5, 7, ""), edit(5, 7, "")},
			wantErr: []string{"region 5-7 after", "the declaration of F is gone"}},
		{name: "go edit partly inside its region is fine",
			in:      mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(9, 11)}},
			answers: []string{edit(10, 10, "\treturn \"\"")},
			want:    strings.Replace(goSrc, "\treturn runtime.GOARCH\n", "\treturn \"\"\n", 1)},
		{name: "unchanged region",
			in:      mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(10, 10)}},
			answers: []string{edit(10, 10, "\treturn runtime.GOARCH\n"), edit(10, 10, "\treturn runtime.GOARCH")},
			wantErr: []string{"region 10-10 after", "leaves its lines as they are"}},
		{name: "import left unused",
			in: mask.Input{Path: "p.go", Source: []byte(strings.Replace(goSrc, "runtime.GOARCH", `"amd64"`, 1)),
				Regions: []schemas.VerifiedRegion{region(6, 6)}},
			answers: []string{edit(6, 6, "\treturn false"), edit(6, 6, "\treturn false")},
			wantErr: []string{"package runtime is imported but no longer used"}},
		{name: "crlf kept and false positive skipped",
			in: mask.Input{Path: "src/probe.c", Source: []byte("int f(void) {\r\n#ifdef _WIN32\r\n  return 1;\r\n#endif\r\n  return 2;\r\n}\r\n"),
				Regions: []schemas.VerifiedRegion{region(3, 3), {Region: schemas.Region{Start: 5, End: 5}, Verdict: schemas.Verdict{Label: schemas.LabelFalsePositive}}}},
			answers: []string{edit(3, 3, "  (void)0;\n  return 0;")},
			want:    "int f(void) {\r\n#ifdef _WIN32\r\n  (void)0;\r\n  return 0;\r\n#endif\r\n  return 2;\r\n}\r\n"},
		{name: "last line without newline",
			in:      mask.Input{Path: "a.rs", Source: []byte("fn f() -> u8 {\n    1 }"), Regions: []schemas.VerifiedRegion{region(2, 2)}},
			answers: []string{edit(2, 2, "    0 }\n")},
			want:    "fn f() -> u8 {\n    0 }"},
		{name: "test file refused", in: mask.Input{Path: "p_test.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(6, 6)}},
			wantErr: []string{"test files are never masked"}},
		{name: "region outside the file", in: mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(6, 60)}},
			wantErr: []string{"region 6-60 is outside the file's 11 lines"}},
		{name: "overlapping regions", in: mask.Input{Path: "p.go", Source: []byte(goSrc), Regions: []schemas.VerifiedRegion{region(5, 7), region(6, 6)}},
			wantErr: []string{"regions 5-7 and 6-6 overlap"}},
		{name: "unparsable input", in: mask.Input{Path: "p.go", Source: []byte("package p\nfunc {\n"), Regions: []schemas.VerifiedRegion{region(2, 2)}},
			wantErr: []string{"lm mask p.go"}},
		{name: "unknown language", in: mask.Input{Path: "p.py", Source: []byte("x = 1\n"), Regions: []schemas.VerifiedRegion{region(1, 1)}},
			wantErr: []string{`unsupported language ""`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{texts: slices.Clone(tc.answers)}
			m, err := NewMasker(Config{Provider: OpenAIName, Model: "m"}, p)
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Mask(context.Background(), tc.in)
			if p.calls != len(tc.answers) {
				t.Errorf("%d calls, want %d", p.calls, len(tc.answers))
			}
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("no error, masked:\n%s", out.Source)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(out.Source) != tc.want {
				t.Errorf("masked:\n%q\nwant:\n%q", out.Source, tc.want)
			}
			for _, a := range out.Actions {
				if a.Kind != KindLMEdit && a.Kind != mask.KindSkipped {
					t.Errorf("action %+v", a)
				}
			}
		})
	}
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

func TestMaskWithoutRegionsAsksNothing(t *testing.T) {
	p := &scripted{}
	m, _ := NewMasker(Config{Provider: AnthropicName, Model: "m"}, p)
	in := pathsepMaskInput(t)
	in.Regions = []schemas.VerifiedRegion{{Region: schemas.Region{Start: 20, End: 20}, Verdict: schemas.Verdict{Label: schemas.LabelFalsePositive}}}
	out, err := m.Mask(context.Background(), in)
	if err != nil || string(out.Source) != string(in.Source) || p.calls != 0 {
		t.Fatalf("err %v, %d calls, source changed: %v", err, p.calls, string(out.Source) != string(in.Source))
	}
	if len(out.Actions) != 1 || out.Actions[0].Kind != mask.KindSkipped {
		t.Errorf("actions %+v, want one skipped", out.Actions)
	}
}

func TestMaskProviderErrorIsAnError(t *testing.T) {
	p := &scripted{err: &HTTPError{Provider: "openai", StatusCode: 401, Status: "401 Unauthorized"}}
	m, _ := NewMasker(Config{Provider: OpenAIName, Model: "m"}, p)
	_, err := m.Mask(context.Background(), pathsepMaskInput(t))
	var httpErr *HTTPError
	var merr *MaskError
	if !errors.As(err, &httpErr) || errors.As(err, &merr) || !strings.Contains(err.Error(), "lm mask pathsep.go") {
		t.Errorf("error = %v, want the provider's, wrapped with the file", err)
	}
	if p.calls != 1 {
		t.Errorf("%d calls, want 1", p.calls)
	}
}

func TestNewMaskerChecksArguments(t *testing.T) {
	if _, err := NewMasker(Config{Provider: "bard", Model: "m"}, &scripted{}); err == nil {
		t.Error("unknown provider accepted")
	}
	if _, err := NewMasker(Config{Provider: OpenAIName, Model: "m"}, nil); err == nil {
		t.Error("nil provider accepted")
	}
	cfg := Config{Provider: OpenAIName, Model: "gpt-4o"}
	m, err := NewMasker(cfg, &scripted{})
	if err != nil || m.Name() != "lm:openai/gpt-4o" {
		t.Fatalf("Name = %q, err %v", m.Name(), err)
	}
	if m.Key() == cfg.Key() || !strings.Contains(m.Key(), MaskPromptVersion) {
		t.Errorf("masker key %s does not name its own prompt (verifier key %s)", m.Key(), cfg.Key())
	}
}

// FuzzParseMaskAnswer: no input makes parseMaskAnswer or the placing of its
// edits panic, and every answer it accepts has sane line ranges.
func FuzzParseMaskAnswer(f *testing.F) {
	for _, name := range []string{"pathsep_good.json", "pathsep_no_replacement.json", "pathsep_outside.json", "pathsep_unparsable.json", "pathsep_fenced.md"} {
		f.Add(readTestdata(f, "mask_answers/"+name))
	}
	f.Add(`{"edits":[{"start":1e400,"end":1,"replacement":""}]}`)
	f.Add(`{"edits":[{"start":3,"end":2,"replacement":"x"}]}`)
	f.Add("```\n{\"edits\":[]}\n```")
	src := readFixture(f, "pathsep/pathsep.go")
	f.Fuzz(func(t *testing.T, text string) {
		a, err := parseMaskAnswer(text)
		if err != nil {
			return
		}
		for i, e := range a.Edits {
			if e.Start < 1 || e.End < e.Start {
				t.Errorf("edit %d has lines %d-%d", i, e.Start, e.End)
			}
		}
		mf, err := newMaskFile(mask.Input{Path: "pathsep.go", Source: src, Regions: pathsepVerified()})
		if err != nil {
			t.Fatal(err)
		}
		placed, problem := mf.place(a.Edits)
		if problem != nil {
			return
		}
		out := mf.rewrite(placed)
		mf.checkGo(out, placed)
		for _, p := range placed {
			if p.start < p.region.Start || p.end > p.region.End {
				t.Errorf("edit %d-%d placed outside its region %d-%d", p.start, p.end, p.region.Start, p.region.End)
			}
		}
	})
}
