package maskrepo

import (
	"context"
	"errors"
	"fmt"
	"github.com/osbench/osbench/engine/cache"
	"path/filepath"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/schemas"
)

// RetryKind is the "mask-retry" step kind: it reads how the target's test
// run on the first mask went and, when that run crashed or hung, masks
// again in the coarse mode (whole function bodies, mask.Input.Coarse).
// When the first run was quiet it puts the first mask's tree unchanged, so
// the test run of its tree has the key of the first one and is a cache hit
// (or joins it in flight): a quiet mask costs no second run.
//
// Results: "source" and mask.json as the mask step's, the record's Retry
// saying what the first run was and whether the retry masked anew.
const RetryKind = "mask-retry"

// Inputs of a mask-retry step besides the mask step's own (source, verify,
// toolchain, source_coverage): the first mask step, the target's test run
// on its tree, and the target's complete runs (RetryTargetRun, numbered
// from 1), which say which tests the mask broke.
const (
	InputFirstMask = "first_mask"
	InputFirstRun  = "first_masked_run"
)

// RetryTargetRun names the n-th complete target run input of a retry step.
func RetryTargetRun(n int) string { return fmt.Sprintf("target_run_%d", n) }

// RetryConfig is the mask-retry step's configuration: the mask step's,
// and the number of complete target runs.
type RetryConfig struct {
	Config
	Runs int `json:"runs"`
}

// Retry is what the mask-retry step did (schemas.MaskRetry).
type Retry = schemas.MaskRetry

type retryKind struct{}

func init() { engine.RegisterKind(retryKind{}) }

func (retryKind) Name() string { return RetryKind }

// Version 2: Go's coarse mode returns nil errors.
// Version 3: as the mask step's version 7.
// Version 4: as the mask step's version 8.
// Version 5: a first run that produced no result is a crash, not a hang.
func (retryKind) Version() string { return "5" }

func (retryKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg RetryConfig
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	first, err := rc.Input(InputFirstMask)
	if err != nil {
		return err
	}
	var rec Record
	if err := first.DecodeJSON("mask.json", &rec); err != nil {
		return err
	}
	class, err := firstRunClass(rc, cfg.Runs)
	if err != nil {
		return err
	}
	// A first mask that is coarse already (its fine form broke the build)
	// has nothing coarser to try.
	if class.Class == schemas.MaskQuiet || rec.Coarse {
		dir := filepath.Join(rc.WorkDir, "first")
		if err := first.Materialize("source", dir); err != nil {
			return err
		}
		if err := rc.PutTree("source", dir, cache.SkipVCS); err != nil {
			return err
		}
		rec.Retry = &Retry{First: class}
		return finishRetry(rc, rec)
	}
	rc.Log.Info().Str("class", class.Class).Msg("the target's run on the first mask was not quiet; masking whole function bodies")
	coarse, err := maskTree(ctx, rc, cfg.Config, []bool{true})
	if err != nil {
		return err
	}
	coarse.Retry = &Retry{First: class, Remasked: true}
	return finishRetry(rc, coarse)
}

// finishRetry writes the record as the mask step does, without the build
// logs of a first mask that was kept (they are the mask step's own side
// artifacts, and are read there).
func finishRetry(rc *engine.RunContext, rec Record) error {
	if !rec.Retry.Remasked {
		rec.Log, rec.FineLog = "", ""
	}
	return finish(rc, rec)
}

// firstRunClass classifies the target's run on the first mask for the
// tests it broke (passing in every complete run, not on the mask). A first
// run that produced no result (its step failed) counts as a crash: a suite
// that ran out of time still reports (its tests time out), so a step with
// nothing to report died some other way — a test program that segfaults
// before its report (c-ares' arestest, whose gtest XML is written at the
// end) is the common case. Either class gets the whole-body retry.
func firstRunClass(rc *engine.RunContext, runs int) (schemas.MaskedRun, error) {
	masked, err := testResults(rc, InputFirstRun)
	var absent *engine.AbsentError
	if errors.As(err, &absent) {
		return schemas.MaskedRun{Class: schemas.MaskCrash, Crashed: []string{"the run produced no result: " + absent.Error()}}, nil
	}
	if err != nil {
		return schemas.MaskedRun{}, err
	}
	in := label.Input{TargetMasked: masked}
	for n := 1; n <= runs; n++ {
		tr, err := testResults(rc, RetryTargetRun(n))
		if err != nil {
			return schemas.MaskedRun{}, err
		}
		in.TargetComplete = append(in.TargetComplete, tr)
	}
	return label.ClassifyMasked(masked, label.Compute(in).FailToPass), nil
}

func testResults(rc *engine.RunContext, input string) (schemas.TestResults, error) {
	var tr schemas.TestResults
	a, err := rc.Input(input)
	if err != nil {
		return tr, err
	}
	return tr, a.DecodeJSON("tests.json", &tr)
}
