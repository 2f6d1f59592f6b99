package initmanifest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
	"github.com/osbench/osbench/steps/covimport"
	"github.com/osbench/osbench/steps/depset"
	"github.com/osbench/osbench/steps/diffcov"
	"github.com/osbench/osbench/steps/testrun"
	"github.com/osbench/osbench/steps/toolchain"
)

// Options configure Run.
type Options struct {
	Source Source
	// Out is the file the manifest will be written to ("" for stdout): a
	// path source is written relative to its directory, and the runs are
	// compiled as if from that file.
	Out string
	// Toolchain overrides the toolchain HostToolchain would pin.
	Toolchain string
	// Rerun runs the suites once more with the proposed skips, so the runs
	// a build of the written manifest needs are in the cache (and the
	// migration directions are judged on them).
	Rerun bool
	// Force writes the manifest even when no direction has one-sided lines.
	Force bool
	// Params are --param and --runner: preset parameters written into the
	// manifest (and used by its runs), checked against the preset's.
	Params ParamArgs
	// Timeout, when set (a Go duration), is every platform's test timeout
	// and eval_timeout, in the runs and in the manifest, in place of the
	// preset's and of the ladder's proposal.
	Timeout string
	// BuildTimeout, when set, is every platform's build.timeout (where the
	// preset has a build command), in the runs and in the manifest.
	BuildTimeout string

	Cache   *cache.Cache
	Engine  engine.Options
	Compile compile.Options
	Known   manifests.Known
	// Observe, when set, gives each build's observer (and its end) for the
	// number of steps it runs.
	Observe func(total int) (engine.Observer, func())
}

// Run looks at the source and returns the manifest to write and what was
// found. The manifest is nil when the repository is not worth one (and
// Force is off); Result.WriteSummary says why.
func Run(ctx context.Context, opts Options) (*Result, error) {
	file, err := manifestFile(opts.Out, opts.Source.Name())
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, file: file, res: &Result{Source: opts.Source}}
	m, err := r.prepare(ctx)
	if err != nil {
		return nil, err
	}
	first, final, err := r.firstLook(ctx, m)
	if errors.Is(err, errBuildsFailed) {
		return r.res, nil // WriteSummary says which builds, and how they ended
	}
	if err != nil {
		return nil, err
	}
	return r.finish(m, first, final)
}

// prepare checks the source out and composes the manifest's head: name,
// preset (from the tree), pinned source, toolchain. The checkout comes
// first because the tree says which preset the other steps need; its key
// depends on the source block only, so any preset compiles it.
func (r *runner) prepare(ctx context.Context) (*Manifest, error) {
	src := r.opts.Source
	if src.Kind == KindPath && r.opts.Out != "" {
		src.Value = relativeTo(filepath.Dir(r.file), src.Value)
	}
	m := &Manifest{Name: r.opts.Source.Name(), Preset: "go", Source: src, Migrate: []string{"windows->linux", "linux->windows"}}
	co, err := r.checkout(ctx, m)
	if err != nil {
		return nil, err
	}
	tree, err := co.Tree(checkout.ResultSource)
	if err != nil {
		return nil, err
	}
	if m.Preset, err = DetectPreset(tree); err != nil {
		return nil, err
	}
	if m.Params, err = r.opts.Params.For(m.Preset); err != nil {
		return nil, err
	}
	if m.Preset == "c-cmake" {
		r.res.TestSwitches = TestSwitches(tree, func(file string) []byte {
			b, _ := co.TreeFile(checkout.ResultSource, file)
			return b
		})
	}
	if src.Kind == KindDebian {
		m.Name = upstreamName(m.Name, func(file string) []byte {
			b, _ := co.TreeFile(checkout.ResultSource, file)
			return b
		})
	}
	if err := pin(&m.Source, co); err != nil {
		return nil, err
	}
	if m.Toolchain = r.opts.Toolchain; m.Toolchain == "" {
		if m.Toolchain, err = HostToolchain(ctx, m.Preset); err != nil {
			return nil, fmt.Errorf("choosing a toolchain for the %s preset (or pass --toolchain): %v", m.Preset, err)
		}
	}
	r.res.Name, r.res.Preset = m.Name, m.Preset
	if r.opts.Timeout != "" || r.opts.BuildTimeout != "" {
		if err := r.fixTimeouts(m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// fixTimeouts writes --timeout as every platform's timeout and
// eval_timeout, and --build-timeout as its build.timeout, before the first
// look so its runs are the manifest's.
func (r *runner) fixTimeouts(m *Manifest) error {
	for flag, v := range map[string]string{"--timeout": r.opts.Timeout, "--build-timeout": r.opts.BuildTimeout} {
		if v == "" {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d < time.Second || d%time.Second != 0 {
			return fmt.Errorf("%s %q: want a whole number of seconds or more as a Go duration, like 90s, 15m or 1h30m", flag, v)
		}
	}
	set, diags := manifests.LoadSource(r.file, m.Text(), manifests.LoadOptions{Known: r.opts.Known})
	if diags.HasErrors() {
		return fmt.Errorf("the manifest init composed does not load: %v", diags)
	}
	for _, p := range set.Repositories[0].Platforms {
		if r.opts.Timeout != "" {
			if m.EvalTimeouts == nil {
				m.EvalTimeouts = map[string]EvalTimeout{}
			}
			m.EvalTimeouts[p.Name] = EvalTimeout{Value: r.opts.Timeout, Timeout: r.opts.Timeout,
				Reason: "timeout and eval_timeout: given to osbench init (--timeout), not proposed from a run"}
		}
		if r.opts.BuildTimeout != "" && p.Build != nil {
			if m.BuildTimeouts == nil {
				m.BuildTimeouts = map[string]string{}
			}
			m.BuildTimeouts[p.Name] = r.opts.BuildTimeout
		}
	}
	if r.opts.BuildTimeout != "" && len(m.BuildTimeouts) == 0 {
		return fmt.Errorf("--build-timeout %s: the %s preset has no build command (its test command builds), so only --timeout bounds it", r.opts.BuildTimeout, m.Preset)
	}
	return nil
}

// firstLook runs the suites once per platform with both directions, and
// proposes skips; with Rerun, it runs them again with the skips applied.
// final is the look the manifest is judged on.
func (r *runner) firstLook(ctx context.Context, m *Manifest) (first, final *look, err error) {
	m.FlakyRuns = 1
	if first, err = r.look(ctx, m); err != nil {
		return nil, nil, err
	}
	if len(first.runs) < 2 {
		if len(first.failed) > 0 {
			r.res.First = append(first.summary(), first.failed...)
			return nil, nil, errBuildsFailed
		}
		if len(r.res.Problems) > 0 {
			return nil, nil, fmt.Errorf("no first look: %s", strings.Join(r.res.Problems, "; "))
		}
		return nil, nil, fmt.Errorf("init compares two platforms' runs; %d ran here (the %s preset's platforms, less those --platform leaves out)", len(first.runs), m.Preset)
	}
	m.Migrate = first.directions()
	r.res.First = first.summary()
	m.Skips = ProposeSkips(first.runs)
	r.res.Skips = m.Skips
	r.res.OnlyThere = FailingWhereOnly(first.runs)
	if r.opts.Timeout == "" {
		m.EvalTimeouts = ProposeEvalTimeouts(first.runs)
	}
	final = first
	if len(m.Skips) > 0 && r.opts.Rerun {
		if final, err = r.look(ctx, m); err != nil {
			return nil, nil, err
		}
		r.res.Again = final.summary()
		r.res.StillOneSided = ProposeSkips(final.runs)
	}
	r.res.Directions = final.diffs
	return first, final, nil
}

// finish decides what is written: the directions with one-sided lines and
// the default number of runs (flake quarantine reruns the suite; those
// runs are new steps, the first is the one made here).
func (r *runner) finish(m *Manifest, first, final *look) (*Result, error) {
	res := r.res
	m.FlakyRuns = 0
	m.Migrate = nil
	for _, d := range final.diffs {
		if d.proposable() {
			m.Migrate = append(m.Migrate, d.Direction)
		}
	}
	m.Comment = []string{"Written by osbench init after one run per platform; review before use."}
	if len(m.Skips) > 0 {
		m.Comment = append(m.Comment, "The skips are a first look: each changes the runs, so check the others still hold.")
	}
	res.Worth = len(m.Migrate) > 0
	if !res.Worth {
		if !r.opts.Force {
			return res, nil
		}
		// A manifest needs a direction; with none worth it, both are kept
		// and the comment says so (the build then finds no candidate).
		m.Migrate = first.directions()
		m.Comment = append(m.Comment, "Not worth a manifest: no direction has lines run on its target only and a test passing on its source (kept by --force).")
	}
	res.Manifest = m
	res.Text = m.Text()
	// The text must load as written; a mistake here is init's, and says so.
	if _, diags := manifests.LoadSource(r.file, res.Text, manifests.LoadOptions{Known: r.opts.Known}); diags.HasErrors() {
		return nil, fmt.Errorf("osbench init wrote a manifest that does not load: %v", diags)
	}
	return res, nil
}

// manifestFile is where the manifest is compiled from: the output file, or
// NAME.hcl in the current directory when it goes to stdout.
func manifestFile(out, name string) (string, error) {
	if out == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return filepath.Join(wd, name+".hcl"), nil
	}
	return filepath.Abs(out)
}

// relativeTo writes dir relative to the manifest's directory, as the
// bundled examples do, when the two share more than the file-system root
// (a manifest in /tmp naming /work/repo keeps the absolute path).
func relativeTo(base, dir string) string {
	rel, err := filepath.Rel(base, dir)
	if err != nil {
		return dir
	}
	up := 0
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == ".." {
			up++
		}
	}
	if up > 0 && up >= len(strings.Split(filepath.ToSlash(filepath.Clean(base)), "/"))-1 {
		return dir
	}
	return filepath.ToSlash(rel)
}

// runner builds manifests' step subsets through the engine.
type runner struct {
	opts Options
	file string
	res  *Result
}

// wantedKinds are the steps init runs: what a build runs before it
// verifies and masks candidate regions.
var wantedKinds = map[string]bool{checkout.Kind: true, depset.Kind: true, toolchain.Kind: true, testrun.Kind: true, covimport.Kind: true, diffcov.Kind: true}

// build loads m's text as the file it will be written to, compiles it
// like `osbench build` does, and builds the steps of the kinds given.
func (r *runner) build(ctx context.Context, m *Manifest, kinds map[string]bool) (map[string]*engine.StepResult, *engine.Engine, *manifests.Repository, error) {
	text := m.Text()
	set, diags := manifests.LoadSource(r.file, text, manifests.LoadOptions{Known: r.opts.Known})
	if diags.HasErrors() {
		return nil, nil, nil, fmt.Errorf("the manifest init composed does not load: %v\n%s", diags, text)
	}
	all, err := compile.Compile(ctx, set, r.opts.Compile)
	if err != nil {
		return nil, nil, nil, err
	}
	g, err := engine.NewGraph(subset(all, kinds))
	if err != nil {
		return nil, nil, nil, err
	}
	eo := r.opts.Engine
	eo.KeepGoing = true
	var done func()
	if r.opts.Observe != nil {
		eo.Observer, done = r.opts.Observe(g.Len())
	}
	e := engine.New(r.opts.Cache, eo)
	rep, err := e.Build(ctx, g)
	if done != nil {
		done()
	}
	if rep == nil || errors.Is(err, context.Canceled) {
		if err == nil {
			err = errors.New("the build returned no report")
		}
		return nil, nil, nil, err
	}
	out := map[string]*engine.StepResult{}
	for _, s := range rep.Steps {
		out[s.ID] = s
		r.res.Steps.add(s.Status)
		if s.Status == engine.StatusFailed {
			r.res.Problems = append(r.res.Problems, fmt.Sprintf("%s failed: %s", s.ID, firstLine(s.Error)))
		}
	}
	return out, e, set.Repositories[0], nil
}

// subset keeps the steps of the given kinds whose inputs are kept too (a
// masked repository's test run is a test step, but its mask is not run).
func subset(all []*engine.Step, kinds map[string]bool) []*engine.Step {
	kept := map[string]bool{}
	for _, s := range all {
		// The gold re-run is a test step, but it is the build's check of
		// the eval timeout, not part of a first look.
		kept[s.ID] = kinds[s.Kind] && !compile.IsGoldRerun(s.ID)
	}
	for changed := true; changed; {
		changed = false
		for _, s := range all {
			for _, in := range s.Inputs {
				if kept[s.ID] && !kept[in.Step] {
					kept[s.ID], changed = false, true
				}
			}
		}
	}
	var out []*engine.Step
	for _, s := range all {
		if kept[s.ID] {
			out = append(out, s)
		}
	}
	return out
}

// checkout builds m's checkout step alone and opens its results.
func (r *runner) checkout(ctx context.Context, m *Manifest) (*engine.Artifacts, error) {
	steps, e, _, err := r.build(ctx, m, map[string]bool{checkout.Kind: true})
	if err != nil {
		return nil, err
	}
	for _, s := range steps {
		if s.Status != engine.StatusHit && s.Status != engine.StatusRan {
			return nil, fmt.Errorf("checkout of %s: %s", r.opts.Source.Value, firstLine(s.Error))
		}
		return e.Artifacts(s)
	}
	return nil, errors.New("the manifest compiled to no checkout step")
}

// look is one build of m's runs and differential coverage.
type look struct {
	platforms []string
	runs      []PlatformRun
	diffs     []Direction
	// failed are the runs whose step failed because their build did (a
	// build past its timeout is an infrastructure failure, not a result),
	// or because the suite had no test.
	failed []RunSummary
}

// errBuildsFailed: the first look has too few runs because builds failed;
// the result's First says which, with their logs' last lines.
var errBuildsFailed = errors.New("builds failed")

// failedRun reads how a failed test step's build ended from the log its
// latest run kept: failed or timed out, or built with a suite that
// reported no test (ctest --no-tests=error fails the step); nil for any
// other failure (it stays in Problems).
func (r *runner) failedRun(e *engine.Engine, s *engine.StepResult, platform, buildCmd string) *RunSummary {
	runs := e.StepRuns(s.ID)
	if len(runs) == 0 {
		return nil
	}
	for _, l := range runs[0].Side {
		if l.Name != "test.log" {
			continue
		}
		log, err := e.SideLogBytes(l)
		if err != nil {
			return nil
		}
		if r.opts.Cache != nil {
			log = machinePaths(log, r.opts.Cache.Dir())
		}
		build, tail := buildOutcome(log, buildCmd)
		if build == "" {
			if strings.Contains(s.Error, "reported no test") && bytes.Contains(log, []byte(buildEnd+"0,")) {
				return &RunSummary{Platform: platform, MissingPrograms: missingPrograms(log)}
			}
			return nil
		}
		return &RunSummary{Platform: platform, Build: build, Tail: tail}
	}
	return nil
}

func (r *runner) look(ctx context.Context, m *Manifest) (*look, error) {
	steps, e, repo, err := r.build(ctx, m, wantedKinds)
	if err != nil {
		return nil, err
	}
	l := &look{}
	for _, p := range repo.Platforms {
		l.platforms = append(l.platforms, p.Name)
		s := steps[stepID(repo.Name, p.Name, testrun.Kind)]
		if s == nil {
			continue // left out by --platform
		}
		var buildCmd string
		if p.Build != nil {
			// The line the test step echoes before the build's output.
			buildCmd = "$ " + strings.Join(p.Build.Argv, " ")
		}
		a, err := e.Artifacts(s)
		if err != nil {
			// Failed: reported in Problems, and said as the build's end
			// when that was the cause.
			if f := r.failedRun(e, s, p.Name, buildCmd); f != nil {
				l.failed = append(l.failed, *f)
			}
			continue
		}
		var tr schemas.TestResults
		if err := a.DecodeJSON("tests.json", &tr); err != nil {
			return nil, err
		}
		run := PlatformRun{Platform: p.Name, Tests: tr.Tests, SkipStyle: p.Test.SkipStyle,
			Took: max(s.Duration, s.RunDuration), Timeout: p.Test.Timeout, EvalTimeout: p.Test.EvalTimeout, buildCmd: buildCmd}
		run.Log, _ = a.Side("test.log") // a log trimmed from the cache only costs the reasons
		if r.opts.Cache != nil {
			run.Log = machinePaths(run.Log, r.opts.Cache.Dir())
		}
		run.Took = testPhase(run.Took, run.Log)
		l.runs = append(l.runs, run)
	}
	passes := map[string]int{} // platform → tests passing there
	for _, run := range l.runs {
		for _, t := range run.Tests {
			if t.Status.Passes() {
				passes[run.Platform]++
			}
		}
	}
	for _, d := range repo.Migrate {
		dir := Direction{Direction: d.Source + "->" + d.Target, Source: d.Source, SourcePasses: passes[d.Source]}
		s := steps[stepID(repo.Name, d.Source+"-to-"+d.Target, diffcov.Kind)]
		a, err := e.Artifacts(s)
		if s == nil || err != nil {
			dir.Missing = true
			l.diffs = append(l.diffs, dir)
			continue
		}
		var dc struct {
			Regions []struct {
				File  string `json:"file"`
				Lines []int  `json:"lines"`
			} `json:"regions"`
		}
		if err := a.DecodeJSON(diffcov.Output, &dc); err != nil {
			return nil, err
		}
		files := map[string]bool{}
		for _, reg := range dc.Regions {
			dir.Lines += len(reg.Lines)
			files[reg.File] = true
		}
		dir.Regions, dir.Files = len(dc.Regions), len(files)
		l.diffs = append(l.diffs, dir)
	}
	return l, nil
}

// stepID is compile's naming of a repository's steps:
// "<repository>/<platform or s-to-t>/<kind>".
func stepID(repo, middle, kind string) string { return repo + "/" + middle + "/" + kind }

// directions are both directions between the first look's platforms, in
// the order the bundled examples write them (windows->linux first).
func (l *look) directions() []string {
	ps := append([]string(nil), l.platforms...)
	sort.Strings(ps)
	var out []string
	for i := range ps {
		for j := range ps {
			if i != j {
				out = append(out, ps[j]+"->"+ps[i])
			}
		}
	}
	return out
}

func (l *look) summary() []RunSummary {
	var out []RunSummary
	for _, run := range l.runs {
		counts := map[string]int{}
		for _, t := range run.Tests {
			counts[string(t.Status)]++
		}
		build, tail := buildOutcome(run.Log, run.buildCmd)
		out = append(out, RunSummary{Platform: run.Platform, Tests: len(run.Tests), Statuses: counts, Build: build, Tail: tail})
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
