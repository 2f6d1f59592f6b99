package compile

import (
	"context"
	"fmt"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/predictions"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolprobe"
	"github.com/osbench/osbench/steps/checkout"
	"github.com/osbench/osbench/steps/depset"
	"github.com/osbench/osbench/steps/patchapply"
	"github.com/osbench/osbench/steps/tamperscan"
	"github.com/osbench/osbench/steps/testrun"
	"github.com/osbench/osbench/steps/toolchain"
	"github.com/osbench/osbench/steps/verdict"
)

// EvalPrediction is a prediction ready to be evaluated: its patch is in the
// cache's CAS under PatchDigest, and ModelDir is the model's directory name
// under the evaluation's output.
type EvalPrediction struct {
	predictions.Prediction
	ModelDir    string
	PatchDigest cache.Digest
}

// Prefix is the step ID prefix of the prediction's steps.
func (p EvalPrediction) Prefix() string { return "eval/" + p.ModelDir + "/" + p.InstanceID }

// ApplyID, ScanID, TestID and VerdictID name a prediction's steps.
func (p EvalPrediction) ApplyID() string   { return p.Prefix() + "/" + patchapply.Kind }
func (p EvalPrediction) ScanID() string    { return p.Prefix() + "/" + tamperscan.Kind }
func (p EvalPrediction) VerdictID() string { return p.Prefix() + "/" + verdict.Kind }
func (p EvalPrediction) TestID(platform string) string {
	return p.Prefix() + "/" + platform + "/" + testrun.Kind
}

// Evaluation compiles the steps of an evaluation run. It goes in two
// phases because whether a patch's tests run depends on whether it
// applies: ApplySteps first, then, with what applied, Steps.
type Evaluation struct {
	c     *compiler
	tasks map[string]*predictions.Task
}

// NewEvaluation prepares the compilation of an evaluation of tasks.
func NewEvaluation(tasks []predictions.Task, opts Options) *Evaluation {
	ev := &Evaluation{
		c:     &compiler{opts: opts, fingerprints: map[string]string{}, executors: map[string]executors.Executor{}, probers: map[string]*toolprobe.Prober{}},
		tasks: map[string]*predictions.Task{},
	}
	for i := range tasks {
		ev.tasks[tasks[i].InstanceID] = &tasks[i]
	}
	return ev
}

func taskCheckoutID(instance string) string { return "task/" + instance + "/checkout" }
func taskDepsID(instance string) string     { return "task/" + instance + "/" + depset.Kind }
func taskToolchainID(instance, platform string) string {
	return "task/" + instance + "/" + platform + "/" + toolchain.Kind
}

// ApplySteps are the task repositories' checkouts and, per prediction, an
// apply step and the scan of its patch.
func (ev *Evaluation) ApplySteps(preds []EvalPrediction) ([]*engine.Step, error) {
	var steps []*engine.Step
	seen := map[string]bool{}
	for _, p := range preds {
		t, ok := ev.tasks[p.InstanceID]
		if !ok {
			return nil, fmt.Errorf("%s: unknown instance %q", p.Where, p.InstanceID)
		}
		if !seen[t.InstanceID] {
			seen[t.InstanceID] = true
			tree, err := checkout.HashLocal(t.RepoDir)
			if err != nil {
				return nil, fmt.Errorf("%s: task repository: %v", t.Where, err)
			}
			steps = append(steps, &engine.Step{
				ID: taskCheckoutID(t.InstanceID), Kind: checkout.Kind, Group: t.InstanceID,
				Config: engine.Fields(checkout.Config{Tree: tree}, func(string) string { return t.Where }),
				Local:  map[string]string{checkout.LocalPath: t.RepoDir},
			})
			if deps.Locks(t.Language) {
				// The fetch downloads what the task's lock files pin,
				// whatever the patch did to its own.
				steps = append(steps, depsStep(taskDepsID(t.InstanceID), taskCheckoutID(t.InstanceID), t.InstanceID, t.Language,
					func(string) string { return t.Where }))
			}
		}
		steps = append(steps, &engine.Step{
			ID: p.ApplyID(), Kind: patchapply.Kind, Group: p.InstanceID,
			Config: engine.Fields(patchapply.Config{InstanceID: p.InstanceID, Patch: string(p.PatchDigest), Restore: notTaskCode(t)}, func(string) string { return p.Where }),
			Inputs: []engine.Input{{Name: patchapply.InputSource, Step: taskCheckoutID(t.InstanceID)}},
		}, &engine.Step{
			ID: p.ScanID(), Kind: tamperscan.Kind, Group: p.InstanceID,
			Config: tamperscan.Fields(string(p.PatchDigest), p.Where),
		})
	}
	return steps, nil
}

// Steps is the whole evaluation: ApplySteps, then for every prediction
// whose patch applied (applied[p.ApplyID()]) its runs on the target and the
// source, and a verdict for every prediction.
func (ev *Evaluation) Steps(ctx context.Context, preds []EvalPrediction, applied map[string]bool) ([]*engine.Step, error) {
	steps, err := ev.ApplySteps(preds)
	if err != nil {
		return nil, err
	}
	toolchains := map[string]bool{}
	for _, p := range preds {
		t := ev.tasks[p.InstanceID]
		v := &engine.Step{
			ID: p.VerdictID(), Kind: verdict.Kind, Group: p.InstanceID,
			Config: engine.Fields(verdictConfig(t), func(string) string { return t.Where }),
			Inputs: []engine.Input{{Name: verdict.InputApply, Step: p.ApplyID()}},
		}
		if applied[p.ApplyID()] {
			for _, stage := range []struct{ input, platform string }{{verdict.InputTarget, t.TargetOS}, {verdict.InputSource, t.SourceOS}} {
				tc, test, err := ev.platformSteps(ctx, t, p, stage.platform)
				if err != nil {
					return nil, err
				}
				if tc != nil && !toolchains[tc.ID] {
					toolchains[tc.ID] = true
					steps = append(steps, tc)
				}
				steps = append(steps, test)
				v.Inputs = append(v.Inputs, engine.Input{Name: stage.input, Step: test.ID})
			}
		}
		steps = append(steps, v)
	}
	return steps, nil
}

// verdictConfig is the verdict step's configuration: the task's labels
// and, for tasks that record it, the evidence of its complete runs (absent
// otherwise, so the verdicts of older task lines keep their keys).
func verdictConfig(t *predictions.Task) verdict.Config {
	cfg := verdict.Config{
		InstanceID: t.InstanceID, TaskDigest: t.Digest, Source: t.SourceOS, Target: t.TargetOS,
		FailToPass: t.FailToPass, PassToPass: t.PassToPass, PassOnSource: t.PassOnSource,
	}
	if e, ok := t.Evidence[t.TargetOS]; ok {
		cfg.TargetEvidence = &e
	}
	if e, ok := t.Evidence[t.SourceOS]; ok {
		cfg.SourceEvidence = &e
	}
	return cfg
}

// platformSteps are the toolchain step of a task's platform and the test
// run of a prediction's patched repository there, configured exactly as
// the build configured the platform's runs (testFields), so identical trees
// hit the build's cache entries.
func (ev *Evaluation) platformSteps(ctx context.Context, t *predictions.Task, p EvalPrediction, platform string) (tc, test *engine.Step, err error) {
	e := t.Environment[platform]
	at := func(string) string { return t.Where }
	mp := &manifests.Platform{Name: platform, Executor: e.Executor, User: e.User}
	fp, err := ev.c.fingerprint(ctx, platform, e.Executor, e.User)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: executor %q: %v", t.Where, e.Executor, err)
	}
	tools, err := ev.c.tools(ctx, t.Language, mp)
	if err != nil {
		tools = "unavailable: " + err.Error()
	}
	tcEnv := map[string]string{"platform": platform, "executor": fp}
	if tools != "" {
		tcEnv["tools"] = tools
	}
	tc = &engine.Step{
		ID: taskToolchainID(t.InstanceID, platform), Kind: toolchain.Kind, Group: t.InstanceID, Env: tcEnv, Pool: e.Executor,
		Config: engine.Fields(toolchain.Config{
			Language: t.Language, Version: e.Toolchain, Platform: platform, Executor: e.Executor, User: e.User,
		}, at),
	}
	test = &engine.Step{
		ID: p.TestID(platform), Kind: testrun.Kind, Group: p.InstanceID, Pool: e.Executor,
		Env:    map[string]string{"platform": platform, "executor": fp},
		Config: testFields(t.Task.RepositoryName(), platform, t.Language, e, at),
		Inputs: []engine.Input{
			{Name: testrun.InputSource, Step: p.ApplyID(), Result: patchapply.OutputSource},
			{Name: testrun.InputToolchain, Step: tc.ID},
		},
	}
	if deps.Locks(t.Language) {
		test.Inputs = append(test.Inputs, depsInput(taskDepsID(t.InstanceID)))
	}
	return tc, test, nil
}

// ModelDir is a model's directory name under the evaluation's output:
// SWE-bench's spelling ("org/model" → "org__model"), with anything that is
// not a safe file-name character replaced.
func ModelDir(model string) string {
	s := strings.ReplaceAll(model, "/", "__")
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-', r == '+', r == '@':
			return r
		}
		return '_'
	}, s)
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// notTaskCode are the directories of a task's tree that are not task code
// (its extra_source trees): the apply step puts them back like test files.
func notTaskCode(t *predictions.Task) []string {
	var dirs []string
	for _, e := range t.Upstream.Extras {
		dirs = append(dirs, e.At)
	}
	return dirs
}
