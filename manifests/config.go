// Package manifests is the manifest language: it loads HCL files, applies
// presets, evaluates expressions and decodes everything into the typed,
// fully resolved configuration below. Nothing outside this package sees HCL
// syntax; callers get values plus the source ranges they came from.
package manifests

import (
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Set is the result of loading one or more manifest files.
type Set struct {
	// Repositories in a stable order (by name).
	Repositories []*Repository
	// Agents in a stable order (by name): the agent blocks without errors.
	Agents []*Agent
	// Sources maps a file name (as used in ranges) to its bytes, so
	// diagnostics can print the offending line.
	Sources map[string][]byte
}

// Repository is one `repository "NAME"` block after presets were applied and
// every expression evaluated.
type Repository struct {
	Name     string
	Preset   string // "" when none
	Language string // from the preset ("go", "c", "rust", "csharp"), or the manifest
	Source   Source
	// ExtraSources are further pinned trees placed inside Source's
	// (extra_source blocks), sorted by At; not task code.
	ExtraSources []ExtraSource
	Migrate      []Direction
	FlakyRuns    int // default 3
	// Split is how many tasks each migration direction's verified regions
	// are divided into (default 1: one task per direction), by feature
	// group, then directory and file, never dividing a function
	// (steps/tasksplit). For a direction whose regions are a whole backend.
	Split int
	// Verifier names the verify plugin that judges candidate regions
	// (default "rules"; "lm" asks a language model).
	Verifier string
	// Masker names the mask plugin (default "rules"; "lm" asks a language
	// model and falls back to the rules where its answer does not hold).
	Masker string
	// LM configures the language-model verifier (verifier = "lm"): provider
	// ("openai" or "anthropic"), model, and optionally base_url,
	// api_key_env (the NAME of the variable holding the key, never the key),
	// azure_api_version, temperature, max_tokens.
	LM map[string]string
	// Platforms sorted by name; only those that a preset or the manifest defines.
	Platforms []*Platform

	File      string    // manifest file that declared the block
	DeclRange hcl.Range // the `repository "NAME"` header
	// Ranges maps a field path to the range of the attribute that supplied its
	// final value (in the manifest or in the preset). Paths are dotted:
	// "toolchain", "source.commit", "platform.linux.test.timeout",
	// "platform.linux.test.command", "platform.linux.env", ...
	Ranges map[string]hcl.Range
}

// Direction is one migration direction, written "linux->windows".
type Direction struct {
	Source string
	Target string
}

// Platform is one `platform "NAME"` block with preset values filled in.
type Platform struct {
	Name      string // "linux" | "windows" | "darwin"
	Executor  string // "local" | "wine" | "temporal" (checked against the executor registry); "local" when unset
	Toolchain string // e.g. "go1.25.0"; the platform's value or else the repository's
	// User is "" for the default (an unprivileged user when osbench runs as
	// root) or "root" to keep root.
	User string
	Env  map[string]string
	// SecretEnv names variables of osbench's own environment that the
	// test commands get by name: the repository's and the platform's,
	// sorted. Their values enter no key, log, trace, history or artifact
	// (steps/testrun redacts them from the output it keeps).
	SecretEnv []string
	Build     *Command // nil when there is no separate build command
	// BuildTimeout bounds the build command alone (build.timeout); 0: the
	// run's timeout bounds it, as it bounds the test command. A build is
	// not a test: under load it can take longer than a masked or patched
	// tree's eval_timeout allows a hung test.
	BuildTimeout time.Duration
	Test         Test
	// Coverage is nil when the platform collects none.
	Coverage *Coverage
}

// Command is an argv list, or a script run by an explicit shell.
type Command struct {
	Argv  []string
	Shell string // "" (argv), "bash", "pwsh" or "cmd"; with a shell Argv holds one script string
	Dir   string // working directory relative to the repository root; "" is the root
}

// Test is the test command and how to read its output.
type Test struct {
	Command
	// Compile builds the test programs without running them, before the
	// test command, under a budget of its own (cargo test --no-run); nil
	// when the runner compiles as it runs (Go's compile phase is derived
	// from its go test command instead). An argv list in the test's Dir.
	Compile *Command
	Parser  string        // parser plugin name, e.g. "go-test-json"
	Timeout time.Duration // 0 when neither the manifest nor its preset sets one
	// EvalTimeout bounds the runs of trees the build did not start from:
	// the masked repository's runs, every evaluation run of a patch, and
	// the gold re-run that checks the complete repository passes the same
	// way under it. A hung placeholder or a hung agent patch then costs
	// minutes, not the complete runs' timeout. It is Timeout when neither
	// the manifest nor its preset sets eval_timeout.
	EvalTimeout time.Duration
	// EvalArgv is Argv with ${timeout} standing for EvalTimeout.
	EvalArgv []string
	// Skip is what this platform's runs leave out: the test block's skip
	// followed by its skip_under entries for the platform's Executor.
	Skip []string
	// SkipUnder is the test block's skip_under as written: per executor,
	// tests left out only when the platform runs with it (Wine-only
	// limits). Skip already holds the entries of Executor; the others are
	// for listings (osbench validate --skips).
	SkipUnder map[string][]string
	SkipStyle string // how Skip becomes runner flags: "go" | "libtest" | "ctest" | "gtest" | "" (none allowed); entries may be globs (skips.go)
	// Report is the file the test command writes its results to, relative
	// to the repository root (a JUnit XML, a TAP file): the parser reads it
	// instead of the command's output. "" reads the output.
	Report string
	// Regex is set only for Parser == "regex".
	Regex *RegexParser
}

// RegexParser is a manifest-declared line parser: Pattern must have named
// groups "id" and "status"; Statuses maps the captured status text to a
// status name of DESIGN §2.
type RegexParser struct {
	Pattern  string
	Statuses map[string]string
}

// Coverage says which coverage format the test run writes and where.
type Coverage struct {
	Format string // importer plugin name, e.g. "go-coverprofile"
	Path   string // relative to the repository root
}
