package schemas

import "encoding/json"

// The task record: one line of tasks.jsonl (task.schema.json), written by
// the task step and read by the evaluation, so both agree on it through
// this package rather than through each other.

// Task is one line of tasks.jsonl. The first seven fields carry SWE-bench's
// names and meaning, so SWE-bench tooling can read the file.
type Task struct {
	InstanceID       string `json:"instance_id"`
	Repo             string `json:"repo"`
	BaseCommit       string `json:"base_commit"` // the masked repo's root commit (WriteRepo)
	ProblemStatement string `json:"problem_statement"`
	Patch            string `json:"patch"` // gold patch (GoldPatch)

	FailToPass   []string `json:"FAIL_TO_PASS"`
	PassToPass   []string `json:"PASS_TO_PASS"`
	PassOnSource []string `json:"PASS_ON_SOURCE"`

	SourceOS   string           `json:"source_os"`
	TargetOS   string           `json:"target_os"`
	Language   string           `json:"language"`
	Difficulty string           `json:"difficulty"`
	Categories []string         `json:"categories"`
	Regions    []VerifiedRegion `json:"regions"` // the masked regions
	// Environment says how each platform's tests are run, keyed by platform
	// (both the source and the target).
	Environment map[string]TestEnvironment `json:"environment"`
	CreatedBy   CreatedBy                  `json:"created_by"`

	// Repository is the manifest's repository name (Repo is the upstream
	// project's); evaluation keys its runs by it, as the build did.
	Repository string `json:"repository"`
	// Upstream is where the repository's bytes came from and what pins
	// them, as the checkout recorded it.
	Upstream Provenance `json:"upstream"`
	// MaskedRun says how the masked repository failed on the target: quiet
	// (assertions), crash or hang, and the FAIL_TO_PASS tests by status.
	MaskedRun MaskedRun `json:"masked_run"`
	// Evidence is, by platform (the target and the source), the test
	// definitions and the evidenced tests of the complete runs, which an
	// evaluated run must match; absent in tasks built before it existed.
	Evidence map[string]PlatformEvidence `json:"evidence,omitempty"`
	// Group is the part of a split direction this task restores (the
	// manifest's split); absent when the direction is one task.
	Group *TaskGroup `json:"group,omitempty"`
	// LockedDeps is the repository's locked dependency set, which the
	// evaluation fetches and a patch may not leave; absent for languages
	// without lock files (C, C++) and in tasks built before it existed.
	LockedDeps *LockedDeps `json:"locked_deps,omitempty"`
}

// RepositoryName is the manifest's repository name, also for task lines
// written before the field existed (when Repo was that name).
func (t *Task) RepositoryName() string {
	if t.Repository != "" {
		return t.Repository
	}
	return t.Repo
}

// TestEnvironment is how the tests of one platform are run: everything the
// evaluation needs to rerun them exactly as the task was built, so a task
// line is self-contained (no manifest is needed to evaluate it).
type TestEnvironment struct {
	TestCommand []string `json:"test_command"`    // argv, or script lines when Shell is set
	Shell       string   `json:"shell,omitempty"` // bash | pwsh | cmd; "" runs TestCommand as argv
	Dir         string   `json:"dir,omitempty"`   // slash-separated, relative to the repository root
	// Build runs before the tests; when it fails every test is build-failed.
	Build *Command `json:"build,omitempty"`
	// Compile builds the test programs without running them (cargo test
	// --no-run), after Build and before TestCommand, under a budget of its
	// own, so a slow compile on a loaded machine is never a test timeout;
	// what does not compile is left for TestCommand to report. Unlike
	// Build it is the test run's alone (a mask's build check never runs it).
	Compile   *Command          `json:"compile,omitempty"`
	Parser    string            `json:"parser"` // test-output parser plugin name
	Regex     *RegexParser      `json:"regex,omitempty"`
	Toolchain string            `json:"toolchain"` // pinned toolchain, "" when none is pinned
	Executor  string            `json:"executor"`
	User      string            `json:"user,omitempty"`
	Env       map[string]string `json:"env"`
	// SecretEnv names variables the test commands get from osbench's own
	// environment, by name: their values are in no record.
	SecretEnv []string `json:"secret_env,omitempty"`
	Timeout   string   `json:"timeout"` // Go duration
	Skip      []string `json:"skip"`    // tests the manifest skips on this platform
	// CoverageFile is where the test command writes coverage; evaluation
	// does not need it, but the same configuration lets a run the build
	// already made (the gold patch gives back R+) be served from the cache.
	CoverageFile string `json:"coverage_file,omitempty"`
	// Report is the file the parser reads instead of the test command's
	// output (slash-separated, relative to the repository root).
	Report string `json:"report,omitempty"`

	// BuildTimeout bounds the build alone (Go duration); "": Timeout
	// bounds it, as it bounds the tests.
	BuildTimeout string `json:"build_timeout,omitempty"`
}

// RegexParser is a manifest-declared line parser for the "regex" parser.
type RegexParser struct {
	Pattern  string            `json:"pattern"`
	Statuses map[string]string `json:"statuses"`
}

// CreatedBy records what produced a task, so a task can be traced back to
// the tool and the manifest that made it.
type CreatedBy struct {
	OsbenchVersion string `json:"osbench_version"`
	ManifestDigest string `json:"manifest_digest"` // "sha256:<hex>"
}

// MarshalJSON encodes nil lists as empty arrays: a task with no
// PASS_TO_PASS tests has "PASS_TO_PASS": [], never null. The Task itself is
// left as it is.
func (t Task) MarshalJSON() ([]byte, error) {
	type plain Task // drops this method, so Marshal below does not recurse
	p := plain(t)
	p.FailToPass = nonNil(p.FailToPass)
	p.PassToPass = nonNil(p.PassToPass)
	p.PassOnSource = nonNil(p.PassOnSource)
	p.Categories = nonNil(p.Categories)
	if p.MaskedRun.FailToPassByStatus == nil {
		p.MaskedRun.FailToPassByStatus = map[Status]int{}
	}
	p.Regions = make([]VerifiedRegion, len(t.Regions))
	for i, r := range t.Regions {
		r.Lines = nonNil(r.Lines)
		p.Regions[i] = r
	}
	p.Environment = make(map[string]TestEnvironment, len(t.Environment))
	for platform, env := range t.Environment {
		env.TestCommand = nonNil(env.TestCommand)
		env.Skip = nonNil(env.Skip)
		if env.Env == nil {
			env.Env = map[string]string{}
		}
		p.Environment[platform] = env
	}
	return json.Marshal(p)
}

// nonNil returns s, or an empty slice when s is nil.
func nonNil[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s
}
