package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestHarnessTiny runs every section but the examples on a tiny
// configuration against a freshly built osbench, so the harness cannot rot:
// crash safety and sharing must hold (a shortfall is an osbench bug), the
// big-output log must be capped, and the escape counter must see its own
// planted process and every escapee start. How many escapees osbench leaves
// alive is printed, not asserted: that is the isolation work's figure.
func TestHarnessTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("builds osbench and runs it a few dozen times")
	}
	for _, tool := range []string{"go", "sh", "setsid", "yes", "head", "cp", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH", tool)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config{
		Root: root, Seed: 7, Jobs: 2, Repos: 1,
		BuildTrials: 2, GCTrials: 2, EvalTrials: 2,
		Concurrency: []int{2},
		OutputBytes: 16 << 20,
	}
	var log bytes.Buffer
	rep, err := run(cfg, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var out bytes.Buffer
	rep.print(&out)
	t.Logf("\n%s", out.String())

	if got := len(rep.Kills); got != 3 {
		t.Fatalf("%d kill series, want build, gc and eval", got)
	}
	for _, f := range rep.Kills {
		if f.Trials != 2 || f.Completed != f.Trials || f.Beyond != f.Trials || f.VerifyClean != f.Trials {
			t.Errorf("%s: %d trials, %d completed, %d identical beyond noise, %d verify-clean; want all: %v", f.Name, f.Trials, f.Completed, f.Beyond, f.VerifyClean, f.Problems)
		}
	}
	if len(rep.Concurrent) != 1 {
		t.Fatalf("%d concurrency rounds, want 1", len(rep.Concurrent))
	}
	if c := rep.Concurrent[0]; c.BuildsFailed+c.GCFailed+c.Corrupt+c.Dropped != 0 || c.Identical != c.Builds || c.GCRuns == 0 {
		t.Errorf("concurrent builds: %+v", c)
	}
	if b := rep.Big; b == nil || b.LogBytes == 0 || b.LogBytes >= b.OutputBytes || !b.Truncated {
		t.Errorf("big output: the log is not capped with a marker: %+v", b)
	}
	e := rep.Escapes
	if e == nil || e.ProbeCounted != e.ProbePlanted {
		t.Fatalf("escape counter self-check failed: %+v", e)
	}
	if len(e.Rows) != 2*len(escapeStyles) {
		t.Errorf("%d escape rows, want %d", len(e.Rows), 2*len(escapeStyles))
	}
	for _, row := range e.Rows {
		if row.Started != 1 {
			t.Errorf("%s/%s: %d escapees started, want 1 (the measure saw nothing to count)", row.Style, row.Ending, row.Started)
		}
	}
	if !strings.Contains(out.String(), "-seed 7") {
		t.Errorf("the report does not say how to rerun with its seed")
	}
}

func TestNormalizeBlanksWallClockOnly(t *testing.T) {
	tests := []struct {
		name, path, a, b string
		same             bool
	}{
		{"log durations", "runs/x/linux/test.log", "ok\n[osbench: exit 0, timed out false, 12ms]\n", "ok\n[osbench: exit 0, timed out false, 1.5s]\n", true},
		{"build log durations", "x.log", "[osbench: build exit 2, timed out true, 3m0s]", "[osbench: build exit 2, timed out true, 1ms]", true},
		{"log exit differs", "x.log", "[osbench: exit 0, timed out false, 1ms]", "[osbench: exit 1, timed out false, 1ms]", false},
		{"log text differs", "x.log", "a\n", "b\n", false},
		{"build-steps durations and run", "build-steps.json", `{"run":"a","steps":[{"id":"s","duration_ns":1}],"duration_ns":5}`, `{"run":"b","steps":[{"id":"s","duration_ns":2}],"duration_ns":6}`, true},
		{"build-steps a hit's run duration", "build-steps.json", `{"steps":[{"id":"s","status":"hit","run_duration_ns":7}]}`, `{"steps":[{"id":"s","status":"hit","run_duration_ns":9}]}`, true},
		{"build-steps retries", "build-steps.json", `{"steps":[{"id":"s","status":"ran","retries":[{"attempt":1,"cause":"x"}]}]}`, `{"steps":[{"id":"s","status":"ran"}]}`, true},
		{"build-steps infra failure", "build-steps.json", `{"steps":[{"id":"s","status":"failed","infra":"x"}]}`, `{"steps":[{"id":"s","status":"ran"}]}`, false},
		{"compile phase durations", "x.log", "[osbench: compile phase exit 0, timed out false, 3s]", "[osbench: compile phase exit 0, timed out false, 1m2s]", true},
		{"build-steps status", "build-steps.json", `{"steps":[{"id":"s","status":"ran"}]}`, `{"steps":[{"id":"s","status":"failed"}]}`, false},
		{"build-steps ran or served", "build-steps.json", `{"steps":[{"id":"s","status":"ran","reason":"no previous run","key":"k"}]}`, `{"steps":[{"id":"s","status":"hit","key":"k"}]}`, true},
		{"build-steps output digest", "build-steps.json", `{"steps":[{"id":"s","output_digest":"a"}]}`, `{"steps":[{"id":"s","output_digest":"b"}]}`, false},
		{"report log digest", "m/i/report.json", `{"stage_i":{"passed":true,"log":{"path":"logs/linux.log","digest":"sha256:aa"}}}`, `{"stage_i":{"passed":true,"log":{"path":"logs/linux.log","digest":"sha256:bb"}}}`, true},
		{"report verdict", "m/i/report.json", `{"stage_i":{"passed":true}}`, `{"stage_i":{"passed":false}}`, false},
		{"report other digest", "m/i/report.json", `{"patch":{"path":"p.diff","digest":"sha256:aa"}}`, `{"patch":{"path":"p.diff","digest":"sha256:bb"}}`, false},
		{"other file durations count", "tasks.jsonl", `{"duration_ns":1}`, `{"duration_ns":2}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same := bytes.Equal(normalize(tt.path, []byte(tt.a)), normalize(tt.path, []byte(tt.b)))
			if same != tt.same {
				t.Errorf("normalized equal = %v, want %v", same, tt.same)
			}
		})
	}
}

func TestDiffPaths(t *testing.T) {
	a := map[string][]byte{"same": []byte("x"), "changed": []byte("1"), "only-a": nil}
	b := map[string][]byte{"same": []byte("x"), "changed": []byte("2"), "only-b": nil}
	got := diffPaths(a, b)
	want := []string{"changed", "only-a", "only-b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diffPaths = %v, want %v", got, want)
	}
	if extra := beyond(got, pathSet([]string{"changed"})); !reflect.DeepEqual(extra, []string{"only-a", "only-b"}) {
		t.Errorf("beyond = %v", extra)
	}
}

// TestReachableNeverWidensAbove: the state dir and what lies between it
// and the scratch dir are opened to the test user; a private directory
// above them stays private and is reported.
func TestReachableNeverWidensAbove(t *testing.T) {
	root := t.TempDir()
	private := filepath.Join(root, "home")
	scratch := filepath.Join(root, "scratch")
	inside := filepath.Join(scratch, "a", "state")
	outside := filepath.Join(private, "mine", "state")
	for _, d := range []string{inside, outside} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{root, scratch, filepath.Join(scratch, "a"), inside, private, filepath.Join(private, "mine"), outside} {
		os.Chmod(d, 0o700)
	}
	os.Chmod(filepath.Dir(root), 0o755) // the test's own dirs, like /tmp for a real run
	os.Chmod(root, 0o755)
	if err := reachable(inside, scratch); err != nil {
		t.Fatalf("inside the scratch dir: %v", err)
	}
	for _, d := range []string{scratch, filepath.Join(scratch, "a"), inside} {
		if fi, _ := os.Stat(d); fi.Mode().Perm()&0o005 != 0o005 {
			t.Errorf("%s not opened: %v", d, fi.Mode().Perm())
		}
	}
	if err := reachable(outside, scratch); err == nil {
		t.Error("a private directory above the state dir was not reported")
	}
	for _, d := range []string{private, filepath.Join(private, "mine")} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s widened to %v", d, fi.Mode().Perm())
		}
	}
}

// TestCorpusLoadTally: the corpus-load section counts what --verify-cache
// said of each step, names the differing reruns (results apart from raw
// coverage alone), the failed reruns and the steps that failed again, and
// fails on a difference in results or on a step that ran with all its
// inputs (the cache lacked the build); one downstream of a failure runs
// again every time, and is listed with the failures.
func TestCorpusLoadTally(t *testing.T) {
	steps := map[string]buildStep{
		"a/linux/test":   {ID: "a/linux/test", Status: "hit", Verify: "same"},
		"a/windows/test": {ID: "a/windows/test", Status: "hit", Verify: "rerun failed: the machine: CPU starvation"},
		"a/checkout":     {ID: "a/checkout", Status: "hit"},
		"b/linux/test#2": {ID: "b/linux/test#2", Status: "hit", Verify: "differs: tests.json (cached 1a2b, rerun 3c4d)"},
		"b/windows/test": {ID: "b/windows/test", Status: "hit", Verify: "same"},
		"c/linux/test#3": {ID: "c/linux/test#3", Status: "hit", Verify: "differs: coverage.raw (cached 5e6f, rerun 7a8b)"},
		"d/linux/test":   {ID: "d/linux/test", Status: "failed"},
		"tasks":          {ID: "tasks", Status: "ran", Reason: "ran with absent inputs; not cached"},
	}
	var f corpusLoadFigures
	f.tally(steps)
	if f.Steps != 8 || f.Verified != 5 || f.Same != 2 || f.Missed != 0 {
		t.Errorf("tally = %+v, want 8 steps, 5 verified, 2 the same, none missed", f)
	}
	if want := []string{"c/linux/test#3: coverage.raw (cached 5e6f, rerun 7a8b)"}; !slices.Equal(f.CoverageOnly, want) {
		t.Errorf("raw coverage only %q, want %q", f.CoverageOnly, want)
	}
	if want := []string{"d/linux/test failed", "tasks ran with a failed input"}; !slices.Equal(f.Failed, want) {
		t.Errorf("failed again %q, want %q", f.Failed, want)
	}
	if want := []string{"b/linux/test#2: tests.json (cached 1a2b, rerun 3c4d)"}; !slices.Equal(f.Differs, want) {
		t.Errorf("differs %q, want %q", f.Differs, want)
	}
	if want := []string{"a/windows/test: rerun failed: the machine: CPU starvation"}; !slices.Equal(f.RerunFailed, want) {
		t.Errorf("rerun failed %q, want %q", f.RerunFailed, want)
	}
	if !f.failed() {
		t.Error("a differing step does not fail the section")
	}
	delete(steps, "b/linux/test#2")
	f = corpusLoadFigures{}
	f.tally(steps)
	if f.failed() {
		t.Errorf("no difference in results, every step a hit or a failure again: the section fails: %+v", f)
	}
	steps["c/linux/test"] = buildStep{ID: "c/linux/test", Status: "ran"}
	f = corpusLoadFigures{}
	f.tally(steps)
	if !f.failed() || f.Missed != 1 {
		t.Errorf("a step that ran (not a hit) does not fail the section: %+v", f)
	}
}
