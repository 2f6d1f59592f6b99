package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// logKind writes config "say" and the how-manieth run of its step this is
// to its log "run.log", then fails when "fail" is set and this is the step's
// first run — the way a test step logs a command's output and then finds it
// reported nothing, and then, rerun under the same key, passes. Its result
// is the constant "done", so runs with other logs have the same output
// digest.
type logKind struct {
	mu   sync.Mutex
	runs map[string]int
}

func (*logKind) Name() string    { return "test.log" }
func (*logKind) Version() string { return "1" }
func (k *logKind) Run(ctx context.Context, rc *RunContext) error {
	var cfg struct {
		Say  string `json:"say"`
		Fail bool   `json:"fail"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	// Counted per cache (the work dir is <cache>/work/<step>-*), so that
	// tests and repeated test runs do not share counts.
	id := filepath.Dir(filepath.Dir(rc.WorkDir)) + " " + rc.Step.ID
	k.mu.Lock()
	k.runs[id]++
	n := k.runs[id]
	k.mu.Unlock()
	w, err := rc.SideWriter("run.log")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s (run %d)\n", cfg.Say, n)
	if err := w.Close(); err != nil {
		return err
	}
	if cfg.Fail && n == 1 {
		return errors.New("the command reported nothing")
	}
	return rc.PutBytes("text", []byte("done"))
}

func init() { RegisterKind(&logKind{runs: map[string]int{}}) }

func logStep(id, say string, fail bool) *Step {
	return &Step{ID: id, Kind: "test.log", Group: "g",
		Config:  []Field{{Name: "say", Value: say}, {Name: "fail", Value: fail}},
		Exports: []Export{{Output: "run.log", Path: id + "/run.log", Side: true}, {Output: "text", Path: id + "/text"}}}
}

func sideText(t *testing.T, e *Engine, r StepRun) string {
	t.Helper()
	if len(r.Side) != 1 || r.Side[0].Name != "run.log" {
		t.Fatalf("run %s side = %+v, want one run.log", r.Run, r.Side)
	}
	b, err := e.SideLogBytes(r.Side[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A failed run keeps its log; every run keeps its own, newest first, even
// after the same key ran again and replaced the failed record; the out dir
// gets the failed run's log too.
func TestStepRunsKeepEachRunsLog(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	s := logStep("r/linux/test", "FAIL TestX", true)
	wantStatuses(t, build(t, e, s), map[string]Status{s.ID: StatusFailed})
	exported, err := os.ReadFile(filepath.Join(dir, "out", s.ID, "run.log"))
	if err != nil || string(exported) != "FAIL TestX (run 1)\n" {
		t.Errorf("failed run's exported log = %q, %v", exported, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", s.ID, "text")); err == nil {
		t.Errorf("a failed run exported a result")
	}
	wantStatuses(t, build(t, e, s), map[string]Status{s.ID: StatusRan}) // same key, passes now
	wantStatuses(t, build(t, e, s), map[string]Status{s.ID: StatusHit})
	exported, _ = os.ReadFile(filepath.Join(dir, "out", s.ID, "run.log"))
	if string(exported) != "FAIL TestX (run 2)\n" {
		t.Errorf("exported log after the passing run = %q", exported)
	}

	runs := e.StepRuns("r/linux/test")
	if len(runs) != 2 {
		t.Fatalf("%d runs recorded, want 2 (a hit is not a run): %+v", len(runs), runs)
	}
	if runs[0].Key != runs[1].Key {
		t.Fatalf("the two runs have different keys; the test wants one key run twice")
	}
	if runs[0].Status != StatusRan || sideText(t, e, runs[0]) != "FAIL TestX (run 2)\n" {
		t.Errorf("latest run = %+v", runs[0])
	}
	if runs[1].Status != StatusFailed || !strings.Contains(runs[1].Error, "reported nothing") || sideText(t, e, runs[1]) != "FAIL TestX (run 1)\n" {
		t.Errorf("older run = %+v", runs[1])
	}
	for which, want := range map[string]string{"": runs[0].Run, "1": runs[0].Run, "2": runs[1].Run, runs[1].Run: runs[1].Run} {
		got, err := SelectRun(runs, which)
		if err != nil || got.Run != want {
			t.Errorf("SelectRun(%q) = %s, %v; want %s", which, got.Run, err, want)
		}
	}
	for _, bad := range []string{"0", "3", "no-such-run"} {
		if _, err := SelectRun(runs, bad); err == nil {
			t.Errorf("SelectRun(%q) found a run", bad)
		}
	}
}

// A log blob removed from the cache is reported as gone, and the step it
// belongs to is no longer a hit: the next build reruns it and keeps a new
// log, while its result, unchanged, stops invalidation below it.
func TestLogGoneRerunsStep(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	s := logStep("gone/linux/test", "hello", false)
	build(t, e, s)
	run := e.StepRuns(s.ID)[0]
	d := run.Side[0].Digest
	if err := os.Remove(filepath.Join(dir, "cas", string(d[:2]), string(d))); err != nil {
		t.Fatal(err)
	}
	run = e.StepRuns(s.ID)[0]
	if run.Side[0].Present {
		t.Errorf("removed log reported present")
	}
	if _, err := e.SideLogBytes(run.Side[0]); !errors.Is(err, ErrLogGone) {
		t.Errorf("reading a removed log: %v, want ErrLogGone", err)
	}
	rep := build(t, e, s)
	wantStatuses(t, rep, map[string]Status{s.ID: StatusRan})
	if got := sideText(t, e, e.StepRuns(s.ID)[0]); got != "hello (run 2)\n" {
		t.Errorf("log after the rerun = %q", got)
	}
}

func TestResolveStep(t *testing.T) {
	e := newEngine(t, t.TempDir())
	build(t, e,
		logStep("pathsep/linux/test", "a", false), logStep("pathsep/linux/test#2", "b", false),
		logStep("pathsep/windows/test", "c", false), logStep("cwrap/linux/coverage", "d", false))
	tests := []struct {
		query, want string
		candidates  []string // when ambiguous
	}{
		{query: "pathsep/linux/test", want: "pathsep/linux/test"}, // exact, though a prefix of #2
		{query: "cwrap", want: "cwrap/linux/coverage"},            // unique prefix
		{query: "windows", want: "pathsep/windows/test"},          // unique substring
		{query: "pathsep/", candidates: []string{"pathsep/linux/test", "pathsep/linux/test#2", "pathsep/windows/test"}},
		{query: "/test", candidates: []string{"pathsep/linux/test", "pathsep/linux/test#2", "pathsep/windows/test"}},
		{query: "*/linux/*", candidates: []string{"cwrap/linux/coverage", "pathsep/linux/test", "pathsep/linux/test#2"}},
		{query: "pathsep/*", candidates: []string{"pathsep/linux/test", "pathsep/linux/test#2", "pathsep/windows/test"}},
		{query: "pathsep/linux/test#?", candidates: []string{"pathsep/linux/test#2"}}, // a glob never picks
		{query: "nothing-like-it", candidates: nil},
	}
	for _, tt := range tests {
		got, err := e.ResolveStep(tt.query)
		if tt.want != "" {
			if err != nil || got != tt.want {
				t.Errorf("ResolveStep(%q) = %q, %v; want %q", tt.query, got, err, tt.want)
			}
			continue
		}
		var amb *AmbiguousStepError
		if !errors.As(err, &amb) {
			t.Errorf("ResolveStep(%q) = %q, %v; want an ambiguity", tt.query, got, err)
			continue
		}
		if strings.Join(amb.Candidates, ",") != strings.Join(tt.candidates, ",") {
			t.Errorf("ResolveStep(%q) candidates = %q, want %q", tt.query, amb.Candidates, tt.candidates)
		}
	}
}
