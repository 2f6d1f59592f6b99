// Package evalrun runs an evaluation (DESIGN §2.7): it reads the tasks and
// the predictions, stores every patch in the cache, builds the apply steps,
// then the test runs of the patches that applied and a verdict for every
// prediction, retries infrastructure failures once, and writes
// OUT/<model>/<instance_id>/report.json (with the raw test logs beside it)
// and the summaries.
//
// Everything but the retry and the report files is an ordinary cached step,
// so evaluating the same predictions again runs nothing, and a changed
// patch reruns only its own steps.
package evalrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/shard"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/pipeline/evalreport"
	"github.com/osbench/osbench/pipeline/predictions"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/patchapply"
	"github.com/osbench/osbench/steps/tamperscan"
	"github.com/osbench/osbench/steps/verdict"
)

// Options say what to evaluate and where the results go.
type Options struct {
	Tasks string // tasks.jsonl written by `osbench build --out`
	// Predictions are files (JSONL or a JSON list), directories of
	// <instance_id>.diff, or the words "gold" and "empty": every task's gold
	// patch, or no patch at all, as models of those names (the checks that a
	// benchmark's harness works; a file called gold is ./gold).
	Predictions []string
	Model       string // model of a directory's patches, or of entries naming none
	Out         string
	Compile     compile.Options
	Cache       *cache.Cache
	// Phase returns the engine options of a build phase ("apply", "run"),
	// told how many steps it has (for a progress bar); done is called when
	// the phase's build ends. KeepGoing is always set.
	Phase func(phase string, steps int) (opts engine.Options, done func())
	// Shard keeps the predictions whose instance_id hashes to it (a CI
	// job's part; `osbench report` merges the parts' outputs).
	Shard shard.Shard
}

// Result is what an evaluation did.
type Result struct {
	// Problems are the input entries that were not evaluated, each with
	// where it came from.
	Problems []predictions.Problem
	Reports  []schemas.EvalReport
	Summary  schemas.EvalSummary
	// Steps counts the evaluation's steps: Hit + Ran + Failed + … = Total,
	// across both phases and the retry.
	Steps engine.Summary
	// Retried counts the steps that failed and were run a second time.
	Retried int
}

// Run evaluates. Bad entries become Result.Problems and the rest is still
// evaluated; an error means the evaluation itself could not go on.
func Run(ctx context.Context, opts Options) (*Result, error) {
	tasks, problems, err := predictions.ReadTasks(opts.Tasks)
	if err != nil {
		return nil, err
	}
	byID := map[string]*predictions.Task{}
	for i := range tasks {
		byID[tasks[i].InstanceID] = &tasks[i]
	}
	var preds []predictions.Prediction
	for _, path := range opts.Predictions {
		if ref := reference(path, tasks); ref != nil {
			preds = append(preds, ref...)
			continue
		}
		ps, bad, err := predictions.Read(path, opts.Model)
		if err != nil {
			return nil, err
		}
		preds = append(preds, ps...)
		problems = append(problems, bad...)
	}
	preds, bad := predictions.Check(preds, func(id string) bool { return byID[id] != nil })
	problems = append(problems, bad...)
	if !opts.Shard.Whole() {
		// By instance: every model's patch of a task lands in one job,
		// which then fetches that task's trees once.
		kept := preds[:0:0]
		for _, p := range preds {
			if opts.Shard.Has(p.InstanceID) {
				kept = append(kept, p)
			}
		}
		preds = kept
	}
	res := &Result{Problems: problems}

	evalPreds, bad, err := store(opts.Cache, preds)
	if err != nil {
		return nil, err
	}
	res.Problems = append(res.Problems, bad...)
	ev := compile.NewEvaluation(tasks, opts.Compile)

	// Phase 1: apply every patch.
	applySteps, err := ev.ApplySteps(evalPreds)
	if err != nil {
		return nil, err
	}
	applyRep, retried, err := build(ctx, opts, "apply", applySteps)
	if err != nil {
		return nil, err
	}
	res.Retried += retried
	applied := map[string]bool{}
	infra := map[string]string{} // prediction prefix → what failed
	for _, p := range evalPreds {
		r := applyRep[p.ApplyID()]
		a, err := artifacts(opts, r)
		if err != nil {
			infra[p.Prefix()] = failure(r, err)
			continue
		}
		var ar schemas.ApplyResult
		if err := a.DecodeJSON(patchapply.OutputApply, &ar); err != nil {
			infra[p.Prefix()] = err.Error()
			continue
		}
		applied[p.ApplyID()] = ar.Outcome == schemas.ApplyApplied
	}

	// Phase 2: the runs of what applied, and the verdicts.
	var runnable []compile.EvalPrediction
	for _, p := range evalPreds {
		if _, failed := infra[p.Prefix()]; !failed {
			runnable = append(runnable, p)
		}
	}
	runSteps, err := ev.Steps(ctx, runnable, applied)
	if err != nil {
		return nil, err
	}
	runRep, retried, err := build(ctx, opts, "run", runSteps)
	if err != nil {
		return nil, err
	}
	res.Retried += retried
	res.Steps = countSteps(runRep, applyRep)

	for _, p := range evalPreds {
		res.Reports = append(res.Reports, report(opts, byID[p.InstanceID], p, runRep, applyRep, infra[p.Prefix()]))
	}
	if err := writeReports(opts.Out, evalPreds, res.Reports, runRep, opts); err != nil {
		return nil, err
	}
	all, err := evalreport.Load(opts.Out)
	if err != nil {
		return nil, err
	}
	if res.Summary, err = evalreport.Write(opts.Out, all); err != nil {
		return nil, err
	}
	return res, nil
}

// store puts every patch in the CAS (the apply step reads it by digest)
// and gives each model its output directory. Two models whose names map
// to one directory are a problem; the second one's predictions are
// dropped.
func store(c *cache.Cache, preds []predictions.Prediction) ([]compile.EvalPrediction, []predictions.Problem, error) {
	var out []compile.EvalPrediction
	var problems []predictions.Problem
	dirOwner := map[string]string{}
	for _, p := range preds {
		dir := compile.ModelDir(p.Model)
		if owner, ok := dirOwner[dir]; ok && owner != p.Model {
			problems = append(problems, predictions.Problem{Where: p.Where, Msg: fmt.Sprintf("model %q and model %q would share the output directory %s; rename one", owner, p.Model, dir)})
			continue
		}
		dirOwner[dir] = p.Model
		d, err := c.PutBytes([]byte(p.Patch))
		if err != nil {
			return nil, nil, err
		}
		out = append(out, compile.EvalPrediction{Prediction: p, ModelDir: dir, PatchDigest: d})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Prefix() < out[j].Prefix() })
	return out, problems, nil
}

// stepIndex is a build's step results by ID.
type stepIndex map[string]*engine.StepResult

// build runs a phase's steps, and runs the ones that failed once more:
// a failed step is never cached, so the second build reruns exactly those
// (an executor that died, a killed run) and serves the rest from the
// cache. It returns the last result of every step.
func build(ctx context.Context, opts Options, phase string, steps []*engine.Step) (stepIndex, int, error) {
	g, err := engine.NewGraph(steps)
	if err != nil {
		return nil, 0, err
	}
	idx := stepIndex{}
	retried := 0
	for attempt := 1; attempt <= 2; attempt++ {
		eo, done := opts.Phase(phase, g.Len())
		eo.KeepGoing = true
		rep, err := engine.New(opts.Cache, eo).Build(ctx, g)
		done()
		if rep == nil || errors.Is(err, context.Canceled) {
			if err == nil {
				err = errors.New("build returned no report")
			}
			return nil, 0, err
		}
		failed := 0
		for _, r := range rep.Steps {
			idx[r.ID] = r
			if r.Status == engine.StatusFailed {
				failed++
			}
		}
		if failed == 0 || attempt == 2 {
			break
		}
		retried += failed
	}
	return idx, retried, nil
}

// artifacts opens the results of a step that ran or was served from the
// cache.
func artifacts(opts Options, r *engine.StepResult) (*engine.Artifacts, error) {
	if r == nil || (r.Status != engine.StatusHit && r.Status != engine.StatusRan) {
		return nil, errors.New("no result")
	}
	return engine.New(opts.Cache, engine.Options{Jobs: 1}).Artifacts(r)
}

// failure says why a step has no result.
func failure(r *engine.StepResult, err error) string {
	switch {
	case r == nil:
		return err.Error()
	case r.Error != "":
		return fmt.Sprintf("%s: %s", r.ID, r.Error)
	case r.Reason != "":
		return fmt.Sprintf("%s %s: %s", r.ID, r.Status, r.Reason)
	}
	return fmt.Sprintf("%s %s", r.ID, r.Status)
}

// countSteps sums both phases: the apply steps appear in the run phase too
// (as hits, having just run), so what they did is counted from the apply
// phase.
func countSteps(run, apply stepIndex) engine.Summary {
	var s engine.Summary
	for id, r := range run {
		if a, ok := apply[id]; ok {
			r = a
		}
		s.Total++
		switch r.Status {
		case engine.StatusHit:
			s.Hit++
		case engine.StatusRan:
			s.Ran++
		case engine.StatusFailed:
			s.Failed++
		case engine.StatusBlocked:
			s.Blocked++
		case engine.StatusCanceled:
			s.Canceled++
		case engine.StatusSkipped:
			s.Skipped++
		}
	}
	return s
}

// report composes a prediction's report from its verdict and the scan of
// its patch, or, when the evaluation could not be carried out (the scan
// included: no patch is judged unscanned), an infrastructure failure.
func report(opts Options, t *predictions.Task, p compile.EvalPrediction, run, apply stepIndex, infra string) schemas.EvalReport {
	rep := schemas.EvalReport{
		InstanceID: t.InstanceID, Model: p.Model, Repo: t.Task.Repo,
		SourceOS: t.SourceOS, TargetOS: t.TargetOS, Language: t.Language, Difficulty: t.Difficulty,
		Categories: append([]string{}, t.Categories...),
		TaskDigest: t.Digest, PatchDigest: "sha256:" + string(p.PatchDigest),
		TamperFindings: []schemas.TamperFinding{},
	}
	if scan, err := readScan(opts, run, apply, p); err != nil {
		if infra == "" {
			infra = err.Error()
		}
	} else {
		rep.TamperRules, rep.TamperFindings = scan.Rules, scan.Findings
		rep.TamperSuspected = len(scan.Findings) > 0
	}
	cfg := verdict.Config{Source: t.SourceOS, Target: t.TargetOS, FailToPass: t.FailToPass, PassToPass: t.PassToPass, PassOnSource: t.PassOnSource}
	var v verdict.Verdict
	if infra == "" {
		r := run[p.VerdictID()]
		a, err := artifacts(opts, r)
		if err == nil {
			err = a.DecodeJSON(verdict.Output, &v)
		}
		if err != nil {
			infra = whyNoVerdict(run, p, t, err)
		}
	}
	if infra != "" {
		v = verdict.Judge(cfg, schemas.ApplyResult{Outcome: schemas.ApplyNotDone, Files: []string{}, RestoredTestFiles: []string{}}, nil, nil)
		v.Outcome = schemas.OutcomeInfraFailure
		v.StageI.InfraFailure, v.StageII.InfraFailure = infra, infra
		if ar, ok := appliedResult(opts, run, p); ok {
			v.Apply = ar
		}
	}
	rep.Outcome, rep.Resolved, rep.Apply, rep.StageI, rep.StageII = v.Outcome, v.Resolved, v.Apply, v.StageI, v.StageII
	return rep
}

// readScan reads the scan of a prediction's patch: from the run phase,
// or, for a prediction that phase left out (its apply step failed), from
// the apply phase.
func readScan(opts Options, run, apply stepIndex, p compile.EvalPrediction) (schemas.TamperScan, error) {
	var scan schemas.TamperScan
	r := run[p.ScanID()]
	if r == nil {
		r = apply[p.ScanID()]
	}
	a, err := artifacts(opts, r)
	if err == nil {
		err = a.DecodeJSON(tamperscan.Output, &scan)
	}
	if err != nil {
		return scan, fmt.Errorf("tamper scan: %s", failure(r, err))
	}
	if scan.Findings == nil {
		scan.Findings = []schemas.TamperFinding{}
	}
	return scan, nil
}

// whyNoVerdict names the step that kept a verdict from being made: a
// failed test run (after its retry) rather than the blocked verdict.
func whyNoVerdict(run stepIndex, p compile.EvalPrediction, t *predictions.Task, err error) string {
	for _, id := range []string{p.ApplyID(), p.TestID(t.TargetOS), p.TestID(t.SourceOS)} {
		if r := run[id]; r != nil && r.Status == engine.StatusFailed {
			return failure(r, err)
		}
	}
	return failure(run[p.VerdictID()], err)
}

func appliedResult(opts Options, run stepIndex, p compile.EvalPrediction) (schemas.ApplyResult, bool) {
	a, err := artifacts(opts, run[p.ApplyID()])
	if err != nil {
		return schemas.ApplyResult{}, false
	}
	var ar schemas.ApplyResult
	return ar, a.DecodeJSON(patchapply.OutputApply, &ar) == nil
}

// writeReports replaces each evaluated model's directory with this run's
// reports and logs, so a model's directory never mixes two evaluations.
func writeReports(out string, preds []compile.EvalPrediction, reports []schemas.EvalReport, run stepIndex, opts Options) error {
	cleared := map[string]bool{}
	for i, p := range preds {
		dir := filepath.Join(out, p.ModelDir)
		if !cleared[dir] {
			cleared[dir] = true
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		}
		idir := filepath.Join(dir, p.InstanceID)
		if err := os.MkdirAll(idir, 0o755); err != nil {
			return err
		}
		rep := &reports[i]
		for _, st := range []*schemas.StageResult{&rep.StageI, &rep.StageII} {
			ref, err := writeLog(opts, run[p.TestID(st.Platform)], idir, st)
			if err != nil {
				return err
			}
			st.Log = ref
		}
		if err := evalreport.WriteReport(idir, *rep); err != nil {
			return err
		}
	}
	return nil
}

// writeLog copies a stage's raw test log next to the report.
func writeLog(opts Options, r *engine.StepResult, idir string, st *schemas.StageResult) (*schemas.LogRef, error) {
	if r == nil || (r.Status != engine.StatusHit && r.Status != engine.StatusRan) {
		return nil, nil
	}
	a, err := artifacts(opts, r)
	if err != nil {
		return nil, err
	}
	d := a.SideDigest("test.log")
	if d == "" {
		return nil, nil
	}
	b, err := a.Side("test.log")
	if err != nil {
		return nil, err
	}
	rel := "logs/" + st.Platform + ".log"
	if err := evalreport.WriteFile(filepath.Join(idir, filepath.FromSlash(rel)), b); err != nil {
		return nil, err
	}
	return &schemas.LogRef{Path: rel, Digest: "sha256:" + string(d)}, nil
}

// The reference predictions.
const (
	Gold  = "gold"
	Empty = "empty"
)

// reference returns the gold or empty predictions of every task, or nil
// when name is neither word.
func reference(name string, tasks []predictions.Task) []predictions.Prediction {
	if name != Gold && name != Empty {
		return nil
	}
	preds := make([]predictions.Prediction, 0, len(tasks))
	for _, t := range tasks {
		p := predictions.Prediction{InstanceID: t.InstanceID, Model: name, Where: t.Where}
		if name == Gold {
			p.Patch = t.Patch
		}
		preds = append(preds, p)
	}
	return preds
}
