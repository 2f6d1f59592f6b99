package lm

import (
	"context"
	"errors"
	"fmt"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// Unverified is the label of a region the model gave no valid verdict on,
// even after being asked again (see schemas.LabelUnverified).
const Unverified = schemas.LabelUnverified

// attempts is how often the model is asked about one file: once, and once
// more with the reason the first answer was refused.
const attempts = 2

// LMVerifier is a verify.Verifier that asks a language model.
type LMVerifier struct {
	cfg      Config
	provider Provider
	name     string // the Verdict.Verifier of its verdicts
}

var _ verify.Verifier = (*LMVerifier)(nil)

// NewVerifier returns a verifier that asks p with the model and sampling
// parameters of cfg. p is normally NewProvider(cfg); any Provider works
// (a replay of recorded answers, a test double).
func NewVerifier(cfg Config, p Provider) (*LMVerifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errors.New("lm verifier: nil provider")
	}
	return &LMVerifier{cfg: cfg.withDefaults(), provider: p, name: "lm:" + cfg.Provider + "/" + cfg.Model}, nil
}

// Name returns the Verifier field of the verdicts: "lm:<provider>/<model>".
func (v *LMVerifier) Name() string { return v.name }

// Verify implements verify.Verifier. It makes one request per attempt for
// the whole file. An error means the input is unusable or the provider
// failed (HTTP, network, context); a model that answers badly twice is not
// an error: its regions get the label Unverified.
func (v *LMVerifier) Verify(ctx context.Context, in verify.Input) ([]schemas.Verdict, error) {
	lang, lines, err := checkInput(in)
	if err != nil {
		return nil, err
	}
	if len(in.Regions) == 0 {
		return []schemas.Verdict{}, nil
	}
	prompt := userPrompt(in, lines)
	req := Request{
		Model:       v.cfg.Model,
		System:      systemPrompt(lang, in.SourceOS, in.TargetOS),
		Prompt:      prompt,
		Temperature: v.cfg.Temperature,
		MaxTokens:   v.cfg.MaxTokens,
	}
	found := map[int]schemas.Verdict{}
	var problem error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			req.Prompt = retryPrompt(prompt, problem)
		}
		resp, err := v.provider.Complete(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("lm verify %s: %w", in.Path, err)
		}
		problem = v.collect(in.Regions, resp.Text, found)
		if problem == nil {
			break
		}
	}
	verdicts := make([]schemas.Verdict, len(in.Regions))
	for i := range in.Regions {
		if verdict, ok := found[i]; ok {
			verdicts[i] = verdict
			continue
		}
		verdicts[i] = schemas.Verdict{
			Label:       Unverified,
			Explanation: fmt.Sprintf("no valid answer from the model after %d attempts: %v", attempts, problem),
			Verifier:    v.name,
		}
	}
	return verdicts, nil
}

// collect adds to found the verdicts of a model's answer text, a later
// valid verdict on a region replacing an earlier one, and returns what was
// wrong with the answer, or nil when every region got exactly one verdict.
func (v *LMVerifier) collect(regions []schemas.Region, text string, found map[int]schemas.Verdict) error {
	a, err := parseAnswer(text)
	if err != nil {
		return err
	}
	got, problems := matchAnswer(regions, a, v.name)
	for i, verdict := range got {
		found[i] = verdict
	}
	if len(problems) == 0 {
		return nil
	}
	msg := "the answer does not cover the regions asked about:"
	for _, p := range problems {
		msg += "\n- " + p
	}
	return errors.New(msg)
}

// checkInput returns in's language and lines, or why in cannot be asked
// about.
func checkInput(in verify.Input) (lang string, lines []string, err error) {
	lang = in.Language
	if lang == "" {
		lang = verify.LanguageOf(in.Path)
	}
	if _, ok := languageNotes[lang]; !ok {
		return "", nil, fmt.Errorf("lm verify %s: unsupported language %q", in.Path, lang)
	}
	for _, goos := range []string{in.SourceOS, in.TargetOS} {
		if _, ok := osMarkers[goos]; !ok {
			return "", nil, fmt.Errorf("lm verify %s: platform %q is not linux or windows", in.Path, goos)
		}
	}
	if in.SourceOS == in.TargetOS {
		return "", nil, fmt.Errorf("lm verify %s: source and target are both %s", in.Path, in.SourceOS)
	}
	lines = splitLines(in.Source)
	seen := map[span]bool{}
	for i, r := range in.Regions {
		if r.Start < 1 || r.End < r.Start || r.End > len(lines) {
			return "", nil, fmt.Errorf("lm verify %s: region %d (lines %d-%d) is outside the file's %d lines",
				in.Path, i, r.Start, r.End, len(lines))
		}
		for _, n := range r.Lines {
			if n < r.Start || n > r.End {
				return "", nil, fmt.Errorf("lm verify %s: region %d (lines %d-%d) lists line %d outside itself",
					in.Path, i, r.Start, r.End, n)
			}
		}
		// Answers are matched to regions by range, so two regions with one
		// range could not be told apart.
		if seen[span{r.Start, r.End}] {
			return "", nil, fmt.Errorf("lm verify %s: two regions cover lines %d-%d", in.Path, r.Start, r.End)
		}
		seen[span{r.Start, r.End}] = true
	}
	return lang, lines, nil
}
