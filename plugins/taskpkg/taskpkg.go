// Package taskpkg packages a migration task (DESIGN §2.6 and §7): the task
// record that becomes one line of tasks.jsonl, and the two trees an agent
// and an evaluator need — the masked repository as a fresh git repository
// with a single root commit, and the gold patch that restores the original.
//
// The API:
//
//	Task                          one tasks.jsonl line (schemas/task.schema.json)
//	InstanceID(repo, src, tgt)    "<repo>__<src>-to-<tgt>"
//	GroupInstanceID(…, group)     "<repo>__<src>-to-<tgt>__group<i>of<n>" for a split direction
//	Difficulty(regions, patch)    easy | medium | hard, from region lines, files and patch hunks
//	Categories(regions)           the distinct labels, false positives left out
//	Instruction(repo, src, tgt, language)
//	                              the problem statement shown to the agent
//	WriteRepo(dir, srcDir)        srcDir's files as a one-commit git repo in dir
//	GoldPatch(masked, original)   unified diff turning masked into original
//
// WriteRepo and GoldPatch run the git command with the user's and the
// system's git configuration shut out and store files byte for byte (no
// line-ending or filter conversion), so the same trees always give the same
// commit hash and the same patch, on every machine.
package taskpkg

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/osbench/osbench/schemas"
)

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

	SourceOS   string                   `json:"source_os"`
	TargetOS   string                   `json:"target_os"`
	Language   string                   `json:"language"`
	Difficulty string                   `json:"difficulty"`
	Categories []string                 `json:"categories"`
	Regions    []schemas.VerifiedRegion `json:"regions"` // the masked regions
	// Environment says how each platform's tests are run, keyed by platform
	// (both the source and the target).
	Environment map[string]Environment `json:"environment"`
	CreatedBy   CreatedBy              `json:"created_by"`

	// Repository is the manifest's repository name (Repo is the upstream
	// project's); evaluation keys its runs by it, as the build did.
	Repository string `json:"repository"`
	// Upstream is where the repository's bytes came from and what pins
	// them, as the checkout recorded it.
	Upstream schemas.Provenance `json:"upstream"`
	// MaskedRun says how the masked repository failed on the target: quiet
	// (assertions), crash or hang, and the FAIL_TO_PASS tests by status.
	MaskedRun schemas.MaskedRun `json:"masked_run"`
	// Evidence is, by platform (the target and the source), the test
	// definitions and the evidenced tests of the complete runs, which an
	// evaluated run must match; absent in tasks built before it existed.
	Evidence map[string]schemas.PlatformEvidence `json:"evidence,omitempty"`
	// Group is the part of a split direction this task restores (the
	// manifest's split); absent when the direction is one task.
	Group *schemas.TaskGroup `json:"group,omitempty"`
}

// RepositoryName is the manifest's repository name, also for task lines
// written before the field existed (when Repo was that name).
func (t *Task) RepositoryName() string {
	if t.Repository != "" {
		return t.Repository
	}
	return t.Repo
}

// Environment is how the tests of one platform are run: everything the
// evaluation needs to rerun them exactly as the task was built, so a task
// line is self-contained (no manifest is needed to evaluate it).
type Environment struct {
	TestCommand []string `json:"test_command"`    // argv, or script lines when Shell is set
	Shell       string   `json:"shell,omitempty"` // bash | pwsh | cmd; "" runs TestCommand as argv
	Dir         string   `json:"dir,omitempty"`   // slash-separated, relative to the repository root
	// Build runs before the tests; when it fails every test is build-failed.
	Build     *Command          `json:"build,omitempty"`
	Parser    string            `json:"parser"` // test-output parser plugin name
	Regex     *Regex            `json:"regex,omitempty"`
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
}

// Command is a build command: an argv, or script lines for a shell.
type Command struct {
	Argv  []string `json:"argv"`
	Shell string   `json:"shell,omitempty"`
	Dir   string   `json:"dir,omitempty"`
}

// Regex is a manifest-declared line parser for the "regex" parser.
type Regex struct {
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
		p.MaskedRun.FailToPassByStatus = map[schemas.Status]int{}
	}
	p.Regions = make([]schemas.VerifiedRegion, len(t.Regions))
	for i, r := range t.Regions {
		r.Lines = nonNil(r.Lines)
		p.Regions[i] = r
	}
	p.Environment = make(map[string]Environment, len(t.Environment))
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

// InstanceID names a task: the repository and the direction of migration,
// "<repository>__<source>-to-<target>".
func InstanceID(repository, source, target string) string {
	return repository + "__" + source + "-to-" + target
}

// GroupInstanceID names the task of one group of a split direction,
// "<repository>__<source>-to-<target>__group<i>of<n>"; with no group it is
// InstanceID, so a direction that is not split keeps its name.
func GroupInstanceID(repository, source, target string, group *schemas.TaskGroup) string {
	id := InstanceID(repository, source, target)
	if group != nil {
		id += "__" + group.Name()
	}
	return id
}

// The difficulty levels of DESIGN §2.6.
const (
	DifficultyEasy   = "easy"
	DifficultyMedium = "medium"
	DifficultyHard   = "hard"
)

// Difficulty grades a task by the size of its masked regions and by how
// many places its gold patch changes: hard when the regions span more than
// 100 lines or more than 5 files, or the patch has more than 10 hunks;
// medium when more than 30 lines, 2 files or 3 hunks; easy otherwise. A
// region spans End-Start+1 lines; false positives are not masked and do not
// count. Hunks stand for the functions an agent must restore: a few lines
// in each of eight functions is not an easy task.
func Difficulty(regions []schemas.VerifiedRegion, goldPatch string) string {
	lines := 0
	files := map[string]bool{}
	for _, r := range regions {
		if r.Label == schemas.LabelFalsePositive {
			continue
		}
		if r.End >= r.Start {
			lines += r.End - r.Start + 1
		}
		files[r.File] = true
	}
	hunks := patchHunks(goldPatch)
	switch {
	case lines > 100 || len(files) > 5 || hunks > 10:
		return DifficultyHard
	case lines > 30 || len(files) > 2 || hunks > 3:
		return DifficultyMedium
	}
	return DifficultyEasy
}

// patchHunks counts the hunks of a unified diff.
func patchHunks(patch string) int {
	n := 0
	for _, line := range strings.Split(patch, "\n") {
		if strings.HasPrefix(line, "@@ ") {
			n++
		}
	}
	return n
}

// Categories lists the distinct labels of the regions, sorted, without
// false-positive. The result is never nil.
func Categories(regions []schemas.VerifiedRegion) []string {
	categories := []string{}
	for _, r := range regions {
		if r.Label != schemas.LabelFalsePositive && !slices.Contains(categories, r.Label) {
			categories = append(categories, r.Label)
		}
	}
	slices.Sort(categories)
	return categories
}
