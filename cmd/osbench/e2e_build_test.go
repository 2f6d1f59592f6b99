package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/pipeline/corpusreport"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
)

// exportCorpus exports the corpus from a private copy of its cache.
func exportCorpus(t *testing.T) (cacheDir, out string) {
	t.Helper()
	requireCorpus(t)
	dir := reachableTempDir(t)
	cacheDir, out = filepath.Join(dir, "cache"), filepath.Join(dir, "out")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runOsbench(t, cacheDir, "build", examples, "--out", out)
	if code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	return cacheDir, out
}

// TestExportedArtifactsAreValidAndShowPlatformCode checks every exported
// tests.json and coverage.json against its schema; that each platform
// executed its own platform code and not the other's; and that a test has
// the same id on both platforms.
func TestExportedArtifactsAreValidAndShowPlatformCode(t *testing.T) {
	_, out := exportCorpus(t)
	testsSchema, covSchema := schematest.Compile(t, "tests"), schematest.Compile(t, "coverage")
	type run struct {
		tests map[string]schemas.Status
		cov   map[string]schemas.FileCoverage
	}
	for _, repo := range []string{"pathsep", "fsapi", "lineend", "cpath", "cppenc", "rsplat"} {
		runs := map[string]run{}
		for _, platform := range []string{"linux", "windows"} {
			dir := filepath.Join(out, "runs", repo, platform)
			artifacts := map[string]*jsonschema.Schema{"tests.json": testsSchema, "coverage.json": covSchema}
			for file, schema := range artifacts {
				schematest.ValidateFile(t, schema, filepath.Join(dir, file))
			}
			var tr schemas.TestResults
			readJSON(t, filepath.Join(dir, "tests.json"), &tr)
			var cov schemas.Coverage
			readJSON(t, filepath.Join(dir, "coverage.json"), &cov)
			r := run{tests: map[string]schemas.Status{}, cov: map[string]schemas.FileCoverage{}}
			for _, x := range tr.Tests {
				r.tests[x.ID] = x.Status
				if x.Status != schemas.StatusPass && x.Status != schemas.StatusSkip {
					t.Errorf("%s: %s is %s on %s", repo, x.ID, x.Status, platform)
				}
			}
			for _, f := range cov.Files {
				r.cov[f.Path] = f
			}
			if len(r.tests) == 0 || len(r.cov) == 0 {
				t.Fatalf("%s/%s: no tests or no coverage", repo, platform)
			}
			runs[platform] = r
		}
		linux, windows := runs["linux"], runs["windows"]
		// Same ids: every test outside build-tagged test files runs on both.
		common := 0
		for id := range windows.tests {
			if _, ok := linux.tests[id]; ok {
				common++
			} else if repo != "fsapi" {
				t.Errorf("%s: %s reported on windows only", repo, id)
			}
		}
		if common == 0 {
			t.Errorf("%s: no test id in common between linux and windows", repo)
		}
		// Each platform executed lines the other did not.
		winOnly, linuxOnly := onlyIn(windows.cov, linux.cov), onlyIn(linux.cov, windows.cov)
		if len(winOnly) == 0 || len(linuxOnly) == 0 {
			t.Errorf("%s: windows-only lines %v, linux-only lines %v", repo, winOnly, linuxOnly)
		}
		if repo == "rsplat" && (len(winOnly["src/paths.rs"]) == 0 || len(linuxOnly["src/paths.rs"]) == 0) {
			t.Errorf("rsplat: #[cfg] code of src/paths.rs not executed on its platform: %v / %v", winOnly, linuxOnly)
		}
		if repo == "fsapi" {
			if _, ok := linux.cov["attrs_windows.go"]; ok {
				t.Errorf("fsapi: attrs_windows.go compiled on linux")
			}
			if _, ok := windows.cov["attrs_unix.go"]; ok {
				t.Errorf("fsapi: attrs_unix.go compiled on windows")
			}
			if len(winOnly["attrs_windows.go"]) == 0 || len(linuxOnly["attrs_unix.go"]) == 0 {
				t.Errorf("fsapi: build-tagged files not executed on their platform: %v / %v", winOnly, linuxOnly)
			}
		}
	}
}

// onlyIn lists, per file, lines executed in a and not in b.
func onlyIn(a, b map[string]schemas.FileCoverage) map[string][]int {
	out := map[string][]int{}
	for path, f := range a {
		seen := map[int]bool{}
		for _, l := range b[path].Executed {
			seen[l] = true
		}
		for _, l := range f.Executed {
			if !seen[l] {
				out[path] = append(out[path], l)
			}
		}
	}
	return out
}

func readJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// snapshotDir maps relative path → content of every file under dir, but
// the raw logs (timings) and build-steps.json (which steps ran and which
// were cached): they describe a run, they are not results two builds must
// agree on.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasSuffix(p, ".log") && filepath.Base(p) != "build-steps.json" {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			m[rel] = string(b)
		}
		return nil
	})
	return m
}

func sameFiles(t *testing.T, want, got map[string]string) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(want) != len(got) {
		t.Errorf("file sets differ: %d vs %d files", len(want), len(got))
	}
	for _, k := range keys {
		if want[k] != got[k] {
			t.Errorf("%s differs", k)
		}
	}
}

// freshManifest writes one example under a new repository name, so its
// steps are not in the shared corpus and must really run.
func freshManifest(t *testing.T, dir, example, name string) string {
	t.Helper()
	if err := copyExamples(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, example+".hcl")
	b, _ := os.ReadFile(p)
	b = bytes.Replace(b, []byte(fmt.Sprintf("repository %q", example)), []byte(fmt.Sprintf("repository %q", name)), 1)
	out := filepath.Join(dir, "fresh")
	os.MkdirAll(out, 0o755)
	if err := os.WriteFile(filepath.Join(out, name+".hcl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// startAndWaitForTest starts a build of manifests and returns once a test
// step's work dir holds the repository.
func startAndWaitForTest(t *testing.T, cacheDir, manifests string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(osbenchBin, "--cache-dir", cacheDir, "--platform", "linux", "build", manifests)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		// The test step, or the gold re-run that single flight runs in
		// its place when both have one key.
		if m, _ := filepath.Glob(filepath.Join(cacheDir, "work", "*", "repo", "go.mod")); len(m) > 0 {
			return cmd, &logs
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("test step never started:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestInterruptStopsCleanly sends Ctrl-C (SIGINT) during a test step: the
// build stops with the step canceled, records nothing for it, leaves no work
// dir behind, and the next build runs it.
func TestInterruptStopsCleanly(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	manifests := freshManifest(t, filepath.Join(dir, "m"), "fsapi", "fsapi-interrupt")
	cacheDir := filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	cmd, logs := startAndWaitForTest(t, cacheDir, manifests)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("interrupted build: %v\n%s", err, logs.String())
	}
	if !strings.Contains(logs.String(), "canceled") {
		t.Errorf("summary does not mention the canceled step:\n%s", logs.String())
	}
	if m, _ := filepath.Glob(filepath.Join(cacheDir, "work", "*")); len(m) != 0 {
		t.Errorf("work dirs left behind: %v", m)
	}
	stdout, stderr, code := runOsbench(t, cacheDir, "--platform", "linux", "build", manifests)
	if code != 0 || !regexp.MustCompile(`ran fsapi-interrupt/linux/(test|gold-rerun) `).MatchString(stderr) {
		t.Errorf("rerun: exit %d, %s\n%s", code, lastLine(stdout), stderr)
	}
}

// TestKillMidRunThenRerun SIGKILLs a build while its test step runs; the
// rerun completes and exports exactly what an uninterrupted build does.
func TestKillMidRunThenRerun(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	manifests := freshManifest(t, filepath.Join(dir, "m"), "lineend", "lineend-kill")
	cacheDir := filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	cmd, _ := startAndWaitForTest(t, cacheDir, manifests)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()

	out1 := filepath.Join(dir, "out1")
	stdout, stderr, code := runOsbench(t, cacheDir, "--platform", "linux", "build", manifests, "--out", out1)
	if code != 0 {
		t.Fatalf("rerun after kill: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(lastLine(stdout), "0 failed") {
		t.Errorf("rerun summary: %s", lastLine(stdout))
	}
	// A clean build in a separate cache gives byte-identical artifacts.
	clean := filepath.Join(dir, "clean-cache")
	os.MkdirAll(clean, 0o755)
	os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(clean, "state"))
	out2 := filepath.Join(dir, "out2")
	if _, stderr, code := runOsbench(t, clean, "--platform", "linux", "build", manifests, "--out", out2); code != 0 {
		t.Fatalf("clean build: exit %d\n%s", code, stderr)
	}
	sameFiles(t, snapshotDir(t, out2), snapshotDir(t, out1))
	if _, _, code := runOsbench(t, cacheDir, "cache", "verify"); code != 0 {
		t.Errorf("cache verify after kill found problems")
	}
}

// TestConcurrentBuildsShareACache runs two builds of the same fresh
// manifest on one cache at once: both succeed with identical exports.
func TestConcurrentBuildsShareACache(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	manifests := freshManifest(t, filepath.Join(dir, "m"), "pathsep", "pathsep-concurrent")
	cacheDir := filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := []string{filepath.Join(dir, "outA"), filepath.Join(dir, "outB")}
	errs := make([]string, 2)
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			stdout, stderr, code := runOsbench(t, cacheDir, "--platform", "linux", "build", manifests, "--out", outs[i])
			if code != 0 || !strings.Contains(lastLine(stdout), "0 failed") {
				errs[i] = fmt.Sprintf("exit %d: %s\n%s", code, lastLine(stdout), stderr)
			}
		}(i)
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("build %d: %s", i, e)
		}
	}
	sameFiles(t, snapshotDir(t, outs[0]), snapshotDir(t, outs[1]))
	if _, _, code := runOsbench(t, cacheDir, "cache", "verify"); code != 0 {
		t.Errorf("cache verify after concurrent builds found problems")
	}
}

// TestCorruptBlobIsDetectedAndRecomputed damages the stored tests.json of a
// step; the next build notices, reruns that step and exports the same bytes.
func TestCorruptBlobIsDetectedAndRecomputed(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	want := snapshotDir(t, out)
	b, err := os.ReadFile(filepath.Join(out, "runs", "fsapi", "linux", "tests.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := string(cache.Sum(b))
	blob := filepath.Join(cacheDir, "cas", sum[:2], sum)
	bad := bytes.Replace(b, []byte(`"pass"`), []byte(`"fail"`), 1)
	if err := os.WriteFile(blob, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(reachableTempDir(t), "examples")
	copyExamples(examples)
	out2 := filepath.Join(reachableTempDir(t), "out")
	stdout, stderr, code := runOsbench(t, cacheDir, "build", examples, "--out", out2)
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(lastLine(stdout), "156 cached, 1 ran") {
		t.Errorf("summary %q, want exactly the damaged step rerun", lastLine(stdout))
	}
	sameFiles(t, want, snapshotDir(t, out2))
}

// TestGitSourceThroughMirror builds a repository from a git URL at a pinned
// commit; a second state of the same repository reuses the mirror.
func TestGitSourceThroughMirror(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	origin := filepath.Join(dir, "origin")
	copyTree(filepath.Join(repoRoot, "testdata", "repos", "lineend"), origin)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", origin, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "first")
	commit := git("rev-parse", "HEAD")
	manifest := fmt.Sprintf(`repository "lineend-git" {
  preset = "go"
  source {
    git    = "file://%s"
    commit = "%s"
  }
  toolchain = "go1.26.8"
  migrate   = ["windows->linux", "linux->windows"]
}
`, origin, commit)
	mdir := filepath.Join(dir, "m")
	os.MkdirAll(mdir, 0o755)
	os.WriteFile(filepath.Join(mdir, "git.hcl"), []byte(manifest), 0o644)
	cacheDir := filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runOsbench(t, cacheDir, "--platform", "linux", "build", mdir, "--out", out, "--log-format", "json")
	if code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	var tr schemas.TestResults
	readJSON(t, filepath.Join(out, "runs", "lineend-git", "linux", "tests.json"), &tr)
	if len(tr.Tests) == 0 {
		t.Fatal("no tests from the git checkout")
	}
	// The mirror now holds the commit: with the origin gone and the action
	// cache emptied, the checkout reruns from the mirror alone.
	os.Rename(origin, origin+".gone")
	os.RemoveAll(filepath.Join(cacheDir, "ac"))
	_, stderr, code = runOsbench(t, cacheDir, "--platform", "linux", "build", mdir)
	if code != 0 {
		t.Fatalf("rebuild without origin: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "lineend-git/checkout") {
		t.Errorf("checkout did not rerun:\n%s", stderr)
	}
}

// TestVerifiedCandidates checks the verify step's export on the fixtures:
// the build-tagged Unix code of fsapi is kept as platform-specific for
// windows→linux, its Windows code for linux→windows, and FindEntry — which
// runs on Linux only because its test is skipped under Wine — is dropped as
// a false positive.
func TestVerifiedCandidates(t *testing.T) {
	_, out := exportCorpus(t)
	read := func(direction string) map[string][]schemas.VerifiedRegion {
		var doc struct {
			Regions []schemas.VerifiedRegion `json:"regions"`
		}
		readJSON(t, filepath.Join(out, "candidates", "fsapi", direction, "regions.json"), &doc)
		byFile := map[string][]schemas.VerifiedRegion{}
		for _, r := range doc.Regions {
			byFile[r.File] = append(byFile[r.File], r)
		}
		return byFile
	}
	toLinux, toWindows := read("windows-to-linux"), read("linux-to-windows")
	for dir, want := range map[string]struct {
		regions map[string][]schemas.VerifiedRegion
		file    string
	}{"windows-to-linux": {toLinux, "attrs_unix.go"}, "linux-to-windows": {toWindows, "attrs_windows.go"}} {
		if len(want.regions[want.file]) == 0 {
			t.Errorf("%s: no region in %s", dir, want.file)
		}
		for _, r := range want.regions[want.file] {
			if r.Label == schemas.LabelFalsePositive || r.FeatureGroup == "" || r.Confidence <= 0 {
				t.Errorf("%s: %s:%d-%d judged %+v", dir, r.File, r.Start, r.End, r.Verdict)
			}
		}
	}
	fp := 0
	for _, r := range toLinux["fsapi.go"] {
		if r.Label != schemas.LabelFalsePositive {
			t.Errorf("fsapi.go:%d-%d (no platform evidence) labelled %s", r.Start, r.End, r.Label)
		}
		fp++
	}
	if fp == 0 {
		t.Errorf("the planted false positive (FindEntry, skipped under Wine) produced no region")
	}
}

// TestTasksFromTheExamples checks task construction end to end: tasks in
// both directions from the Go fixtures and from a C fixture, each valid
// against task.schema.json, with non-empty FAIL_TO_PASS and PASS_ON_SOURCE,
// a masked repository with exactly one commit and no test-file change, and
// rejected candidates listed with a reason in the build report.
// TestMasksPreserveTheSource checks every exported task of the examples,
// independently of the mask step's own check, from what the task publishes:
// no line its gold patch restores was executed by the source platform's
// complete run (DESIGN §2.4). make corpus prints the same check for the
// real corpus.
func TestMasksPreserveTheSource(t *testing.T) {
	_, out := exportCorpus(t)
	p, err := corpusreport.CheckPreservation(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(taskIDs(t, filepath.Join(out, "tasks.jsonl"))); p.Tasks != n || len(p.Unchecked) > 0 || p.MaskedLines == 0 {
		t.Errorf("checked %d of %d tasks (%d masked lines; unchecked %v)", p.Tasks, n, p.MaskedLines, p.Unchecked)
	}
	for _, v := range p.Violations {
		t.Errorf("mask changed lines the source executed: %s", v)
	}
}

func TestTasksFromTheExamples(t *testing.T) {
	_, out := exportCorpus(t)
	schema := schematest.Compile(t, "task")
	b, err := os.ReadFile(filepath.Join(out, "tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if err := schematest.ValidateBytes(t, schema, []byte(line)); err != nil {
			t.Errorf("task invalid: %v", err)
		}
		var task struct {
			ID         string   `json:"instance_id"`
			F2P        []string `json:"FAIL_TO_PASS"`
			P2S        []string `json:"PASS_ON_SOURCE"`
			Patch      string   `json:"patch"`
			BaseCommit string   `json:"base_commit"`
		}
		json.Unmarshal([]byte(line), &task)
		made[task.ID] = true
		if len(task.F2P) == 0 || len(task.P2S) == 0 {
			t.Errorf("%s: empty FAIL_TO_PASS or PASS_ON_SOURCE", task.ID)
		}
		repo := filepath.Join(out, "tasks", task.ID, "repo")
		log, err := exec.Command("git", "-C", repo, "log", "--format=%H").Output()
		if err != nil || strings.TrimSpace(string(log)) != task.BaseCommit {
			t.Errorf("%s: git log = %q (%v), want exactly the base commit %s", task.ID, log, err, task.BaseCommit)
		}
		if remotes, _ := exec.Command("git", "-C", repo, "remote").Output(); len(remotes) != 0 {
			t.Errorf("%s: the task repository has remotes: %s", task.ID, remotes)
		}
		for _, l := range strings.Split(task.Patch, "\n") {
			if strings.HasPrefix(l, "diff --git") && (strings.Contains(l, "_test.") || strings.Contains(l, "/tests/") || strings.Contains(l, " b/tests/")) {
				t.Errorf("%s: the gold patch touches a test file: %s", task.ID, l)
			}
		}
	}
	for _, want := range []string{"pathsep__linux-to-windows", "pathsep__windows-to-linux", "fsapi__linux-to-windows", "fsapi__windows-to-linux", "cpath__linux-to-windows", "cpath__windows-to-linux", "rsplat__linux-to-windows", "rsplat__windows-to-linux"} {
		if !made[want] {
			t.Errorf("no task %s (made: %v)", want, made)
		}
	}
	var rep struct {
		Entries []struct {
			InstanceID string `json:"instance_id"`
			Accepted   bool   `json:"accepted"`
			Rejected   string `json:"rejected"`
			Flaky      []struct {
				ID       string `json:"id"`
				Platform string `json:"platform"`
			} `json:"flaky"`
		} `json:"entries"`
	}
	readJSON(t, filepath.Join(out, "build-report.json"), &rep)
	// lineend runs twice (flaky_runs = 2) and TestFlakyOnPurpose fails on
	// run 2: it is quarantined on both platforms and in no label set.
	const flaky = "example.com/lineend/TestFlakyOnPurpose"
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.Contains(line, `"lineend__`) && strings.Contains(line, flaky) {
			t.Errorf("the flaky test is in a label set: %.200s", line)
		}
	}
	for _, e := range rep.Entries {
		if !strings.HasPrefix(e.InstanceID, "lineend__") {
			continue
		}
		platforms := map[string]bool{}
		for _, f := range e.Flaky {
			if f.ID == flaky {
				platforms[f.Platform] = true
			}
		}
		if !platforms["linux"] || !platforms["windows"] {
			t.Errorf("%s: flaky test not quarantined on both platforms: %+v", e.InstanceID, e.Flaky)
		}
	}
	for _, e := range rep.Entries {
		if !e.Accepted && e.Rejected == "" {
			t.Errorf("%s rejected without a reason", e.InstanceID)
		}
		if e.Accepted != made[e.InstanceID] {
			t.Errorf("%s: report says accepted=%v, tasks.jsonl disagrees", e.InstanceID, e.Accepted)
		}
	}
}

// TestVerifyCacheOnExamples runs every Linux hit of the example corpus
// again and compares results (build --verify-cache): a step whose results
// depend on anything outside its key shows up here.
func TestVerifyCacheOnExamples(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	cacheDir := filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runOsbench(t, cacheDir, "--platform", "linux", "build", "--verify-cache", examples)
	if code != 0 || !strings.Contains(stdout, ", 0 gave other results") || strings.Contains(stderr, "NONDETERMINISTIC") {
		t.Fatalf("verify-cache: exit %d\n%s%s", code, stdout, stderr)
	}
	var n int
	if _, err := fmt.Sscanf(lastLine(stdout), "verify-cache: %d hits run again", &n); err != nil || n < 10 {
		t.Errorf("verify-cache reran %d hits (%v), want every Linux step of the examples", n, err)
	}
}
