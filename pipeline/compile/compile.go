// Package compile turns loaded manifests into the engine's steps: for every
// repository a checkout, and for every platform a toolchain, a test and a
// coverage step, each configured with the manifest values (and the file:line
// they came from) that can change its results.
package compile

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/plugins/coverage"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolprobe"
	"github.com/osbench/osbench/steps/checkout"
	"github.com/osbench/osbench/steps/covimport"
	"github.com/osbench/osbench/steps/depset"
	"github.com/osbench/osbench/steps/taskbuild"
	"github.com/osbench/osbench/steps/testrun"
	"github.com/osbench/osbench/steps/toolchain"
)

// Options configure compilation.
type Options struct {
	// ExecutorState returns the state directory of the named executor (the
	// same one the steps use), so fingerprints can be taken.
	ExecutorState func(name string) (string, error)
	// Platforms, when not empty, keeps only these platforms' steps (an
	// operator on a machine that cannot run the others).
	Platforms []string
	// Facts, when it returns ok, supplies the executor's and the tools'
	// fingerprints of a platform run with an executor, in place of this
	// machine's: those of the Temporal workers that will run its steps,
	// for a platform this machine cannot fingerprint (a Linux client of
	// real Windows workers). Nil: every fact is this machine's.
	Facts func(ctx context.Context, platform, executor string) (f Facts, ok bool, err error)
}

// Facts are the fingerprints of a platform's steps computed on the
// machines that run them.
type Facts interface {
	// ExecutorFingerprint is the executor's Fingerprint for a run user
	// there (the steps' Env["executor"]).
	ExecutorFingerprint(user string) (string, error)
	// Tools is toolprobe's KeyedTools of a language there ("" for a
	// language without probes): the toolchain step's Env["tools"].
	Tools(user, language string) (string, error)
}

// Step IDs are "<repository>/checkout", "<repository>/deps" and
// "<repository>/<platform>/<kind>".
func checkoutID(repo string) string                 { return repo + "/checkout" }
func depsID(repo string) string                     { return repo + "/" + depset.Kind }
func extraCheckoutID(repo, name string) string      { return repo + "/checkout/" + name }
func platformID(repo, platform, kind string) string { return repo + "/" + platform + "/" + kind }

// Compile builds the steps of every repository in set.
func Compile(ctx context.Context, set *manifests.Set, opts Options) ([]*engine.Step, error) {
	c := &compiler{opts: opts, fingerprints: map[string]string{}, executors: map[string]executors.Executor{}, probers: map[string]*toolprobe.Prober{}, sources: set.Sources}
	var steps []*engine.Step
	var problems []string
	for _, repo := range set.Repositories {
		rs, err := c.repository(ctx, repo)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		steps = append(steps, rs...)
	}
	if agg := c.tasksStep(); agg != nil {
		steps = append(steps, agg)
	}
	if len(problems) > 0 {
		return steps, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return steps, nil
}

type compiler struct {
	opts         Options
	fingerprints map[string]string // executor/user → fingerprint, taken once per run
	executors    map[string]executors.Executor
	probers      map[string]*toolprobe.Prober // by user
	sources      map[string][]byte            // manifest file → bytes, for manifest digests
	tasks        []taskbuild.Instance         // the task steps, gathered by the tasks step
}

func (c *compiler) repository(ctx context.Context, r *manifests.Repository) ([]*engine.Step, error) {
	src := func(path string) string { return rangeString(r.Ranges, path) }
	co, err := checkoutStep(r, checkoutID(r.Name), r.Source, "source.")
	if err != nil {
		return nil, err
	}
	steps := []*engine.Step{co}
	for _, e := range r.ExtraSources {
		extra, err := checkoutStep(r, extraCheckoutID(r.Name, e.Name), e.Source, "extra_source."+e.Name+".")
		if err != nil {
			return nil, err
		}
		steps = append(steps, extra)
		co.Inputs = append(co.Inputs, engine.Input{Name: checkout.ExtraInput(e.Name), Step: extra.ID, Result: checkout.ResultSource})
		co.Inputs = append(co.Inputs, engine.Input{Name: checkout.ExtraProvenanceInput(e.Name), Step: extra.ID, Result: checkout.ResultProvenance})
	}
	if len(r.ExtraSources) > 0 {
		extras := make([]checkout.Extra, 0, len(r.ExtraSources))
		for _, e := range r.ExtraSources {
			extras = append(extras, checkout.Extra{Name: e.Name, At: e.At})
		}
		co.Config = append(co.Config, engine.Fields(struct {
			Extras []checkout.Extra `json:"extras"`
		}{extras}, func(string) string { return src("extra_source." + r.ExtraSources[0].Name) })...)
	}
	if deps.Locks(r.Language) {
		steps = append(steps, depsStep(depsID(r.Name), checkoutID(r.Name), r.Name, r.Language, func(field string) string {
			if field == "language" {
				return rangeString(r.Ranges, "language")
			}
			return ""
		}))
	}
	tests := map[string]*engine.Step{} // platform → its test step, when it has coverage
	platforms := map[string]*manifests.Platform{}
	golds := map[string]*engine.Step{} // platform → its gold re-run
	for _, p := range r.Platforms {
		if !c.wanted(p.Name) {
			continue
		}
		ps, err := c.platform(ctx, r, p)
		if err != nil {
			return nil, err
		}
		steps = append(steps, ps...)
		for _, s := range ps {
			if s.ID == platformID(r.Name, p.Name, testrun.Kind) && p.Coverage != nil {
				tests[p.Name], platforms[p.Name] = s, p
			}
			if s.ID == goldRunID(r.Name, p.Name) {
				golds[p.Name] = s
			}
		}
	}
	for _, d := range r.Migrate {
		if tests[d.Source] != nil && tests[d.Target] != nil {
			steps = append(steps, c.direction(r, d, tests, golds, platforms)...)
		}
	}
	return steps, nil
}

func (c *compiler) platform(ctx context.Context, r *manifests.Repository, p *manifests.Platform) ([]*engine.Step, error) {
	at := func(field string) string {
		if s := rangeString(r.Ranges, "platform."+p.Name+"."+field); s != "" {
			return s
		}
		return rangeString(r.Ranges, field) // repository-wide default
	}
	if err := toolchain.Validate(r.Language, p.Toolchain); err != nil {
		return nil, fmt.Errorf("%s: %v", at("toolchain"), err)
	}
	fp, err := c.fingerprint(ctx, p.Name, p.Executor, p.User)
	if err != nil {
		return nil, fmt.Errorf("%s: executor %q: %v", at("executor"), p.Executor, err)
	}
	tools, err := c.tools(ctx, r.Language, p)
	if err != nil {
		// Not an error of the compilation, which would stop every
		// repository: the toolchain step runs the same probes and fails
		// with this error, stopping only its own. The key says why it
		// will run, and plan shows it.
		tools = "unavailable: " + err.Error()
	}
	env := map[string]string{"platform": p.Name, "executor": fp}
	pool := p.Executor
	// Only the toolchain step is keyed by the installed tools; the steps
	// that use them are keyed by its output, the tools' fingerprint.
	tcEnv := map[string]string{"platform": p.Name, "executor": fp}
	if tools != "" {
		tcEnv["tools"] = tools
	}

	tc := &engine.Step{
		ID: platformID(r.Name, p.Name, toolchain.Kind), Kind: toolchain.Kind, Group: r.Name, Env: tcEnv, Pool: pool,
		Config: engine.Fields(toolchain.Config{
			Language: r.Language, Version: p.Toolchain, Platform: p.Name, Executor: p.Executor, User: p.User,
		}, func(field string) string {
			switch field {
			case "language":
				return rangeString(r.Ranges, "language")
			case "version":
				return at("toolchain")
			case "platform":
				return ""
			}
			return at(field)
		}),
	}
	out := "runs/" + r.Name + "/" + p.Name + "/"
	test := &engine.Step{
		ID: platformID(r.Name, p.Name, testrun.Kind), Kind: testrun.Kind, Group: r.Name, Env: env, Pool: pool,
		Inputs: []engine.Input{
			{Name: testrun.InputSource, Step: checkoutID(r.Name), Result: checkout.ResultSource},
			{Name: testrun.InputToolchain, Step: tc.ID},
		},
		Exports: []engine.Export{{Output: "tests.json", Path: out + "tests.json"}, runLogExport(out, 1)},
		Config:  testFields(r.Name, p.Name, r.Language, environment(p), testSource(r, at, "timeout")),
	}
	if deps.Locks(r.Language) {
		test.Inputs = append(test.Inputs, depsInput(depsID(r.Name)))
	}
	testCfg := testConfig(r.Name, p.Name, r.Language, environment(p))
	steps := []*engine.Step{tc, test}
	if migrates(r, p.Name) && p.Coverage != nil {
		// The gold re-run: the complete repository run the way evaluation
		// runs a patched tree. Its key is the one the gold patch's
		// evaluation run will have, so evaluation is served from it, and
		// the task step quarantines tests it sees otherwise. With no
		// eval_timeout of its own it is the test step's twin, run once.
		gold := *test
		gold.ID = goldRunID(r.Name, p.Name)
		gold.Exports = []engine.Export{{Output: "test.log", Path: out + "test-gold-rerun.log", Side: true, Optional: true}}
		gold.Config = testFields(r.Name, p.Name, r.Language, evalEnvironment(p), testSource(r, at, evalTimeoutField(r, p)))
		steps = append(steps, &gold)
	}
	if p.Coverage != nil {
		cfg := covimport.Config{Repository: r.Name, Platform: p.Name, Format: p.Coverage.Format}
		// Version 1 is the absence of the field (as for parsers).
		if v := coverage.VersionOf(p.Coverage.Format); v != "1" {
			cfg.ImporterVersion = v
		}
		config := engine.Fields(cfg, func(field string) string {
			switch field {
			case "repository":
				return rangeOf(r.DeclRange)
			case "format":
				return at("coverage.format")
			}
			return ""
		})
		steps = append(steps, &engine.Step{
			ID: platformID(r.Name, p.Name, covimport.Kind), Kind: covimport.Kind, Group: r.Name,
			Env:     map[string]string{"platform": p.Name},
			Inputs:  []engine.Input{{Name: covimport.InputTest, Step: test.ID}, {Name: covimport.InputSource, Step: checkoutID(r.Name)}},
			Exports: []engine.Export{{Output: "coverage.json", Path: out + "coverage.json"}},
			Config:  config,
		})
	}
	// Repeated runs of the complete repository's suite, for flake
	// quarantine: the same configuration plus a run number.
	for n := 2; n <= r.FlakyRuns; n++ {
		again := *test
		again.ID = repeatedRunID(test.ID, n)
		again.Exports = []engine.Export{runLogExport(out, n)}
		runCfg := testCfg
		runCfg.Run = n
		testAt := testSource(r, at, "timeout")
		again.Config = engine.Fields(runCfg, func(field string) string {
			if field == "run" {
				return rangeString(r.Ranges, "flaky_runs")
			}
			return testAt(field)
		})
		steps = append(steps, &again)
	}
	return steps, nil
}

// testSource names the manifest position of each test step field; timeout
// is the field that set the run's timeout (test.timeout or
// test.eval_timeout).
func testSource(r *manifests.Repository, at func(string) string, timeout string) func(field string) string {
	return func(field string) string {
		switch field {
		case "repository":
			return rangeOf(r.DeclRange)
		case "language":
			return rangeString(r.Ranges, "language")
		case "test":
			return at("test.command")
		case "build":
			return at("build.command")
		case "coverage_file":
			return at("coverage.path")
		case "timeout":
			return at("test." + timeout)
		case "parser", "skip", "regex", "report":
			return at("test." + field)
		}
		return at(field)
	}
}

// evalTimeoutField is the attribute that gave a platform's eval timeout.
func evalTimeoutField(r *manifests.Repository, p *manifests.Platform) string {
	if p.Test.EvalTimeout != p.Test.Timeout {
		return "eval_timeout"
	}
	return "timeout"
}

// migrates reports whether a platform is the source or the target of one
// of the repository's directions.
func migrates(r *manifests.Repository, platform string) bool {
	for _, d := range r.Migrate {
		if d.Source == platform || d.Target == platform {
			return true
		}
	}
	return false
}

// goldRunID names a platform's gold re-run step.
func goldRunID(repository, platform string) string {
	return platformID(repository, platform, goldRerun)
}

const goldRerun = "gold-rerun"

// IsGoldRerun reports whether a step ID names a platform's gold re-run.
func IsGoldRerun(id string) bool { return strings.HasSuffix(id, "/"+goldRerun) }

// RunLogName is the file name under runs/<repository>/<platform>/ of the
// raw log of the n-th run of a platform's suite: test.log for the run
// whose results are tests.json, test-run2.log, test-run3.log ... for the
// repeated runs of flake quarantine (steps <id>#2, <id>#3 ...).
func RunLogName(n int) string {
	if n <= 1 {
		return "test.log"
	}
	return fmt.Sprintf("test-run%d.log", n)
}

// runLogExport exports the test step's log (side artifact test.log), for
// failed runs too; a run that failed before it kept one exports nothing.
func runLogExport(dir string, n int) engine.Export {
	return engine.Export{Output: "test.log", Path: dir + RunLogName(n), Side: true, Optional: true}
}

// repeatedRunID names the n-th run (n ≥ 2) of a test step; run 1 is the
// step itself.
func repeatedRunID(testID string, n int) string {
	if n == 1 {
		return testID
	}
	return fmt.Sprintf("%s#%d", testID, n)
}

func (c *compiler) wanted(platform string) bool {
	if len(c.opts.Platforms) == 0 {
		return true
	}
	for _, p := range c.opts.Platforms {
		if p == platform {
			return true
		}
	}
	return false
}

// remoteFacts returns the facts of platform run with executor computed
// elsewhere (Options.Facts), or ok false for this machine's own.
func (c *compiler) remoteFacts(ctx context.Context, platform, executor string) (Facts, bool, error) {
	if c.opts.Facts == nil {
		return nil, false, nil
	}
	return c.opts.Facts(ctx, platform, executor)
}

func (c *compiler) fingerprint(ctx context.Context, platform, name, user string) (string, error) {
	if f, ok, err := c.remoteFacts(ctx, platform, name); err != nil || ok {
		if err != nil {
			return "", err
		}
		return f.ExecutorFingerprint(user)
	}
	k := name + "\x00" + user
	if fp, ok := c.fingerprints[k]; ok {
		return fp, nil
	}
	ex, err := c.executor(name)
	if err != nil {
		return "", err
	}
	fp, err := ex.Fingerprint(ctx, user)
	if err != nil {
		return "", err
	}
	c.fingerprints[k] = fp
	return fp, nil
}

// tools fingerprints the installed tools a platform's language uses (see
// toolprobe.Prober); "" for Go, whose toolchain is pinned by version.
//
// The local and wine executors both run their commands on this host (wine
// only adds a Wine environment, and Wine's version is in its own
// fingerprint), so the tools are probed with the local executor: asking
// the wine executor would create a Wine prefix just to run version
// queries. Executors that run elsewhere (temporal) describe their machine
// in their own fingerprint; nothing is probed here for them.
func (c *compiler) tools(ctx context.Context, language string, p *manifests.Platform) (string, error) {
	if p.Executor != executors.LocalName && p.Executor != executors.WineName {
		return "", nil
	}
	if f, ok, err := c.remoteFacts(ctx, p.Name, p.Executor); err != nil || ok {
		if err != nil {
			return "", err
		}
		return f.Tools(p.User, language)
	}
	pr, ok := c.probers[p.User]
	if !ok {
		ex, err := c.executor(executors.LocalName)
		if err != nil {
			return "", err
		}
		pr = toolprobe.NewProber(ex, p.User)
		c.probers[p.User] = pr
	}
	// A failing probe keys as "unavailable: why"; Temporal workers
	// compute the same (toolprobe.KeyedTools) to serve such steps.
	return pr.KeyedTools(ctx, language, p.Name, p.Executor), nil
}

// executor creates the named executor once, with its state where the
// steps keep it.
func (c *compiler) executor(name string) (executors.Executor, error) {
	if ex, ok := c.executors[name]; ok {
		return ex, nil
	}
	dir := ""
	if c.opts.ExecutorState != nil {
		var err error
		if dir, err = c.opts.ExecutorState(name); err != nil {
			return nil, err
		}
	}
	ex, err := executors.New(name, executors.Config{StateDir: dir})
	if err != nil {
		return nil, err
	}
	c.executors[name] = ex
	return ex, nil
}

func command(c manifests.Command) testrun.Command {
	return testrun.Command{Argv: nonNilList(c.Argv), Shell: c.Shell, Dir: c.Dir}
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func nonNilList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// rangeString formats the range recorded for a field path, or "".
func rangeString(ranges map[string]hcl.Range, path string) string {
	r, ok := ranges[path]
	if !ok {
		return ""
	}
	return rangeOf(r)
}

func rangeOf(r hcl.Range) string {
	if r.Filename == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// checkoutStep is the checkout step of one source of r (its main source,
// or an extra_source whose attributes' ranges are under prefix).
func checkoutStep(r *manifests.Repository, id string, s manifests.Source, prefix string) (*engine.Step, error) {
	at := func(field string) string { return rangeString(r.Ranges, prefix+field) }
	co := &engine.Step{ID: id, Kind: checkout.Kind, Group: r.Name}
	switch s.Kind() {
	case "path":
		tree, err := checkout.HashLocal(s.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: repository %q: source path: %v", at("path"), r.Name, err)
		}
		co.Config = engine.Fields(checkout.Config{Tree: tree}, func(string) string { return at("path") })
		co.Local = map[string]string{checkout.LocalPath: s.Path}
	case "":
		return nil, fmt.Errorf("%s: repository %q has no source", rangeOf(r.DeclRange), r.Name)
	default:
		co.Config = sourceFields(s, at)
	}
	return co, nil
}

// sourceFields is the checkout step's configuration for a pinned source:
// every field the manifest wrote, each with its position, so a refused pin
// names its line.
func sourceFields(s manifests.Source, at func(field string) string) []engine.Field {
	return engine.Fields(checkout.Config{
		Git: s.Git, Commit: s.Commit, GoModule: s.GoModule, Sum: s.Sum, Crate: s.Crate,
		Debian: s.Debian, Packaging: s.Packaging, Suite: s.Suite, Archive: s.Archive, SHA256: s.SHA256,
	}, at)
}

// depsStep is the locked dependency set of the tree a checkout gives: the
// repository's (build) or a task's (evaluation, never a patched tree).
func depsStep(id, checkout, group, language string, source func(field string) string) *engine.Step {
	return &engine.Step{
		ID: id, Kind: depset.Kind, Group: group,
		Config: engine.Fields(depset.Config{Language: language, Rules: deps.Version}, source),
		Inputs: []engine.Input{{Name: depset.InputSource, Step: checkout}},
	}
}

// depsInput is a test step's input of the skeleton the fetch runs in:
// only that result enters its key, so the complete, masked and patched
// trees' runs, whose lock files are the same, are keyed alike.
func depsInput(step string) engine.Input {
	return engine.Input{Name: testrun.InputDeps, Step: step, Result: depset.OutputLock}
}
