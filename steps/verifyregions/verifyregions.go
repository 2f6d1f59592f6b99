// Package verifyregions is the "verify" step kind: it asks a verifier
// plugin (default "rules") to judge every candidate region of one migration
// direction, reading each file from the complete repository's checkout, and
// records the verdicts. Regions labelled false-positive are kept in the
// artifact (with the reason) but counted as dropped, so a report can say
// what was found, kept and dropped.
package verifyregions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "verify"

// Inputs of a verify step.
const (
	InputSource  = "source"  // the checkout, whose files the rules read
	InputDiffcov = "diffcov" // the direction's differential coverage
)

// Output is the result name: a Verified document.
const Output = schemas.RegionsFile

// Config is the verify step's configuration: changing the verifier (or
// its settings, later) reruns this step and what follows, never the test
// runs above it.
type Config struct {
	Repository string `json:"repository"`
	Source     string `json:"source"`
	Target     string `json:"target"`
	Verifier   string `json:"verifier"`
	// LM holds the language-model verifier's settings (verifier "lm").
	LM map[string]string `json:"lm,omitempty"`
	// LMPrompt is the version of the prompt the model is asked with
	// (lm.PromptVersion); it is configuration so that a new prompt reruns the step.
	LMPrompt string `json:"lm_prompt,omitempty"`
	// Rules names the versions of the language's verify rules
	// (lang.VerifyRulesKey; "" while they are all "1"), so a rule change
	// reruns that language's verify steps only.
	Rules string `json:"rules,omitempty"`
}

// Verified is the artifact, schemas.Verified; the type lives in schemas so
// that the steps reading it need not import this package.
type Verified = schemas.Verified

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 2: the Go rules count early-return guards and no longer take
// identifiers every OS has (syscall.EPERM) for platform evidence.
// Version 3: Rust characters and lifetimes by lang.RustChar (impl<'a, 'b>
// was read as a character literal).
// Version 4: a region of a file the checkout lacks is a false positive
// instead of failing the step.
func (kind) Version() string { return "4" }

// notInRepository is the verdict on a region of a file the build made.
func notInRepository(file string) schemas.Verdict {
	return schemas.Verdict{Label: schemas.LabelFalsePositive, FunctionalArea: "generated file",
		FeatureGroup: "generated_file", Confidence: 1, Verifier: "rules",
		Explanation: file + " is not in the repository (the build generated it): nothing to mask or restore"}
}

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	v, ok := verify.Lookup(cfg.Verifier)
	if cfg.Verifier == LMVerifier {
		var err error
		if v, err = newLMVerifier(cfg.LM); err != nil {
			return err
		}
	} else if !ok {
		return fmt.Errorf("unknown verifier %q (known: %v)", cfg.Verifier, VerifierNames())
	}
	dc, err := rc.Input(InputDiffcov)
	if err != nil {
		return err
	}
	var diff schemas.DiffCoverage
	if err := dc.DecodeJSON(schemas.DiffCoverageFile, &diff); err != nil {
		return err
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	byFile := map[string][]schemas.Region{}
	var files []string
	for _, r := range diff.Regions {
		if _, seen := byFile[r.File]; !seen {
			files = append(files, r.File)
		}
		byFile[r.File] = append(byFile[r.File], r)
	}
	sort.Strings(files)
	out := Verified{Repository: cfg.Repository, Source: cfg.Source, Target: cfg.Target, Verifier: cfg.Verifier,
		Regions: []schemas.VerifiedRegion{}, ByLabel: map[string]int{}}
	for _, file := range files {
		regions := byFile[file]
		content, err := src.TreeFile("source", file)
		if errors.Is(err, fs.ErrNotExist) {
			// Coverage of a file the repository does not hold: the build
			// generated it (jansson's _osbench_build/include/jansson.h
			// from jansson.h.in). Nothing of it can be masked or restored.
			for _, r := range regions {
				out.Regions = append(out.Regions, schemas.VerifiedRegion{Region: r, Verdict: notInRepository(file)})
				out.ByLabel[schemas.LabelFalsePositive]++
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", file, err)
		}
		verdicts, err := v.Verify(ctx, verify.Input{Path: file, Source: content, Regions: regions, SourceOS: cfg.Source, TargetOS: cfg.Target})
		if err != nil {
			return fmt.Errorf("verify %s: %w", file, err)
		}
		if len(verdicts) != len(regions) {
			return fmt.Errorf("verifier %s returned %d verdicts for %d regions of %s", cfg.Verifier, len(verdicts), len(regions), file)
		}
		for i, r := range regions {
			out.Regions = append(out.Regions, schemas.VerifiedRegion{Region: r, Verdict: verdicts[i]})
			out.ByLabel[verdicts[i].Label]++
		}
	}
	rc.SetLabel(fmt.Sprintf("%d regions, %d kept", len(out.Regions), len(out.Kept())))
	return rc.PutJSON(Output, out)
}
