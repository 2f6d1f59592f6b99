package manifests

import (
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Defaults for what neither a manifest nor its preset writes.
const (
	// defaultFlakyRuns is how often the complete repository's suites run
	// to find flaky tests (DESIGN §2).
	defaultFlakyRuns = 3
	// defaultVerifier is the deterministic rules verifier (plugins/verify).
	defaultVerifier = "rules"
	// defaultMasker is the deterministic rules masker (plugins/mask).
	defaultMasker = "rules"
	// defaultExecutor runs steps on the host.
	defaultExecutor = "local"
)

// resolver builds one Repository from a repository block merged over its
// preset. It reports what only the complete picture shows (a platform without
// a test command, a skip list without a skip style, a direction to an
// undefined platform) and records where each final value was written.
type resolver struct {
	repo  *Repository
	diags hcl.Diagnostics
	// broken is set when some value was unusable because of an error
	// reported earlier; the repository is then not returned.
	broken bool
	// reported holds the diagnostics already given about a range, so a
	// repository-wide value checked for every platform is reported once.
	reported map[hcl.Range]bool
	// executors overrides platforms' executors (LoadOptions.Executors).
	executors map[string]string
}

// use returns a setting's value and records its range under key. ok is false
// when the setting is absent or unusable.
func use[T any](r *resolver, key string, s *setting[T]) (value T, ok bool) {
	if s == nil {
		return value, false
	}
	r.repo.Ranges[key] = s.Range
	if s.Broken {
		r.broken = true
		return value, false
	}
	return s.Value, true
}

// isBroken reports whether a setting is written but unusable.
func isBroken[T any](s *setting[T]) bool { return s != nil && s.Broken }

func (r *resolver) fail(d *hcl.Diagnostic) { r.diags = append(r.diags, d) }

// failOnce is fail for a diagnostic that repeated checks of one value may
// find again.
func (r *resolver) failOnce(d *hcl.Diagnostic) {
	if r.reported == nil {
		r.reported = make(map[hcl.Range]bool)
	}
	if d.Subject != nil && r.reported[*d.Subject] {
		return
	}
	if d.Subject != nil {
		r.reported[*d.Subject] = true
	}
	r.fail(d)
}

// resolveRepository merges rb over its preset's settings (presetName "" for
// none) and resolves the result. ok reports whether the repository is free of
// errors, including those reported while decoding it.
func resolveRepository(rb *repositoryBlock, presetName string, preset settings, executors map[string]string) (repo *Repository, ok bool, diags hcl.Diagnostics) {
	r := &resolver{executors: executors, repo: &Repository{
		Name:      rb.Name,
		Preset:    presetName,
		FlakyRuns: defaultFlakyRuns,
		File:      rb.DeclRange.Filename,
		DeclRange: rb.DeclRange,
		Ranges:    make(map[string]hcl.Range),
	}}
	merged := mergeSettings(preset, rb.Settings)

	use(r, "preset", rb.Preset)
	r.repo.Language, _ = use(r, "language", merged.Language)
	if n, ok := use(r, "flaky_runs", merged.FlakyRuns); ok {
		r.repo.FlakyRuns = n
	}
	r.repo.Split = 1
	if n, ok := use(r, "split", merged.Split); ok {
		r.repo.Split = n
	}
	r.repo.Verifier = defaultVerifier
	if v, ok := use(r, "verifier", merged.Verifier); ok {
		r.repo.Verifier = v
	}
	r.repo.Masker = defaultMasker
	if m, ok := use(r, "masker", merged.Masker); ok {
		r.repo.Masker = m
	}
	r.repo.LM, _ = use(r, "lm", merged.LM)
	// Repository-wide defaults have ranges of their own as well as under each
	// platform that inherits them.
	use(r, "toolchain", merged.Toolchain)
	use(r, "user", merged.User)
	use(r, "env", merged.Env)
	use(r, "secret_env", merged.SecretEnv)
	r.resolveSource(rb.Source, rb.scope)
	r.resolveExtraSources(rb.Extras, rb.scope)

	platforms := append([]*platformBlock(nil), merged.Platforms...)
	sort.Slice(platforms, func(i, j int) bool { return platforms[i].Name < platforms[j].Name })
	defined := make(map[string]bool, len(platforms))
	for _, p := range platforms {
		r.repo.Platforms = append(r.repo.Platforms, r.resolvePlatform(rb.Name, p, merged, presetName != ""))
		defined[p.Name] = true
	}

	if directions, ok := use(r, "migrate", rb.Migrate); ok {
		r.repo.Migrate = directions
		r.checkDirections(rb.Migrate, defined)
	}
	return r.repo, !rb.Broken && !r.broken && !r.diags.HasErrors(), r.diags
}

// checkDirections warns about each direction that names a platform neither
// the manifest nor its preset defines: no task can be built for it yet. It
// is a warning, not an error, so that the other directions of the
// repository still build while a platform is being written.
func (r *resolver) checkDirections(migrate *setting[[]Direction], defined map[string]bool) {
	for i, d := range migrate.Value {
		var missing []string
		for _, name := range []string{d.Source, d.Target} {
			if !defined[name] {
				missing = append(missing, name)
			}
		}
		if len(missing) == 0 {
			continue
		}
		r.diags = append(r.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Undefined platform",
			Detail: fmt.Sprintf("%s->%s needs a platform block for %s, which neither this repository nor its preset defines; the direction cannot be built until one is added.",
				d.Source, d.Target, quotedList(missing)),
			Subject: rangeOfPath(migrate.Expr, indexPath(i)).Ptr(),
		})
	}
}

func (r *resolver) resolvePlatform(repoName string, p *platformBlock, repo settings, hasPreset bool) *Platform {
	prefix := "platform." + p.Name + "."
	r.repo.Ranges["platform."+p.Name] = p.DeclRange
	out := &Platform{Name: p.Name, Executor: defaultExecutor}
	if executor, ok := use(r, prefix+"executor", p.Executor); ok {
		out.Executor = executor
	}
	if executor, ok := r.executors[p.Name]; ok {
		out.Executor = executor
	}
	out.Toolchain, _ = use(r, prefix+"toolchain", pick(repo.Toolchain, p.Toolchain))
	out.User, _ = use(r, prefix+"user", pick(repo.User, p.User))
	out.Env = r.platformEnv(prefix+"env", repo.Env, p.Env)
	out.SecretEnv = r.platformSecretEnv(prefix, repo.SecretEnv, p.SecretEnv, out.Env)

	in := commandInputs{Repository: repoName, Platform: p.Name}
	params, paramsOK := r.resolvedParams(prefix, repo.Params, p.Params, hasPreset)
	in.Params = params
	in.Unknown = !paramsOK
	out.Coverage = r.resolveCoverage(prefix+"coverage.", p.Coverage, &in)
	if p.Test == nil {
		r.fail(errorAt(p.DeclRange, "Missing test block", fmt.Sprintf(
			"platform %q needs a test block with a command and a parser (or a preset that has one).", p.Name)))
	} else {
		out.Test = r.resolveTest(prefix+"test.", p.Test, in, out.Executor)
	}
	if p.Build != nil {
		out.Build = r.resolveBuild(prefix+"build.", p.Build, in)
		timeout, _ := use(r, prefix+"build.timeout", p.Build.Timeout)
		out.BuildTimeout = timeout.Value
	}
	return out
}

// platformEnv is the repository's env with the platform's laid over it, key
// by key. Its range is the platform's env when it has one.
func (r *resolver) platformEnv(key string, repo, platform *setting[map[string]string]) map[string]string {
	env := make(map[string]string)
	for _, s := range []*setting[map[string]string]{repo, platform} {
		values, _ := use(r, key, s)
		for k, v := range values {
			env[k] = v
		}
	}
	if len(env) == 0 {
		return nil
	}
	return env
}

// platformSecretEnv is the union of the repository's and the platform's
// secret_env. A name that env also sets is an error: which value would win
// is anyone's guess, and a secret value must never be written in a
// manifest.
func (r *resolver) platformSecretEnv(prefix string, repo, platform *setting[[]string], env map[string]string) []string {
	var names []string
	for _, s := range []*setting[[]string]{repo, platform} {
		values, _ := use(r, prefix+"secret_env", s)
		for i, name := range values {
			if _, clash := env[name]; clash {
				r.fail(errorAt(rangeOfPath(s.Expr, indexPath(i)), "Secret also in env", fmt.Sprintf(
					"%s is in secret_env and in env; a secret's value comes from osbench's environment only, so remove it from env.", name)))
			}
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// resolveCoverage also fills in.CoverageFile, which test commands see.
func (r *resolver) resolveCoverage(prefix string, c *coverageBlock, in *commandInputs) *Coverage {
	if c == nil {
		return nil
	}
	out := &Coverage{}
	out.Format, _ = use(r, prefix+"format", c.Format)
	out.Path, _ = use(r, prefix+"path", c.Path)
	if c.Format == nil {
		r.fail(errorAt(c.DeclRange, "Missing coverage format", `The coverage block needs format, as in format = "go-coverprofile".`))
	}
	if c.Path == nil {
		r.fail(errorAt(c.DeclRange, "Missing coverage path", "The coverage block needs path: the file the test run writes, relative to the repository root."))
	}
	in.CoverageFile = out.Path
	in.Unknown = in.Unknown || isBroken(c.Path)
	return out
}

func (r *resolver) resolveTest(prefix string, t *testBlock, in commandInputs, executor string) Test {
	var out Test
	parser, parserOK := use(r, prefix+"parser", t.Parser)
	if parserOK && t.ParserLate != nil {
		parser, parserOK = r.resolveLate(t.ParserLate, in)
		parserOK = parserOK && parser != ""
	}
	out.Parser = parser
	if t.Parser == nil {
		r.fail(errorAt(t.DeclRange, "Missing parser", `The test block needs parser, the name of the parser that reads the test output, as in parser = "go-test-json".`))
	}
	timeout, _ := use(r, prefix+"timeout", t.Timeout)
	out.Timeout = timeout.Value
	in.Timeout = timeout.Text
	out.Skip, _ = use(r, prefix+"skip", t.Skip)
	out.SkipStyle, _ = use(r, prefix+"skip_style", t.SkipStyle)
	if t.SkipStyleLate != nil {
		out.SkipStyle, _ = r.resolveLate(t.SkipStyleLate, in)
	}
	if len(out.Skip) > 0 && out.SkipStyle == "" && !isBroken(t.SkipStyle) {
		r.fail(errorAt(t.Skip.Range, "Skip list without skip style", fmt.Sprintf(
			"skip needs skip_style, one of %s, to know which runner flag leaves the tests out.", quotedList(skipStyles))))
	}
	for i, entry := range out.Skip {
		if problem := skipGlobProblem(out.SkipStyle, entry); problem != "" {
			r.failOnce(errorAt(rangeOfPath(t.Skip.Expr, indexPath(i)), "Invalid skip entry", fmt.Sprintf("%q: %s", entry, problem)))
		}
	}
	out.SkipUnder, _ = use(r, prefix+"skip_under", t.SkipUnder)
	r.checkSkipUnder(t, out.Skip, out.SkipUnder, out.SkipStyle)
	if len(out.SkipUnder[executor]) > 0 && t.Skip == nil {
		// The list comes from skip_under alone: explain points there.
		r.repo.Ranges[prefix+"skip"] = t.SkipUnder.Range
	}
	out.Skip = effectiveSkips(out.Skip, out.SkipUnder, executor)
	in.SkipArgs = skipArgs(out.SkipStyle, out.Skip)
	out.Report, _ = use(r, prefix+"report", t.Report)
	if t.ReportLate != nil {
		out.Report, _ = r.resolveLate(t.ReportLate, in)
	}
	in.ReportFile = out.Report
	in.Unknown = in.Unknown || isBroken(t.Report)
	in.Unknown = in.Unknown || isBroken(t.Timeout) || isBroken(t.Skip) || isBroken(t.SkipUnder) || isBroken(t.SkipStyle)

	if parserOK {
		out.Regex = r.resolveRegex(prefix+"regex.", t, parser)
	}
	out.Dir, _ = use(r, prefix+"dir", t.Dir)
	out.Shell, _ = use(r, prefix+"shell", t.Shell)
	if t.Command == nil {
		r.fail(errorAt(t.DeclRange, "Missing test command", "The test block needs command, as a list of arguments or, with shell, one script string."))
		return out
	}
	out.Argv = r.evalCommand(prefix+"command", t.Command, in, t.Shell)
	if t.Compile != nil {
		// An argv list (no shell), run in the test command's dir.
		out.Compile = &Command{Argv: r.evalCommand(prefix+"compile", t.Compile, in, nil), Dir: out.Dir}
	}
	out.EvalTimeout, out.EvalArgv = out.Timeout, out.Argv
	evalTimeout, ok := use(r, prefix+"eval_timeout", t.EvalTimeout)
	if ok && out.Timeout > 0 && evalTimeout.Value > out.Timeout {
		// Written beside the timeout it exceeds, or in the manifest above
		// its preset's timeout, it is a mistake: it would be dropped (issue
		// 22: a manifest's eval_timeout above the preset's timeout was
		// silently ignored). A preset's default above a manifest's
		// shorter timeout just yields to it, so a short timeout needs no
		// eval_timeout of its own.
		sameFile := t.Timeout != nil && t.EvalTimeout.Range.Filename == t.Timeout.Range.Filename
		if sameFile || t.EvalTimeout.Range.Filename == r.repo.File {
			from := ""
			if !sameFile && t.Timeout != nil {
				from = fmt.Sprintf(", set at %s:%d", t.Timeout.Range.Filename, t.Timeout.Range.Start.Line)
			}
			r.fail(errorAt(t.EvalTimeout.Range, "Invalid eval_timeout", fmt.Sprintf(
				"eval_timeout (%s) is longer than timeout (%s%s): it would be dropped, and the runs of masked and patched trees would wait as long for a hung test as the complete runs do. Shorten eval_timeout, or raise timeout beside it.",
				evalTimeout.Text, in.Timeout, from)))
		}
		ok = false
	}
	if ok && evalTimeout.Text != in.Timeout {
		out.EvalTimeout = evalTimeout.Value
		// The same command with ${timeout} standing for the eval timeout;
		// its problems, if any, were just reported for the first evaluation.
		in.Timeout = evalTimeout.Text
		if argv, ok, _ := evalCommand(t.Command, in, t.Shell); ok {
			out.EvalArgv = argv
		}
	}
	return out
}

// checkSkipUnder reports what only skip_under's complete picture shows:
// entries without a skip style to spell them, entries that style cannot
// take, and entries skip already leaves out under every executor. Each is
// checked whatever the platform's executor, so a mistake in the Wine list
// is found on a machine that runs Windows natively too.
func (r *resolver) checkSkipUnder(t *testBlock, skip []string, under map[string][]string, style string) {
	if t.SkipUnder == nil || t.SkipUnder.Broken {
		return
	}
	for _, executor := range sortedKeys(under) {
		at := cty.IndexPath(cty.StringVal(executor))
		if len(under[executor]) > 0 && style == "" && !isBroken(t.SkipStyle) {
			r.failOnce(errorAt(rangeOfPath(t.SkipUnder.Expr, at), "Skip list without skip style", fmt.Sprintf(
				"skip_under needs skip_style, one of %s, to know which runner flag leaves the tests out.", quotedList(skipStyles))))
			continue
		}
		for i, entry := range under[executor] {
			path := append(at.Copy(), indexPath(i)...)
			if problem := skipGlobProblem(style, entry); problem != "" {
				r.failOnce(errorAt(rangeOfPath(t.SkipUnder.Expr, path), "Invalid skip entry", fmt.Sprintf("%q: %s", entry, problem)))
			}
			if slices.Contains(skip, entry) {
				r.failOnce(errorAt(rangeOfPath(t.SkipUnder.Expr, path), "Skip entry listed twice", fmt.Sprintf(
					"%q is in skip already (%s), which leaves it out under every executor; remove it from one of the two.", entry, position(t.Skip.Range))))
			}
		}
	}
}

// resolveRegex checks that a regex block comes exactly with parser = "regex".
func (r *resolver) resolveRegex(prefix string, t *testBlock, parser string) *RegexParser {
	switch {
	case parser == "regex" && t.Regex == nil:
		r.fail(errorAt(t.Parser.Range, "Missing regex block",
			`parser = "regex" needs a regex block with pattern (named groups id and status) and statuses.`))
		return nil
	case parser != "regex" && t.Regex != nil:
		r.fail(errorAt(t.Regex.DeclRange, "Unexpected regex block", fmt.Sprintf(
			`A regex block applies only to parser = "regex"; the parser is %q (set at %s).`, parser, position(t.Parser.Range))))
		return nil
	case t.Regex == nil:
		return nil
	}
	out := &RegexParser{}
	out.Pattern, _ = use(r, prefix+"pattern", t.Regex.Pattern)
	out.Statuses, _ = use(r, prefix+"statuses", t.Regex.Statuses)
	if t.Regex.Pattern == nil {
		r.fail(errorAt(t.Regex.DeclRange, "Missing regex pattern", "The regex block needs pattern, with named groups id and status."))
	}
	if t.Regex.Statuses == nil {
		r.fail(errorAt(t.Regex.DeclRange, "Missing regex statuses", `The regex block needs statuses, mapping captured text to a status, as in statuses = { ok = "pass" }.`))
	}
	return out
}

func (r *resolver) resolveBuild(prefix string, b *buildBlock, in commandInputs) *Command {
	out := &Command{}
	out.Dir, _ = use(r, prefix+"dir", b.Dir)
	out.Shell, _ = use(r, prefix+"shell", b.Shell)
	if b.Command == nil {
		r.fail(errorAt(b.DeclRange, "Missing build command", "The build block needs command, as a list of arguments or, with shell, one script string."))
		return out
	}
	out.Argv = r.evalCommand(prefix+"command", b.Command, in, b.Shell)
	return out
}

func (r *resolver) evalCommand(key string, c *lateCommand, in commandInputs, shell *setting[string]) []string {
	r.repo.Ranges[key] = c.Range
	argv, ok, diags := evalCommand(c, in, shell)
	r.diags = append(r.diags, diags...)
	if !ok {
		r.broken = true
	}
	return argv
}
