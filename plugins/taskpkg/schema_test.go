package taskpkg

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
)

// pathsepTask builds the linux→windows task of the pathsep fixture with
// this package's functions: its Windows branches masked, labels from three
// complete runs on each platform and one masked run.
func pathsepTask(t *testing.T) schemas.Task {
	t.Helper()
	original := fixtureDir("pathsep")
	masked := filepath.Join(t.TempDir(), "masked")
	copyDir(t, masked, original)
	maskLines(t, masked)
	repo := filepath.Join(t.TempDir(), "repo")
	commit, err := WriteRepo(repo, masked)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := GoldPatch(repo, original)
	if err != nil {
		t.Fatal(err)
	}

	results := func(platform string, statuses map[string]schemas.Status) schemas.TestResults {
		r := schemas.TestResults{Repository: "pathsep", Platform: platform, Parser: "go-test-json"}
		for _, id := range []string{"pathsep/TestDrive", "pathsep/TestIsSeparator", "pathsep/TestJoinUserRejectsEscapes", "pathsep/TestSplitList"} {
			s, ok := statuses[id]
			if !ok {
				s = schemas.StatusPass
			}
			r.Tests = append(r.Tests, schemas.TestResult{ID: id, Status: s})
		}
		return r
	}
	complete := results("windows", nil)
	labels := label.Compute(label.Input{
		TargetComplete: []schemas.TestResults{complete, complete, complete},
		TargetMasked:   results("windows", map[string]schemas.Status{"pathsep/TestDrive": schemas.StatusFail, "pathsep/TestIsSeparator": schemas.StatusFail}),
		SourceComplete: []schemas.TestResults{
			results("linux", nil),
			results("linux", map[string]schemas.Status{"pathsep/TestSplitList": schemas.StatusTimeout}), // flaky
			results("linux", nil),
		},
	})
	if err := labels.Check(); err != nil {
		t.Fatal(err)
	}

	regions := []schemas.VerifiedRegion{
		{
			Region: schemas.Region{File: "pathsep.go", Start: 19, End: 21, Lines: []int{19, 20, 21}, SourceCompiled: true},
			Verdict: schemas.Verdict{Label: schemas.LabelPath, FunctionalArea: "path separator test", FeatureGroup: "path_separators",
				Explanation: "backslash separates on Windows", Confidence: 0.9, Verifier: "rules"},
		},
		{
			Region: schemas.Region{File: "pathsep.go", Start: 48, End: 52, Lines: []int{48, 49, 52}, SourceCompiled: true},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional, FunctionalArea: "drive letters", FeatureGroup: "drive_letters",
				Explanation: "runtime.GOOS check", Confidence: 1, Verifier: "lm:openai/gpt-x"},
		},
	}
	goCommand := []string{"go", "test", "-count=1", "-json", "-vet=off", "./..."}
	return schemas.Task{
		InstanceID: InstanceID("pathsep", "linux", "windows"),
		Repo:       "example.com/pathsep",
		Repository: "pathsep",
		Upstream: schemas.Provenance{Kind: "go_module", Repo: "example.com/pathsep", Version: "v1.2.3",
			Sum: "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E=", Tree: string(bytes.Repeat([]byte("cd"), 32))},
		MaskedRun:        schemas.MaskedRun{Class: schemas.MaskQuiet, FailToPassByStatus: map[schemas.Status]int{schemas.StatusFail: 2}},
		BaseCommit:       commit,
		ProblemStatement: Instruction("pathsep", "linux", "windows", "go"),
		Patch:            patch,
		FailToPass:       labels.FailToPass,
		PassToPass:       labels.PassToPass,
		PassOnSource:     labels.PassOnSource,
		SourceOS:         "linux",
		TargetOS:         "windows",
		Language:         "go",
		Difficulty:       Difficulty(regions, patch),
		Categories:       Categories(regions),
		Regions:          regions,
		Environment: map[string]schemas.TestEnvironment{
			"linux":   {TestCommand: goCommand, Parser: "go-test-json", Toolchain: "go1.26.8", Executor: "local", Timeout: "10m"},
			"windows": {TestCommand: goCommand, Parser: "go-test-json", Toolchain: "go1.25.5", Executor: "wine", Timeout: "20m", Env: map[string]string{"GOOS": "windows"}},
		},
		CreatedBy: schemas.CreatedBy{OsbenchVersion: "0.1.0", ManifestDigest: "sha256:" + string(bytes.Repeat([]byte("ab"), 32))},
	}
}

func TestTaskMatchesSchema(t *testing.T) {
	schema := schematest.Compile(t, "task")
	good := pathsepTask(t)
	if err := schematest.Validate(t, schema, good); err != nil {
		t.Fatalf("task built by taskpkg rejected: %v", err)
	}
	withEvidence := pathsepTask(t)
	withEvidence.Evidence = map[string]schemas.PlatformEvidence{
		"linux":   {Definitions: "sha256:" + strings.Repeat("ab", 32), Ran: []string{"example.com/pathsep/TestJoin"}},
		"windows": {Ran: []string{}},
	}
	if err := schematest.Validate(t, schema, withEvidence); err != nil {
		t.Fatalf("task with an evidence record rejected: %v", err)
	}
	locked := pathsepTask(t)
	locked.LockedDeps = &schemas.LockedDeps{Digest: "sha256:" + strings.Repeat("ef", 32), Files: []string{"go.mod", "go.sum"},
		Dependencies: []string{"golang.org/x/sys@v0.15.0"}}
	if err := schematest.Validate(t, schema, locked); err != nil {
		t.Fatalf("task with a locked set rejected: %v", err)
	}
	for name, bad := range map[string]*schemas.LockedDeps{
		"digest":       {Digest: "abc", Files: []string{}, Dependencies: []string{}},
		"absolute":     {Digest: locked.LockedDeps.Digest, Files: []string{"/go.sum"}, Dependencies: []string{}},
		"no list":      {Digest: locked.LockedDeps.Digest, Files: []string{}},
		"duplicates":   {Digest: locked.LockedDeps.Digest, Files: []string{}, Dependencies: []string{"a@v1", "a@v1"}},
		"empty module": {Digest: locked.LockedDeps.Digest, Files: []string{}, Dependencies: []string{""}},
	} {
		task := pathsepTask(t)
		task.LockedDeps = bad
		if err := schematest.Validate(t, schema, task); err == nil {
			t.Errorf("locked set with a bad %s accepted", name)
		}
	}
	grouped := pathsepTask(t)
	grouped.Group = &schemas.TaskGroup{Index: 2, Of: 3, FeatureGroups: []string{"drive_letters"}, Files: []string{"pathsep.go"}, Regions: 1, Lines: 5}
	grouped.InstanceID = GroupInstanceID("pathsep", "linux", "windows", grouped.Group)
	if err := schematest.Validate(t, schema, grouped); err != nil {
		t.Fatalf("task of a split direction rejected: %v", err)
	}
	if grouped.InstanceID != "pathsep__linux-to-windows__group2of3" || GroupInstanceID("pathsep", "linux", "windows", nil) != good.InstanceID {
		t.Errorf("instance IDs: %s (group), %s (none)", grouped.InstanceID, GroupInstanceID("pathsep", "linux", "windows", nil))
	}
	if len(good.FailToPass) != 2 || len(good.PassToPass) != 1 || len(good.PassOnSource) != 3 {
		t.Errorf("unexpected labels: %v %v %v", good.FailToPass, good.PassToPass, good.PassOnSource)
	}

	tests := []struct {
		name      string
		breakTask func(*schemas.Task) any // returns what to validate
	}{
		{"no FAIL_TO_PASS", func(t *schemas.Task) any { t.FailToPass = nil; return t }},
		{"no PASS_ON_SOURCE", func(t *schemas.Task) any { t.PassOnSource = []string{}; return t }},
		{"duplicate test id", func(t *schemas.Task) any { t.PassToPass = append(t.PassToPass, t.PassToPass[0]); return t }},
		{"windows test id", func(t *schemas.Task) any { t.FailToPass = []string{`pathsep.exe/TestDrive`}; return t }},
		{"unknown difficulty", func(t *schemas.Task) any { t.Difficulty = "trivial"; return t }},
		{"false positive category", func(t *schemas.Task) any { t.Categories = []string{schemas.LabelFalsePositive}; return t }},
		{"false positive region", func(t *schemas.Task) any { t.Regions[0].Label = schemas.LabelFalsePositive; return t }},
		{"feature group not snake_case", func(t *schemas.Task) any { t.Regions[0].FeatureGroup = "PathSeparators"; return t }},
		{"confidence above 1", func(t *schemas.Task) any { t.Regions[0].Confidence = 1.5; return t }},
		{"absolute region path", func(t *schemas.Task) any { t.Regions[0].File = "/work/pathsep.go"; return t }},
		{"instance id without direction", func(t *schemas.Task) any { t.InstanceID = "pathsep"; return t }},
		{"instance id with a bad group", func(t *schemas.Task) any { t.InstanceID += "__group2"; return t }},
		{"group of one", func(t *schemas.Task) any {
			t.Group = &schemas.TaskGroup{Index: 1, Of: 1, Regions: 1, Lines: 1}
			return t
		}},
		{"group index 0", func(t *schemas.Task) any {
			t.Group = &schemas.TaskGroup{Index: 0, Of: 2, Regions: 1, Lines: 1}
			return t
		}},
		{"group feature not snake_case", func(t *schemas.Task) any {
			t.Group = &schemas.TaskGroup{Index: 1, Of: 2, FeatureGroups: []string{"Drive Letters"}, Regions: 1, Lines: 1}
			return t
		}},
		{"short base commit", func(t *schemas.Task) any { t.BaseCommit = t.BaseCommit[:12]; return t }},
		{"patch not in git format", func(t *schemas.Task) any { t.Patch = "--- a/x\n+++ b/x\n"; return t }},
		{"unknown platform", func(t *schemas.Task) any { t.TargetOS = "win"; return t }},
		{"one platform's environment", func(t *schemas.Task) any { delete(t.Environment, "linux"); return t }},
		{"empty test command", func(t *schemas.Task) any {
			e := t.Environment["linux"]
			e.TestCommand = []string{}
			t.Environment["linux"] = e
			return t
		}},
		{"no executor", func(t *schemas.Task) any {
			e := t.Environment["linux"]
			e.Executor = ""
			t.Environment["linux"] = e
			return t
		}},
		{"timeout not a duration", func(t *schemas.Task) any {
			e := t.Environment["windows"]
			e.Timeout = "20 minutes"
			t.Environment["windows"] = e
			return t
		}},
		{"unknown shell", func(t *schemas.Task) any {
			e := t.Environment["linux"]
			e.Shell = "zsh"
			t.Environment["linux"] = e
			return t
		}},
		{"bad manifest digest", func(t *schemas.Task) any { t.CreatedBy.ManifestDigest = "abc"; return t }},
		{"no upstream", func(t *schemas.Task) any { t.Upstream = schemas.Provenance{}; return t }},
		{"upstream module without sum", func(t *schemas.Task) any { t.Upstream.Sum = ""; return t }},
		{"upstream git without commit", func(t *schemas.Task) any {
			t.Upstream = schemas.Provenance{Kind: "git", Repo: "o/n", URL: "https://example.com/o/n", Tree: t.Upstream.Tree}
			return t
		}},
		{"upstream crate digest not hex", func(t *schemas.Task) any {
			t.Upstream = schemas.Provenance{Kind: "crate", Repo: "c", Version: "1.0.0", SHA256: "xyz", Tree: t.Upstream.Tree}
			return t
		}},
		{"unknown upstream kind", func(t *schemas.Task) any { t.Upstream.Kind = "svn"; return t }},
		{"unknown mask class", func(t *schemas.Task) any { t.MaskedRun.Class = "loud"; return t }},
		{"pass counted as a FAIL_TO_PASS status", func(t *schemas.Task) any {
			t.MaskedRun.FailToPassByStatus = map[schemas.Status]int{schemas.StatusPass: 1}
			return t
		}},
		{"repository with a slash", func(t *schemas.Task) any { t.Repository = "a/b"; return t }},
		{"evidence of an unknown platform", func(t *schemas.Task) any {
			t.Evidence = map[string]schemas.PlatformEvidence{"win": {Ran: []string{}}}
			return t
		}},
		{"test definitions digest not sha256", func(t *schemas.Task) any {
			t.Evidence = map[string]schemas.PlatformEvidence{"linux": {Definitions: "md5:00", Ran: []string{}}}
			return t
		}},
		{"evidenced test listed twice", func(t *schemas.Task) any {
			t.Evidence = map[string]schemas.PlatformEvidence{"linux": {Ran: []string{"p/TestA", "p/TestA"}}}
			return t
		}},
		{"extra key", func(t *schemas.Task) any {
			var m map[string]any
			b, _ := json.Marshal(t)
			_ = json.Unmarshal(b, &m)
			m["flaky"] = []string{}
			return m
		}},
		{"missing key", func(t *schemas.Task) any {
			var m map[string]any
			b, _ := json.Marshal(t)
			_ = json.Unmarshal(b, &m)
			delete(m, "created_by")
			return m
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := good
			bad.Regions = append([]schemas.VerifiedRegion(nil), good.Regions...)
			bad.Environment = map[string]schemas.TestEnvironment{}
			for k, v := range good.Environment {
				bad.Environment[k] = v
			}
			if err := schematest.Validate(t, schema, tt.breakTask(&bad)); err == nil {
				t.Error("schema accepted the broken task")
			}
		})
	}
}
