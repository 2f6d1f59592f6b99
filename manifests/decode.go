package manifests

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// This file decodes one block at a time into a "layer": the attributes a
// manifest or preset actually wrote, each with its range, and nil for the
// rest. Layers are merged (merge.go) before anything is checked as a whole
// (resolve.go). Value checks that need only one attribute happen here, so a
// preset's mistakes are reported once, where they are, even if no repository
// uses the preset.

// scope is what the expressions of one file can see.
type scope struct {
	file  string           // the file's name as used in ranges
	dir   string           // its absolute directory, for relative source paths
	ctx   *hcl.EvalContext // local.* and the functions
	known Known
}

// commandContext is ctx plus the variables only commands see.
func (s *scope) commandContext(variables map[string]cty.Value) *hcl.EvalContext {
	child := s.ctx.NewChild()
	child.Variables = variables
	return child
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"},
		{Type: "preset", LabelNames: []string{"name"}},
		{Type: "repository", LabelNames: []string{"name"}},
		{Type: "agent", LabelNames: []string{"name"}},
	},
}

// presetFileSchema is a bundled preset file: locals and presets only.
var presetFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"},
		{Type: "preset", LabelNames: []string{"name"}},
	},
}

// settingsAttributes are what a repository and a preset share; a preset
// lacks only what is particular to one repository (source, preset, migrate).
var settingsAttributes = []hcl.AttributeSchema{
	{Name: "language"},
	{Name: "toolchain"},
	{Name: "flaky_runs"},
	{Name: "split"},
	{Name: "verifier"},
	{Name: "masker"},
	{Name: "lm"},
	{Name: "user"},
	{Name: "env"},
	{Name: "secret_env"},
	{Name: "params"},
}

var repositorySchema = &hcl.BodySchema{
	Attributes: append([]hcl.AttributeSchema{{Name: "preset"}, {Name: "migrate"}}, settingsAttributes...),
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "source"},
		{Type: "extra_source", LabelNames: []string{"name"}},
		{Type: "platform", LabelNames: []string{"name"}},
	},
}

var presetSchema = &hcl.BodySchema{
	Attributes: settingsAttributes,
	Blocks:     []hcl.BlockHeaderSchema{{Type: "platform", LabelNames: []string{"name"}}},
}

var platformSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "executor"}, {Name: "toolchain"}, {Name: "user"}, {Name: "env"}, {Name: "secret_env"}, {Name: "params"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "build"}, {Type: "test"}, {Type: "coverage"}},
}

var buildSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "command"}, {Name: "shell"}, {Name: "dir"}, {Name: "timeout"}},
}

var testSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "shell"}, {Name: "dir"}, {Name: "compile"},
		{Name: "parser"}, {Name: "timeout"}, {Name: "eval_timeout"}, {Name: "skip"}, {Name: "skip_under"}, {Name: "skip_style"}, {Name: "report"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "regex"}},
}

var regexSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "pattern"}, {Name: "statuses"}},
}

var coverageSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "format"}, {Name: "path"}},
}

// settings is the body a repository and a preset share.
type settings struct {
	Language  *setting[string]
	Toolchain *setting[string]
	FlakyRuns *setting[int]
	Split     *setting[int]
	Verifier  *setting[string]
	Masker    *setting[string]
	LM        *setting[map[string]string]
	User      *setting[string]
	Env       *setting[map[string]string]
	SecretEnv *setting[[]string]
	Params    []*paramLayer    // preset layers first (params.go)
	Platforms []*platformBlock // declaration order, names unique
}

type repositoryBlock struct {
	Name     string
	Preset   *setting[string]
	Source   *sourceBlock
	Extras   []*extraSourceBlock
	Migrate  *setting[[]Direction]
	Settings settings

	scope     *scope
	DeclRange hcl.Range
	// Broken means decoding the block reported an error; the repository is
	// still checked as far as possible but not returned.
	Broken bool
}

type presetBlock struct {
	Name      string
	Settings  settings
	DeclRange hcl.Range
	Broken    bool // decoding reported an error; repositories using it are not returned
}

type platformBlock struct {
	Name      string
	Executor  *setting[string]
	Toolchain *setting[string]
	User      *setting[string]
	Env       *setting[map[string]string]
	SecretEnv *setting[[]string]
	Params    []*paramLayer // preset layers first (params.go)
	Build     *buildBlock
	Test      *testBlock
	Coverage  *coverageBlock
	DeclRange hcl.Range
}

type buildBlock struct {
	Command   *lateCommand
	Shell     *setting[string]
	Dir       *setting[string]
	Timeout   *setting[duration]
	DeclRange hcl.Range
}

type testBlock struct {
	Command *lateCommand
	// Compile is the command that builds the test programs without
	// running them (an argv list, in the test command's dir).
	Compile *lateCommand
	Shell   *setting[string]
	Dir     *setting[string]
	Parser  *setting[string]
	// The Late fields are set, beside their settings, for a value that
	// depends on the preset's parameters (late.go).
	ParserLate, SkipStyleLate, ReportLate *lateValue
	Timeout                               *setting[duration]
	EvalTimeout                           *setting[duration]
	Skip                                  *setting[[]string]
	SkipUnder                             *setting[map[string][]string]
	SkipStyle                             *setting[string]
	Report                                *setting[string]
	Regex                                 *regexBlock
	DeclRange                             hcl.Range
}

type regexBlock struct {
	Pattern   *setting[string]
	Statuses  *setting[map[string]string]
	DeclRange hcl.Range
}

type coverageBlock struct {
	Format    *setting[string]
	Path      *setting[string]
	DeclRange hcl.Range
}

// lateCommand is a command expression kept unevaluated until the merged
// configuration supplies timeout, coverage_file and skip_args. It carries the
// scope of the file that wrote it: a preset's command sees the preset file's
// locals, not the manifest's.
type lateCommand struct {
	Expr   hcl.Expression
	Range  hcl.Range
	scope  *scope
	Broken bool
}

func decodeRepositoryBlock(block *hcl.Block, sc *scope) (*repositoryBlock, hcl.Diagnostics) {
	r := &repositoryBlock{Name: block.Labels[0], scope: sc, DeclRange: block.DefRange}
	diags := checkBlockName("repository", block)
	content, contentDiags := block.Body.Content(repositorySchema)
	diags = append(diags, contentDiags...)

	var attrDiags hcl.Diagnostics
	r.Preset, attrDiags = decodeAttr(content.Attributes["preset"], sc.ctx, nonEmptyString)
	diags = append(diags, attrDiags...)
	r.Migrate, attrDiags = decodeAttr(content.Attributes["migrate"], sc.ctx, asDirections)
	diags = append(diags, attrDiags...)
	if r.Migrate == nil {
		diags = append(diags, errorAt(block.DefRange, "Missing migrate",
			`A repository needs at least one migration direction, as in migrate = ["windows->linux"].`))
	}

	source, singleDiags := singleBlock(content.Blocks, "source")
	diags = append(diags, singleDiags...)
	if source == nil {
		diags = append(diags, errorAt(block.DefRange, "Missing source block",
			"A repository needs a source block: "+sourceForms+"."))
	} else {
		var sourceDiags hcl.Diagnostics
		r.Source, sourceDiags = decodeSourceBlock(source, sc)
		diags = append(diags, sourceDiags...)
	}

	for _, block := range content.Blocks {
		if block.Type == "extra_source" {
			e, d := decodeExtraSourceBlock(block, sc)
			r.Extras = append(r.Extras, e)
			diags = append(diags, d...)
		}
	}

	var settingsDiags hcl.Diagnostics
	r.Settings, settingsDiags = decodeSettings(content, sc)
	diags = append(diags, settingsDiags...)
	r.Broken = diags.HasErrors()
	return r, diags
}

func decodePresetBlock(block *hcl.Block, sc *scope) (*presetBlock, hcl.Diagnostics) {
	p := &presetBlock{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkBlockName("preset", block)
	content, contentDiags := block.Body.Content(presetSchema)
	diags = append(diags, contentDiags...)
	var settingsDiags hcl.Diagnostics
	p.Settings, settingsDiags = decodeSettings(content, sc)
	diags = append(diags, settingsDiags...)
	markPresetParams(&p.Settings)
	p.Broken = diags.HasErrors()
	return p, diags
}

func checkBlockName(kind string, block *hcl.Block) hcl.Diagnostics {
	if blockName.MatchString(block.Labels[0]) {
		return nil
	}
	return hcl.Diagnostics{errorAt(block.LabelRanges[0], "Invalid "+kind+" name", fmt.Sprintf(
		"%q cannot name a %s: use letters, digits, '.', '_' and '-', starting with a letter or digit.", block.Labels[0], kind))}
}

// decodeSettings decodes the attributes and platform blocks that
// repositories and presets share, from content already checked against the
// block's schema.
func decodeSettings(content *hcl.BodyContent, sc *scope) (settings, hcl.Diagnostics) {
	var s settings
	var diags, d hcl.Diagnostics
	s.Language, d = decodeAttr(content.Attributes["language"], sc.ctx, nonEmptyString)
	diags = append(diags, d...)
	s.Toolchain, d = decodeAttr(content.Attributes["toolchain"], sc.ctx, asString)
	diags = append(diags, d...)
	s.FlakyRuns, d = decodeAttr(content.Attributes["flaky_runs"], sc.ctx, asFlakyRuns)
	diags = append(diags, d...)
	s.Split, d = decodeAttr(content.Attributes["split"], sc.ctx, asSplit)
	diags = append(diags, d...)
	s.Verifier, d = decodeAttr(content.Attributes["verifier"], sc.ctx, knownName("verifier", sc.known.Verifiers, sc.known.VerifierNames))
	diags = append(diags, d...)
	s.Masker, d = decodeAttr(content.Attributes["masker"], sc.ctx, knownName("masker", sc.known.Maskers, sc.known.MaskerNames))
	diags = append(diags, d...)
	s.LM, d = decodeAttr(content.Attributes["lm"], sc.ctx, asLMSettings)
	diags = append(diags, d...)
	s.User, d = decodeAttr(content.Attributes["user"], sc.ctx, oneOf(userNames...))
	diags = append(diags, d...)
	s.Env, d = decodeAttr(content.Attributes["env"], sc.ctx, asEnv)
	diags = append(diags, d...)
	s.SecretEnv, d = decodeAttr(content.Attributes["secret_env"], sc.ctx, asSecretEnv)
	diags = append(diags, d...)
	diags = append(diags, envCallWarnings(content.Attributes["env"], sc)...)
	s.Params, d = decodeParams(content.Attributes["params"], sc.ctx)
	diags = append(diags, d...)

	seen := make(map[string]*platformBlock)
	for _, block := range content.Blocks {
		if block.Type != "platform" {
			continue
		}
		p, platformDiags := decodePlatformBlock(block, sc)
		diags = append(diags, platformDiags...)
		if p == nil {
			continue
		}
		if first, ok := seen[p.Name]; ok {
			diags = append(diags, errorAt(block.DefRange, "Duplicate platform block", fmt.Sprintf(
				"platform %q is already declared at %s; merge the two blocks.", p.Name, position(first.DeclRange))))
			continue
		}
		seen[p.Name] = p
		s.Platforms = append(s.Platforms, p)
	}
	return s, diags
}

func asFlakyRuns(name string, value cty.Value) (int, *valueError) {
	n, problem := asWholeNumber(name, value)
	if problem == nil && n < 1 {
		problem = invalidValue("%s must be at least 1 (one run means no flake detection), not %d.", name, n)
	}
	if problem == nil && n > maxFlakyRuns {
		problem = invalidValue("%s is at most %d (each run is a whole test suite), not %d.", name, maxFlakyRuns, n)
	}
	return n, problem
}

// asSplit checks split: how many tasks each direction's verified regions
// are divided into (steps/tasksplit). Each is a masked run of both suites.
func asSplit(name string, value cty.Value) (int, *valueError) {
	n, problem := asWholeNumber(name, value)
	if problem == nil && n < 1 {
		problem = invalidValue("%s must be at least 1 (1: one task per direction), not %d.", name, n)
	}
	if problem == nil && n > maxSplit {
		problem = invalidValue("%s is at most %d (each group is a masked run of both platforms' suites), not %d.", name, maxSplit, n)
	}
	return n, problem
}

// decodePlatformBlock decodes a platform block. It returns nil when the label
// is not a platform name, after still checking the body for other mistakes.
func decodePlatformBlock(block *hcl.Block, sc *scope) (*platformBlock, hcl.Diagnostics) {
	p := &platformBlock{Name: block.Labels[0], DeclRange: block.DefRange}
	var diags hcl.Diagnostics
	validName := isPlatformName(p.Name)
	if !validName {
		diags = append(diags, errorAt(block.LabelRanges[0], "Invalid platform name", fmt.Sprintf(
			"%q is not a platform; use one of %s.%s", p.Name, quotedList(platformNames), didYouMean(p.Name, platformNames))))
	}
	content, contentDiags := block.Body.Content(platformSchema)
	diags = append(diags, contentDiags...)

	var d hcl.Diagnostics
	p.Executor, d = decodeAttr(content.Attributes["executor"], sc.ctx,
		knownName("executor", sc.known.Executors, sc.known.ExecutorNames))
	diags = append(diags, d...)
	p.Toolchain, d = decodeAttr(content.Attributes["toolchain"], sc.ctx, asString)
	diags = append(diags, d...)
	p.User, d = decodeAttr(content.Attributes["user"], sc.ctx, oneOf(userNames...))
	diags = append(diags, d...)
	p.Env, d = decodeAttr(content.Attributes["env"], sc.ctx, asEnv)
	diags = append(diags, d...)
	p.SecretEnv, d = decodeAttr(content.Attributes["secret_env"], sc.ctx, asSecretEnv)
	diags = append(diags, d...)
	diags = append(diags, envCallWarnings(content.Attributes["env"], sc)...)
	p.Params, d = decodeParams(content.Attributes["params"], sc.ctx)
	diags = append(diags, d...)

	for _, kind := range []string{"build", "test", "coverage"} {
		nested, singleDiags := singleBlock(content.Blocks, kind)
		diags = append(diags, singleDiags...)
		if nested == nil {
			continue
		}
		switch kind {
		case "build":
			p.Build, d = decodeBuildBlock(nested, sc)
		case "test":
			p.Test, d = decodeTestBlock(nested, sc)
		case "coverage":
			p.Coverage, d = decodeCoverageBlock(nested, sc)
		}
		diags = append(diags, d...)
	}
	if !validName {
		return nil, diags
	}
	return p, diags
}

func decodeBuildBlock(block *hcl.Block, sc *scope) (*buildBlock, hcl.Diagnostics) {
	b := &buildBlock{DeclRange: block.DefRange}
	content, diags := block.Body.Content(buildSchema)
	var d hcl.Diagnostics
	b.Command, b.Shell, b.Dir, d = decodeCommandAttributes(content, sc)
	diags = append(diags, d...)
	b.Timeout, d = decodeAttr(content.Attributes["timeout"], sc.ctx, asDuration)
	return b, append(diags, d...)
}

func decodeTestBlock(block *hcl.Block, sc *scope) (*testBlock, hcl.Diagnostics) {
	t := &testBlock{DeclRange: block.DefRange}
	content, diags := block.Body.Content(testSchema)
	var d hcl.Diagnostics
	t.Command, t.Shell, t.Dir, d = decodeCommandAttributes(content, sc)
	diags = append(diags, d...)
	t.Compile, d = decodeCommand(content.Attributes["compile"], sc)
	diags = append(diags, d...)
	t.Parser, t.ParserLate, d = decodeMaybeLate(content.Attributes["parser"], sc,
		knownName("parser", sc.known.Parsers, sc.known.ParserNames))
	diags = append(diags, d...)
	t.Timeout, d = decodeAttr(content.Attributes["timeout"], sc.ctx, asDuration)
	diags = append(diags, d...)
	t.EvalTimeout, d = decodeAttr(content.Attributes["eval_timeout"], sc.ctx, asDuration)
	diags = append(diags, d...)
	t.Skip, d = decodeAttr(content.Attributes["skip"], sc.ctx, asSkipList)
	diags = append(diags, d...)
	t.SkipUnder, d = decodeAttr(content.Attributes["skip_under"], sc.ctx, asSkipUnder(sc.known.Executors, sc.known.ExecutorNames))
	diags = append(diags, d...)
	t.SkipStyle, t.SkipStyleLate, d = decodeMaybeLate(content.Attributes["skip_style"], sc, skipStyle(sc.known.SkipStyles))
	diags = append(diags, d...)
	t.Report, t.ReportLate, d = decodeMaybeLate(content.Attributes["report"], sc, relativePath(false))
	diags = append(diags, d...)

	regex, singleDiags := singleBlock(content.Blocks, "regex")
	diags = append(diags, singleDiags...)
	if regex != nil {
		t.Regex, d = decodeRegexBlock(regex, sc)
		diags = append(diags, d...)
	}
	return t, diags
}

// asSkipList accepts the tests to leave out: non-empty names, each once.
func asSkipList(name string, value cty.Value) ([]string, *valueError) {
	list, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	seen := make(map[string]bool, len(list))
	for i, test := range list {
		at := indexPath(i)
		switch {
		case test == "":
			return nil, &valueError{Path: at, Detail: fmt.Sprintf("%s must not contain empty test names.", name)}
		case seen[test]:
			return nil, &valueError{Path: at, Detail: fmt.Sprintf("%q is listed twice.", test)}
		}
		seen[test] = true
	}
	return list, nil
}

func decodeRegexBlock(block *hcl.Block, sc *scope) (*regexBlock, hcl.Diagnostics) {
	r := &regexBlock{DeclRange: block.DefRange}
	content, diags := block.Body.Content(regexSchema)
	var d hcl.Diagnostics
	r.Pattern, d = decodeAttr(content.Attributes["pattern"], sc.ctx, asRegexPattern)
	diags = append(diags, d...)
	r.Statuses, d = decodeAttr(content.Attributes["statuses"], sc.ctx, asStatuses)
	diags = append(diags, d...)
	return r, diags
}

func decodeCoverageBlock(block *hcl.Block, sc *scope) (*coverageBlock, hcl.Diagnostics) {
	c := &coverageBlock{DeclRange: block.DefRange}
	content, diags := block.Body.Content(coverageSchema)
	var d hcl.Diagnostics
	c.Format, d = decodeAttr(content.Attributes["format"], sc.ctx,
		knownName("coverage format", sc.known.CoverageFormats, sc.known.CoverageFormatNames))
	diags = append(diags, d...)
	c.Path, d = decodeAttr(content.Attributes["path"], sc.ctx, relativePath(false))
	diags = append(diags, d...)
	return c, diags
}

// decodeCommandAttributes decodes what build and test blocks share.
func decodeCommandAttributes(content *hcl.BodyContent, sc *scope) (*lateCommand, *setting[string], *setting[string], hcl.Diagnostics) {
	command, diags := decodeCommand(content.Attributes["command"], sc)
	diags = append(diags, envCallWarnings(content.Attributes["command"], sc)...)
	// shell = "" is allowed so that a manifest can turn a preset's script
	// back into an argv command.
	shell, d := decodeAttr(content.Attributes["shell"], sc.ctx, oneOf(append([]string{""}, shellNames...)...))
	diags = append(diags, d...)
	dir, d := decodeAttr(content.Attributes["dir"], sc.ctx, relativePath(true))
	diags = append(diags, d...)
	return command, shell, dir, diags
}

// decodeCommand checks a command expression as far as possible before the
// late variables are known: it evaluates it with them unknown, which catches
// unknown variables and functions and, usually, wrong types.
func decodeCommand(attr *hcl.Attribute, sc *scope) (*lateCommand, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	c := &lateCommand{Expr: attr.Expr, Range: attr.Range, scope: sc}
	value, diags := attr.Expr.Value(sc.commandContext(unknownCommandVariables()))
	if diags.HasErrors() {
		c.Broken = true
		return c, diags
	}
	if problem := checkCommandType(value); problem != nil {
		c.Broken = true
		diags = append(diags, errorAt(rangeOfPath(attr.Expr, problem.Path), "Invalid command", problem.Detail))
	}
	return c, diags
}

// singleBlock returns the block of a type that may appear at most once, or
// nil, reporting every further one as a duplicate.
func singleBlock(blocks hcl.Blocks, blockType string) (*hcl.Block, hcl.Diagnostics) {
	var found *hcl.Block
	var diags hcl.Diagnostics
	for _, block := range blocks {
		if block.Type != blockType {
			continue
		}
		if found != nil {
			diags = append(diags, errorAt(block.DefRange, fmt.Sprintf("Duplicate %s block", blockType), fmt.Sprintf(
				"A %s block is already declared at %s; only one is allowed here.", blockType, position(found.DefRange))))
			continue
		}
		found = block
	}
	return found, diags
}
