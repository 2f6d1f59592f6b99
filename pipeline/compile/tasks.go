package compile

import (
	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages' build checks
	"github.com/osbench/osbench/plugins/lm"
	"github.com/osbench/osbench/plugins/taskpkg"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/covimport"
	"github.com/osbench/osbench/steps/diffcov"
	"github.com/osbench/osbench/steps/maskrepo"
	"github.com/osbench/osbench/steps/taskbuild"
	"github.com/osbench/osbench/steps/tasksplit"
	"github.com/osbench/osbench/steps/testrun"
	"github.com/osbench/osbench/steps/toolchain"
	"github.com/osbench/osbench/steps/verifyregions"
)

// buildCheck returns the mask step's build check for a target platform:
// the platform's own build command (for C and C++ the preset's configure
// and build, cross-compiling for Windows), or else the language's default
// (plugins/lang: `go build ./...` for Go, mcs over the non-test sources
// for C#).
// nil means no check: the masked test run then shows a broken build as
// build-failed tests, and there is no coarse retry.
//
// A build command run by a shell (shell = "bash") is left to the test run:
// turning a script into an argv is the test step's business, and the mask
// step runs argvs only.
func buildCheck(language string, target *manifests.Platform) *testrun.Command {
	if b := target.Build; b != nil && b.Shell == "" && len(b.Argv) > 0 {
		c := command(*b)
		return &c
	}
	if l, ok := lang.Lookup(language); ok {
		if argv := l.BuildCheck(target.Name); argv != nil {
			return &testrun.Command{Argv: argv}
		}
	}
	return nil
}

// checkSource names where the build check came from: the platform's build
// command, or else the language that picked the default.
func checkSource(r *manifests.Repository, target *manifests.Platform) string {
	if s := rangeString(r.Ranges, "platform."+target.Name+".build.command"); s != "" && target.Build != nil {
		return s
	}
	return rangeString(r.Ranges, "language")
}

// direction builds the task-construction steps of one migration direction
// s→t: differential coverage of the complete runs, verification of its
// regions, then one task chain (chain) for the whole direction — or, when
// the manifest splits it (split = N ≥ 2), one split step and one chain per
// group, each masking only its group's regions. The number of groups is
// the manifest's, so the graph is known before anything runs; which region
// is in which group is the split steps' business (steps/tasksplit).
func (c *compiler) direction(r *manifests.Repository, d manifests.Direction, tests, golds map[string]*engine.Step, platforms map[string]*manifests.Platform) []*engine.Step {
	dir := r.Name + "/" + d.Source + "-to-" + d.Target
	at := directionSource(r, platforms[d.Target])
	dc := &engine.Step{
		ID: dir + "/" + diffcov.Kind, Kind: diffcov.Kind, Group: r.Name,
		Config: engine.Fields(diffcov.Config{Repository: r.Name, Source: d.Source, Target: d.Target, Exclude: extraDirs(r)}, at),
		Inputs: []engine.Input{
			{Name: diffcov.InputSource, Step: checkoutID(r.Name)},
			{Name: diffcov.InputTargetCoverage, Step: platformID(r.Name, d.Target, covimport.Kind)},
			{Name: diffcov.InputSourceCoverage, Step: platformID(r.Name, d.Source, covimport.Kind)},
		},
	}
	verifyConfig := verifyregions.Config{Repository: r.Name, Source: d.Source, Target: d.Target, Verifier: r.Verifier}
	if r.Verifier == verifyregions.LMVerifier {
		// The model's settings and the prompt's version change answers, so
		// both are in the key (the API key, an env var's value, never is).
		verifyConfig.LM, verifyConfig.LMPrompt = r.LM, lm.PromptVersion
	} else {
		verifyConfig.Rules = verifyRulesKey(r.Language)
	}
	vr := &engine.Step{
		ID: dir + "/" + verifyregions.Kind, Kind: verifyregions.Kind, Group: r.Name,
		Config:  engine.Fields(verifyConfig, at),
		Inputs:  []engine.Input{{Name: verifyregions.InputSource, Step: checkoutID(r.Name)}, {Name: verifyregions.InputDiffcov, Step: dc.ID}},
		Exports: []engine.Export{{Output: verifyregions.Output, Path: "candidates/" + r.Name + "/" + d.Source + "-to-" + d.Target + "/regions.json"}},
	}
	steps := []*engine.Step{dc, vr}
	if r.Split <= 1 {
		return append(steps, c.chain(r, d, at, vr.ID, nil, tests, golds, platforms)...)
	}
	for k := 1; k <= r.Split; k++ {
		group := &schemas.TaskGroup{Index: k, Of: r.Split}
		sp := &engine.Step{
			ID: taskbuild.DirectionDir(r.Name, d.Source, d.Target, group) + "/" + tasksplit.Kind, Kind: tasksplit.Kind, Group: r.Name,
			Config: engine.Fields(tasksplit.Config{Repository: r.Name, Source: d.Source, Target: d.Target, Group: k, Of: r.Split}, at),
			Inputs: []engine.Input{{Name: tasksplit.InputSource, Step: checkoutID(r.Name)}, {Name: tasksplit.InputVerify, Step: vr.ID}},
			Exports: []engine.Export{{Output: schemas.GroupFile,
				Path: "candidates/" + r.Name + "/" + d.Source + "-to-" + d.Target + "/" + group.Name() + ".json"}},
		}
		steps = append(steps, sp)
		steps = append(steps, c.chain(r, d, at, sp.ID, group, tests, golds, platforms)...)
	}
	return steps
}

// chain builds the steps that make one task of a direction from verified
// regions (the verify step's, or one split step's): the mask (R−), the
// target's run on it, the mask's retry (the same tree when that run was
// quiet, whole function bodies when it crashed or hung), the test runs of
// the retry's tree on the target and on the source, and the task. A
// group's steps are under ".../group<i>of<n>/"; a direction that is not
// split keeps the IDs (and keys) it always had.
func (c *compiler) chain(r *manifests.Repository, d manifests.Direction, at func(field string) string, regions string, group *schemas.TaskGroup, tests, golds map[string]*engine.Step, platforms map[string]*manifests.Platform) []*engine.Step {
	dir := taskbuild.DirectionDir(r.Name, d.Source, d.Target, group)
	vrID := r.Name + "/" + d.Source + "-to-" + d.Target + "/" + verifyregions.Kind
	target := platforms[d.Target]
	targetTest := tests[d.Target]
	maskConfig := maskrepo.Config{
		Repository: r.Name, Source: d.Source, Target: d.Target,
		Masker: r.Masker, Language: r.Language,
		Executor: target.Executor, User: target.User, Toolchain: target.Toolchain, Env: target.Env,
		Check: buildCheck(r.Language, target),
	}
	if b := target.Build; b != nil && b.Shell == "" && len(b.Argv) > 0 && target.BuildTimeout > 0 {
		// The check is the platform's build command (buildCheck): its
		// bound too.
		maskConfig.CheckTimeout = target.BuildTimeout.String()
	}
	if r.Masker == maskrepo.LMMasker {
		maskConfig.LM, maskConfig.LMPrompt = r.LM, lm.MaskPromptVersion
	} else {
		maskConfig.Rules = maskRulesKey(r.Language)
	}
	mk := &engine.Step{
		ID: dir + "/" + maskrepo.Kind, Kind: maskrepo.Kind, Group: r.Name, Env: targetTest.Env, Pool: targetTest.Pool,
		Config: engine.Fields(maskConfig, at),
		Inputs: []engine.Input{
			{Name: maskrepo.InputSource, Step: checkoutID(r.Name)},
			{Name: maskrepo.InputVerify, Step: regions},
			{Name: maskrepo.InputToolchain, Step: platformID(r.Name, d.Target, toolchain.Kind)},
			{Name: maskrepo.InputSourceCoverage, Step: platformID(r.Name, d.Source, covimport.Kind)},
		},
	}
	// The target's run on the first mask decides whether the mask is
	// retried in the coarse mode; a quiet first mask goes through the
	// retry unchanged, and the target's run on it is the first run again
	// (same tree, same key).
	firstRun := maskedRun(dir+"/masked/"+d.Target+"/test", golds[d.Target], mk.ID)
	retry := &engine.Step{
		ID: dir + "/" + maskrepo.RetryKind, Kind: maskrepo.RetryKind, Group: r.Name, Env: mk.Env, Pool: mk.Pool,
		Config: engine.Fields(maskrepo.RetryConfig{Config: maskConfig, Runs: r.FlakyRuns}, at),
		Inputs: append(append([]engine.Input(nil), mk.Inputs...),
			engine.Input{Name: maskrepo.InputFirstMask, Step: mk.ID},
			engine.Input{Name: maskrepo.InputFirstRun, Step: firstRun.ID, Optional: true}),
	}
	for n := 1; n <= r.FlakyRuns; n++ {
		retry.Inputs = append(retry.Inputs, engine.Input{Name: maskrepo.RetryTargetRun(n), Step: repeatedRunID(tests[d.Target].ID, n)})
	}
	steps := []*engine.Step{mk, firstRun, retry}
	masked := map[string]string{
		d.Target: dir + "/retried/" + d.Target + "/test",
		d.Source: dir + "/masked/" + d.Source + "/test",
	}
	for _, platform := range []string{d.Target, d.Source} {
		steps = append(steps, maskedRun(masked[platform], golds[platform], retry.ID))
	}

	id := taskpkg.GroupInstanceID(r.Name, d.Source, d.Target, group)
	env := map[string]schemas.TestEnvironment{}
	for _, platform := range []string{d.Source, d.Target} {
		p := platforms[platform]
		env[platform] = evalEnvironment(p)
	}
	task := &engine.Step{
		ID: taskbuild.StepID(r.Name, d.Source, d.Target, group), Kind: taskbuild.Kind, Group: r.Name,
		Config: engine.Fields(taskbuild.Config{
			Repository: r.Name, Source: d.Source, Target: d.Target,
			Language: r.Language, Runs: r.FlakyRuns, Environment: env,
			ManifestDigest: "sha256:" + string(cache.Sum(c.sources[r.File])),
			Version:        Version,
			Group:          groupRef(group),
		}, at),
		Inputs: []engine.Input{
			{Name: taskbuild.InputSource, Step: checkoutID(r.Name)},
			{Name: taskbuild.InputMask, Step: retry.ID},
			{Name: taskbuild.InputVerify, Step: vrID},
			{Name: taskbuild.InputTargetMasked, Step: masked[d.Target]},
			{Name: taskbuild.InputSourceMasked, Step: masked[d.Source]},
			{Name: taskbuild.InputTargetGold, Step: golds[d.Target].ID},
			{Name: taskbuild.InputSourceGold, Step: golds[d.Source].ID},
		},
		Exports: []engine.Export{
			{Output: "outcome.json", Path: "tasks/" + id + "/outcome.json"},
			{Output: "repo", Path: "tasks/" + id + "/repo", Optional: true},
		},
	}
	if deps.Locks(r.Language) {
		task.Inputs = append(task.Inputs, engine.Input{Name: taskbuild.InputDeps, Step: depsID(r.Name)})
	}
	if group != nil {
		// The config holds the group's index and count only: its regions
		// come from its split step, an input.
		task.Inputs = append(task.Inputs, engine.Input{Name: taskbuild.InputGroup, Step: regions})
	}
	for n := 1; n <= r.FlakyRuns; n++ {
		task.Inputs = append(task.Inputs,
			engine.Input{Name: taskbuild.TargetRun(n), Step: repeatedRunID(tests[d.Target].ID, n)},
			engine.Input{Name: taskbuild.SourceRun(n), Step: repeatedRunID(tests[d.Source].ID, n)})
	}
	c.tasks = append(c.tasks, taskbuild.Instance{Step: task.ID, InstanceID: id, Repository: r.Name, Source: d.Source, Target: d.Target, Group: groupRef(group)})
	return append(steps, task)
}

// The versions of the languages' rule sets in the verify and mask keys
// (variables so a test can bump one language's).
var (
	verifyRulesKey = lang.VerifyRulesKey
	maskRulesKey   = lang.MaskRulesKey
)

// directionSource names the manifest position of the configuration
// fields of a direction's steps; target is the direction's target
// platform (its build command is the mask's check).
func directionSource(r *manifests.Repository, target *manifests.Platform) func(field string) string {
	return func(field string) string {
		switch field {
		case "repository":
			return rangeOf(r.DeclRange)
		case "source", "target":
			return rangeString(r.Ranges, "migrate")
		case "verifier", "masker", "language", "lm":
			return rangeString(r.Ranges, field)
		case "runs":
			return rangeString(r.Ranges, "flaky_runs")
		case "group", "of":
			return rangeString(r.Ranges, "split")
		case "check":
			if target != nil {
				return checkSource(r, target)
			}
		case "manifest_digest":
			return r.File
		}
		return ""
	}
}

// Version is the osbench version recorded in every task's created_by.
const Version = "0.1.0"

// tasksStep gathers every task into tasks.jsonl and the build report. Its
// inputs are optional: a direction whose steps failed is listed in the
// report with the failure, and every other task is still exported.
func (c *compiler) tasksStep() *engine.Step {
	if len(c.tasks) == 0 {
		return nil
	}
	s := &engine.Step{ID: "tasks", Kind: taskbuild.TasksKind, Exports: []engine.Export{
		{Output: "tasks.jsonl", Path: "tasks.jsonl"},
		{Output: "build-report.json", Path: "build-report.json"},
		{Output: "build-report.md", Path: "build-report.md"},
	}}
	s.Config = engine.Fields(taskbuild.TasksConfig{Instances: c.tasks}, nil)
	for n, t := range c.tasks {
		s.Inputs = append(s.Inputs, engine.Input{Name: taskbuild.TaskInput(n), Step: t.Step, Optional: true})
	}
	return s
}

// maskedRun is the platform's gold re-run on a masked repository: the
// configuration evaluation runs with (the eval timeout), another source
// tree — so the empty patch's evaluation is served from it.
func maskedRun(id string, test *engine.Step, maskStep string) *engine.Step {
	run := *test
	run.ID = id
	run.Exports = nil
	run.Inputs = make([]engine.Input, len(test.Inputs))
	for i, in := range test.Inputs {
		if in.Name == testrun.InputSource {
			in.Step = maskStep
		}
		run.Inputs[i] = in
	}
	return &run
}

// evalEnvironment is how a platform's tests run on a tree the build did not
// start from — a masked or a patched one: its eval timeout and the command
// that carries it. Tasks record it; evaluation runs with it.
func evalEnvironment(p *manifests.Platform) schemas.TestEnvironment {
	e := environment(p)
	e.TestCommand = nonNilList(p.Test.EvalArgv)
	e.Timeout = p.Test.EvalTimeout.String()
	return e
}

// environment is how a platform's tests run, as the task records it: the
// test step's configuration without what the task line says elsewhere
// (repository, platform, language).
func environment(p *manifests.Platform) schemas.TestEnvironment {
	e := schemas.TestEnvironment{
		TestCommand: nonNilList(p.Test.Command.Argv), Shell: p.Test.Command.Shell, Dir: p.Test.Command.Dir,
		Parser: p.Test.Parser, Toolchain: p.Toolchain, Executor: p.Executor, User: p.User,
		Env: nonNil(p.Env), SecretEnv: p.SecretEnv, Timeout: p.Test.Timeout.String(), Skip: nonNilList(p.Test.Skip),
		Report: p.Test.Report,
	}
	if p.Build != nil {
		e.Build = &schemas.Command{Argv: nonNilList(p.Build.Argv), Shell: p.Build.Shell, Dir: p.Build.Dir}
		if p.BuildTimeout > 0 {
			e.BuildTimeout = p.BuildTimeout.String()
		}
	}
	if c := p.Test.Compile; c != nil {
		e.Compile = &schemas.Command{Argv: nonNilList(c.Argv), Shell: c.Shell, Dir: c.Dir}
	}
	if re := p.Test.Regex; re != nil {
		e.Regex = &schemas.RegexParser{Pattern: re.Pattern, Statuses: re.Statuses}
	}
	if p.Coverage != nil {
		e.CoverageFile = p.Coverage.Path
	}
	return e
}

// groupRef is a group's index and count, for configurations; nil for nil.
func groupRef(g *schemas.TaskGroup) *taskbuild.GroupRef {
	if g == nil {
		return nil
	}
	return &taskbuild.GroupRef{Index: g.Index, Of: g.Of}
}

// extraDirs are the directories of r's extra_source trees, which are not
// task code; nil when there are none, so other keys do not change.
func extraDirs(r *manifests.Repository) []string {
	var dirs []string
	for _, e := range r.ExtraSources {
		dirs = append(dirs, e.At)
	}
	return dirs
}
