// Package taskbuild holds the last two step kinds of task construction.
//
// "task" labels one migration direction (FAIL_TO_PASS, PASS_TO_PASS and
// PASS_ON_SOURCE over every complete run, flaky tests quarantined — also
// those whose status in the gold re-run, the complete repository run the
// way evaluation runs a patched tree, differs),
// validates the candidate and packages it: the masked repository as a fresh
// git repository with one root commit, the gold patch, and the task record.
// Validation is exact thanks to content addressing: the gold patch applied
// to R− must give back R+ byte for byte (tree digests compared), so the
// gold-patched runs are the complete runs; the empty patch must fail
// (FAIL_TO_PASS not empty); and the source suite on R− must pass every
// PASS_ON_SOURCE test.
//
// "tasks" gathers every direction into tasks.jsonl and the build report.
package taskbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/plugins/runner"
	_ "github.com/osbench/osbench/plugins/runner/all" // the runner of the target's runs says which tests are rewritable
	"github.com/osbench/osbench/plugins/taskpkg"
	"github.com/osbench/osbench/schemas"
)

// Kind names.
const (
	Kind      = "task"
	TasksKind = "tasks"
)

// Input names of a task step: runs are numbered from 1.
func TargetRun(n int) string { return fmt.Sprintf("target_run_%d", n) }
func SourceRun(n int) string { return fmt.Sprintf("source_run_%d", n) }

const (
	InputSource       = "source"        // the checkout (R+)
	InputMask         = "mask"          // the mask step (R− and mask.json)
	InputTargetMasked = "target_masked" // the target's test run on R−
	InputSourceMasked = "source_masked" // the source's test run on R−
	InputVerify       = "verify"        // the verify step: every candidate region with its label
	InputTargetGold   = "target_gold"   // the target's gold re-run: R+ run as evaluation runs it
	InputSourceGold   = "source_gold"   // the source's gold re-run
	// InputGroup is the split step of the task's group (group.json), for
	// a direction the manifest splits; absent otherwise.
	InputGroup = "group"
	// InputDeps is the deps step of the repository (its locked set,
	// schemas.LockedDepsResult), for languages with lock files; absent
	// otherwise.
	InputDeps = "deps"
)

// GroupRef names a group of a split direction in configurations, where
// only its index and the count are known (what it holds is the split
// step's result).
type GroupRef struct {
	Index int `json:"index"`
	Of    int `json:"of"`
}

// TaskGroup is the group with nothing known of its content; nil for nil.
func (g *GroupRef) TaskGroup() *schemas.TaskGroup {
	if g == nil {
		return nil
	}
	return &schemas.TaskGroup{Index: g.Index, Of: g.Of}
}

// StepID is the ID of the task step of a direction, or of one group of a
// split direction (pipeline/compile builds it; the corpus report finds it).
func StepID(repository, source, target string, group *schemas.TaskGroup) string {
	return DirectionDir(repository, source, target, group) + "/" + Kind
}

// DirectionDir is the prefix of the IDs of a direction's task steps after
// verification: "<repository>/<source>-to-<target>", and
// ".../group<i>of<n>" for one group of a split direction.
func DirectionDir(repository, source, target string, group *schemas.TaskGroup) string {
	dir := repository + "/" + source + "-to-" + target
	if group != nil {
		dir += "/" + group.Name()
	}
	return dir
}

// Config is the task step's configuration.
type Config struct {
	Repository     string                             `json:"repository"`
	Source         string                             `json:"source"`
	Target         string                             `json:"target"`
	Language       string                             `json:"language"`
	Runs           int                                `json:"runs"`
	Environment    map[string]schemas.TestEnvironment `json:"environment"`
	ManifestDigest string                             `json:"manifest_digest"`
	Version        string                             `json:"osbench_version"`
	// Group is the group of a split direction; nil for a direction that
	// is one task, so its key is what it always was.
	Group *GroupRef `json:"group,omitempty"`
}

// Outcome is the task step's record: the task, or why there is none.
type Outcome struct {
	InstanceID string       `json:"instance_id"`
	Repository string       `json:"repository"`
	Source     string       `json:"source"`
	Target     string       `json:"target"`
	Accepted   bool         `json:"accepted"`
	Rejected   string       `json:"rejected,omitempty"`
	Labels     label.Labels `json:"labels"`
	// Candidates counts the verified candidate regions by label (kept and dropped).
	Candidates map[string]int     `json:"candidates"`
	Mask       schemas.MaskRecord `json:"mask"`
	// MaskedRun classifies the masked target run for the FAIL_TO_PASS set.
	MaskedRun schemas.MaskedRun `json:"masked_run"`
	Task      *schemas.Task     `json:"task,omitempty"`
	// Group is the part of a split direction the task masks.
	Group *schemas.TaskGroup `json:"group,omitempty"`
}

type taskKind struct{}

func init() {
	engine.RegisterKind(taskKind{})
	engine.RegisterKind(tasksKind{})
}

func (taskKind) Name() string { return Kind }

// Version 2: tasks name their upstream project and pin. Version 3: the
// masked run's class (quiet, crash, hang); difficulty weighs patch hunks.
// Version 4: tests the gold re-runs see otherwise are quarantined.
// Version 5: task repositories carry no reflog and a stat-free index, so
// the same task is the same bytes in every build. Version 6: tasks record
// the evidence of their complete runs (test definitions, evidenced tests).
// Version 7: a mask whose target run crashes or hangs is rejected.
// Version 8: a gold re-run that ran out of time as a whole rejects the task
// with that reason (it quarantined every test, which gave "PASS_ON_SOURCE
// is empty").
// A group of a split direction (Config.Group) enters the key through the
// configuration; a direction that is not split computes what version 7 did.
// Version 10: tasks record their locked dependency set (InputDeps).
// Version 11: a repository whose own lock takes its own package at a
// published version is no task (selfLocked). Version 12: a test defined
// where a patch can rewrite it (a doctest) is never FAIL_TO_PASS
// (rewritableTests).
func (taskKind) Version() string { return "12" }

func (taskKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	out := Outcome{InstanceID: taskpkg.GroupInstanceID(cfg.Repository, cfg.Source, cfg.Target, cfg.Group.TaskGroup()), Repository: cfg.Repository, Source: cfg.Source, Target: cfg.Target}
	var split *schemas.SplitRecord
	if cfg.Group != nil {
		a, err := rc.Input(InputGroup)
		if err != nil {
			return err
		}
		split = &schemas.SplitRecord{}
		if err := a.DecodeJSON(schemas.GroupFile, split); err != nil {
			return err
		}
		if split.Group.Index != cfg.Group.Index || split.Group.Of != cfg.Group.Of {
			return fmt.Errorf("task: configured as group %d of %d, its split step made group %d of %d", cfg.Group.Index, cfg.Group.Of, split.Group.Index, split.Group.Of)
		}
		out.Group = &split.Group
	}
	in := label.Input{}
	for n := 1; n <= cfg.Runs; n++ {
		t, err := results(rc, TargetRun(n))
		if err != nil {
			return err
		}
		s, err := results(rc, SourceRun(n))
		if err != nil {
			return err
		}
		in.TargetComplete = append(in.TargetComplete, t)
		in.SourceComplete = append(in.SourceComplete, s)
	}
	var err error
	if in.TargetMasked, err = results(rc, InputTargetMasked); err != nil {
		return err
	}
	targetGold, err := results(rc, InputTargetGold)
	if err != nil {
		return err
	}
	sourceGold, err := results(rc, InputSourceGold)
	if err != nil {
		return err
	}
	in.TargetGold, in.SourceGold = &targetGold, &sourceGold
	sourceMasked, err := results(rc, InputSourceMasked)
	if err != nil {
		return err
	}
	if in.Rewritable, err = rewritableTests(cfg); err != nil {
		return err
	}
	out.Labels = label.Compute(in)
	out.MaskedRun = label.ClassifyMasked(in.TargetMasked, out.Labels.FailToPass)
	vr, err := rc.Input(InputVerify)
	if err != nil {
		return err
	}
	var verified schemas.Verified
	if err := vr.DecodeJSON(schemas.RegionsFile, &verified); err != nil {
		return err
	}
	out.Candidates = verified.ByLabel
	mk, err := rc.Input(InputMask)
	if err != nil {
		return err
	}
	if err := mk.DecodeJSON("mask.json", &out.Mask); err != nil {
		return err
	}

	// Both trees, side by side, for the patch and the repository.
	original, masked := filepath.Join(rc.WorkDir, "original"), filepath.Join(rc.WorkDir, "masked")
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	if err := src.Materialize("source", original); err != nil {
		return err
	}
	if err := mk.Materialize("source", masked); err != nil {
		return err
	}
	gold, err := taskpkg.GoldPatch(masked, original)
	if err != nil {
		return err
	}
	// A second, untouched copy of R− to apply the gold patch to.
	freshMasked := func(dir string) error { return mk.Materialize("source", dir) }
	if cfg.Group == nil {
		// The build report says it too (ReportEntry.SplitHint); the log
		// line is what a curator watching the build sees.
		if hint := SplitAdvice(regionSize(out.Mask.Regions)); hint != "" {
			rc.Log.Warn().Str("step", rc.Step.ID).Msg(hint)
		}
	}
	goldTimedOut := label.GoldRerunTimedOut(cfg.Target, in.TargetComplete, in.TargetGold)
	if goldTimedOut == "" {
		goldTimedOut = label.GoldRerunTimedOut(cfg.Source, in.SourceComplete, in.SourceGold)
	}
	self := selfLocked(cfg.Language, original)
	switch {
	case self != "":
		out.Rejected = self
	case goldTimedOut != "":
		out.Rejected = goldTimedOut
	case split != nil && split.Group.Regions == 0:
		out.Rejected = emptyGroup(*split)
	default:
		out.Rejected = validate(out, in.TargetMasked, sourceMasked, gold, original, freshMasked, rc.WorkDir)
	}
	if out.Rejected == "" {
		repo := filepath.Join(rc.WorkDir, "repo")
		commit, err := taskpkg.WriteRepo(repo, masked)
		if err != nil {
			return err
		}
		var upstream schemas.Provenance
		if err := src.DecodeJSON(schemas.ProvenanceResult, &upstream); err != nil {
			return err
		}
		upstreamName := upstream.Repo
		if upstreamName == "" {
			upstreamName = cfg.Repository // a local path has no upstream name
		}
		out.Accepted = true
		out.Task = &schemas.Task{
			InstanceID: out.InstanceID, Repo: upstreamName, Repository: cfg.Repository, Upstream: upstream, BaseCommit: commit,
			ProblemStatement: taskpkg.Instruction(cfg.Repository, cfg.Source, cfg.Target, cfg.Language),
			Patch:            gold,
			FailToPass:       out.Labels.FailToPass, PassToPass: out.Labels.PassToPass, PassOnSource: out.Labels.PassOnSource,
			SourceOS: cfg.Source, TargetOS: cfg.Target, Language: cfg.Language,
			Difficulty: taskpkg.Difficulty(out.Mask.Regions, gold), Categories: taskpkg.Categories(out.Mask.Regions),
			Regions: out.Mask.Regions, Environment: cfg.Environment,
			CreatedBy: schemas.CreatedBy{OsbenchVersion: cfg.Version, ManifestDigest: cfg.ManifestDigest},
			MaskedRun: out.MaskedRun,
			Evidence: map[string]schemas.PlatformEvidence{
				cfg.Target: platformEvidence(in.TargetComplete, out.Labels.FailToPass, out.Labels.PassToPass),
				cfg.Source: platformEvidence(in.SourceComplete, out.Labels.PassOnSource),
			},
			Group: out.Group,
		}
		if out.Task.LockedDeps, err = lockedDeps(rc); err != nil {
			return err
		}
		// The task's workspace: the masked repository with its one commit.
		if err := rc.PutTree("repo", repo, nil); err != nil {
			return err
		}
		rewritable := ""
		if n := len(out.Labels.RewritableFailToPass); n > 0 {
			rewritable = fmt.Sprintf(" (%d rewritable left out)", n)
		}
		rc.SetLabel(fmt.Sprintf("task%s: %d FAIL_TO_PASS%s, %d PASS_ON_SOURCE, %s, mask %s", groupLabel(out.Group), len(out.Labels.FailToPass), rewritable, len(out.Labels.PassOnSource), out.Task.Difficulty, out.MaskedRun.Class))
	} else {
		rc.SetLabel("rejected: " + out.Rejected)
	}
	return rc.PutJSON("outcome.json", out)
}

// rewritableTests is the target runner's Rewritable: the tests a patch
// could pass by rewriting them (libtest's doctests, examples in the doc
// comments of source files, which the apply step does not put back as it
// does test files and #[cfg(test)] items), never FAIL_TO_PASS.
func rewritableTests(cfg Config) (func(string) bool, error) {
	env, ok := cfg.Environment[cfg.Target]
	if !ok {
		return nil, fmt.Errorf("task: no test environment for the target platform %q", cfg.Target)
	}
	r, err := runner.For(cfg.Language, env.Parser)
	if err != nil {
		return nil, fmt.Errorf("task: %w", err)
	}
	return r.Rewritable, nil
}

// groupLabel is " (group 1 of 2)" for a group of a split direction.
func groupLabel(g *schemas.TaskGroup) string {
	if g == nil {
		return ""
	}
	return fmt.Sprintf(" (group %d of %d)", g.Index, g.Of)
}

// emptyGroup says why a group of a split direction has no task: the
// direction's regions gave fewer groups than the manifest asked for.
func emptyGroup(rec schemas.SplitRecord) string {
	return fmt.Sprintf("group %d of %d is empty: the direction's verified regions form %d indivisible units (the regions of one function stay together), which give %d groups; lower split to %d",
		rec.Group.Index, rec.Group.Of, rec.Units, rec.Formed, max(rec.Formed, 1))
}

// validate returns why the candidate is not a task, or "".
// freshMasked writes a new copy of the masked repository into a directory.
func validate(out Outcome, targetMasked, sourceMasked schemas.TestResults, gold, original string, freshMasked func(dir string) error, work string) string {
	switch {
	case out.Mask.Builds != nil && !*out.Mask.Builds:
		return "the masked repository does not build for the target, even with whole function bodies masked"
	case hasBuildFailure(targetMasked):
		return "the masked repository does not build for the target (build-failed tests): a placeholder must compile"
	case len(out.Mask.Regions) == 0 && len(out.Mask.Rejected) > 0:
		return unmaskable(out.Mask)
	case len(out.Mask.Regions) == 0:
		return "no platform-specific region was verified"
	case len(out.Labels.FailToPass) == 0 && len(out.Labels.RewritableFailToPass) > 0:
		return fmt.Sprintf("FAIL_TO_PASS is empty: the only target tests masking broke are defined where a patch can rewrite them (%d, e.g. %s: a doctest is an example in a source file's doc comment, which nothing puts back), so none can be FAIL_TO_PASS",
			len(out.Labels.RewritableFailToPass), out.Labels.RewritableFailToPass[0])
	case len(out.Labels.FailToPass) == 0:
		return "FAIL_TO_PASS is empty: masking broke no target test (the empty patch would resolve it)"
	case len(out.Labels.PassOnSource) == 0:
		return "PASS_ON_SOURCE is empty: no test passes on the source platform"
	case out.MaskedRun.Class == schemas.MaskCrash || out.MaskedRun.Class == schemas.MaskHang:
		return loudMask(out)
	}
	// The source suite on R− must still pass every PASS_ON_SOURCE test.
	status := map[string]schemas.Status{}
	for _, r := range sourceMasked.Tests {
		status[r.ID] = r.Status
	}
	for _, id := range out.Labels.PassOnSource {
		if !status[id].Passes() {
			return fmt.Sprintf("masking changed the source platform: %s is %s on the masked repository", id, orMissing(status[id]))
		}
	}
	// The gold patch must turn R− back into R+ exactly.
	patched := filepath.Join(work, "patched")
	if err := applyPatch(freshMasked, patched, gold); err != nil {
		return "the gold patch does not apply to the masked repository: " + err.Error()
	}
	want, err1 := cache.HashTree(original, cache.SkipVCS)
	got, err2 := cache.HashTree(patched, cache.SkipVCS)
	if err1 != nil || err2 != nil || want != got {
		return "the gold patch applied to the masked repository does not give back the complete repository"
	}
	return ""
}

// selfLocked says why a repository whose locked set holds a published
// copy of its own package is no task, or "" when it holds none. Every
// command of the repository needs that copy (it is in the build), so it
// stays in their view where toolenv.Hide whites out every other copy —
// and it is the complete original of what the task masks: a #[path] or
// include! (Rust) or a read (Go) away.
func selfLocked(language, repo string) string {
	self := deps.SelfLocked(language, repo)
	if len(self) == 0 {
		return ""
	}
	return fmt.Sprintf("the repository's own lock takes its own package at a published version (%s): its build needs that copy, the complete original of what the task masks, so no command can be kept from reading it", strings.Join(self, ", "))
}

// loudMask says why a mask whose target run crashed or hung is no task:
// its FAIL_TO_PASS tests would not fail by their own assertions, and every
// failing prediction would pay the crash or the timeout again.
func loudMask(out Outcome) string {
	verb := map[string]string{schemas.MaskCrash: "crashes", schemas.MaskHang: "hangs"}[out.MaskedRun.Class]
	tried := "with the first mask (no coarser one to try)"
	if r := out.Mask.Retry; r != nil && r.Remasked {
		tried = "even with whole function bodies masked (the first mask " + map[string]string{schemas.MaskCrash: "crashed", schemas.MaskHang: "hung"}[r.First.Class] + ")"
	}
	why := fmt.Sprintf("the masked target run %s %s: %d of %d FAIL_TO_PASS tests failed by assertion", verb, tried,
		out.MaskedRun.FailToPassByStatus[schemas.StatusFail], len(out.Labels.FailToPass))
	if len(out.MaskedRun.Crashed) > 0 {
		why += ", e.g. " + strings.Join(out.MaskedRun.Crashed[:min(3, len(out.MaskedRun.Crashed))], ", ")
	}
	return why
}

// unmaskable says why a direction whose regions were verified has nothing
// masked: the mask step left every one of them as it was, each for a
// reason of its own (its placeholder would change what the source runs, or
// nothing), and says when that was the whole-body mask tried after the
// first one's target run crashed or hung.
func unmaskable(rec schemas.MaskRecord) string {
	why := fmt.Sprintf("no verified region could be masked (%d left unmasked", len(rec.Rejected))
	if r := rec.Retry; r != nil && r.Remasked {
		why += fmt.Sprintf(" by the whole-function-body mask tried after the first mask's target run %s",
			map[string]string{schemas.MaskCrash: "crashed", schemas.MaskHang: "hung"}[r.First.Class])
	}
	why += "): "
	shown := rec.Rejected[:min(2, len(rec.Rejected))]
	for i, rj := range shown {
		if i > 0 {
			why += "; "
		}
		why += fmt.Sprintf("%s:%d-%d %s", rj.Region.File, rj.Region.Start, rj.Region.End, rj.Reason)
	}
	if n := len(rec.Rejected) - len(shown); n > 0 {
		why += fmt.Sprintf("; and %d more", n)
	}
	return why
}

// hasBuildFailure reports whether a run has a test that did not build.
func hasBuildFailure(tr schemas.TestResults) bool {
	for _, r := range tr.Tests {
		if r.Status == schemas.StatusBuildFailed {
			return true
		}
	}
	return false
}

func orMissing(s schemas.Status) schemas.Status {
	if s == "" {
		return schemas.StatusMissing
	}
	return s
}

func results(rc *engine.RunContext, input string) (schemas.TestResults, error) {
	var tr schemas.TestResults
	a, err := rc.Input(input)
	if err != nil {
		return tr, err
	}
	err = a.DecodeJSON("tests.json", &tr)
	return tr, err
}

// applyPatch writes a fresh copy of the masked repository to dst and
// applies patch there with git apply.
func applyPatch(freshMasked func(dir string) error, dst, patch string) error {
	if err := freshMasked(dst); err != nil {
		return err
	}
	p := filepath.Join(filepath.Dir(dst), "gold.patch")
	if err := os.WriteFile(p, []byte(patch), 0o644); err != nil {
		return err
	}
	return gitApply(dst, p)
}

// lockedDeps is the repository's locked set, from the deps input when the
// step has one.
func lockedDeps(rc *engine.RunContext) (*schemas.LockedDeps, error) {
	for _, in := range rc.Step.Inputs {
		if in.Name != InputDeps {
			continue
		}
		a, err := rc.Input(InputDeps)
		if err != nil {
			return nil, err
		}
		var set *schemas.LockedDeps
		if err := a.DecodeJSON(schemas.LockedDepsResult, &set); err != nil {
			return nil, err
		}
		return set, nil
	}
	return nil, nil
}
