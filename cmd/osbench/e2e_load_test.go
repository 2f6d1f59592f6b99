package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadNeverChangesTasks builds one example — pathsep: Go on Linux and
// Go under Wine — again on a cache with no records (only the shared tool
// caches) while 16 busy processes compete for the machine's cores, and
// compares its tasks.jsonl with the one the example corpus gave: byte for
// byte the same, or the loaded build failed loudly, every failure an
// infrastructure failure, and a rerun without the load completes it with
// the same tasks. Never a different task set. (The busy processes run at
// nice 10, so osbench keeps about a third of the CPU: a load average above
// 16 that make test can afford; make reliability's load section runs them
// at full priority.)
func TestLoadNeverChangesTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an example under load")
	}
	requireCorpus(t)
	dir := reachableTempDir(t)
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(examples, "pathsep.hcl")

	idleCache, idleOut := filepath.Join(dir, "idle-cache"), filepath.Join(dir, "idle-out")
	if err := copyCache(idleCache); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runOsbench(t, idleCache, "build", "--out", idleOut, manifest); code != 0 {
		t.Fatalf("idle build: exit %d\n%s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(idleOut, "tasks.jsonl"))
	if err != nil || len(bytes.TrimSpace(want)) == 0 {
		t.Fatalf("idle build gave no tasks: %v", err)
	}

	// A cache with no records, sharing only the tool caches: every step
	// of pathsep runs again, under load.
	loadCache, loadOut := filepath.Join(dir, "load-cache"), filepath.Join(dir, "load-out")
	if err := os.MkdirAll(loadCache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(loadCache, "state")); err != nil {
		t.Fatal(err)
	}
	stop := busy(t, 16)
	start := time.Now()
	_, stderr, code := runOsbench(t, loadCache, "--infra-backoff", "1s", "build", "--out", loadOut, manifest)
	loaded := time.Since(start)
	load := loadAverage()
	stop()
	t.Logf("loaded build: exit %d in %s, load average %s", code, loaded.Round(time.Second), load)
	if code != 0 {
		// Loud, and only the machine's: every failed step says so.
		infra := failedInfra(t, loadOut)
		for id, cause := range infra {
			if cause == "" {
				t.Fatalf("step %s failed under load, and not as infrastructure:\n%s", id, stderr)
			}
			t.Logf("under load: %s failed as infrastructure (%s)", id, cause)
		}
		// A rerun on the calmer machine completes what the load stopped.
		if _, stderr, code := runOsbench(t, loadCache, "build", "--out", loadOut, manifest); code != 0 {
			t.Fatalf("rerun after the load: exit %d\n%s", code, stderr)
		}
	}
	got, err := os.ReadFile(filepath.Join(loadOut, "tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("tasks.jsonl under load differs from the idle build's:\nidle:   %.600s\nloaded: %.600s", want, got)
	}
}

// busy starts n processes that spin at nice 10 and returns what stops them.
func busy(t *testing.T, n int) func() {
	t.Helper()
	var cmds []*exec.Cmd
	for i := 0; i < n; i++ {
		c := exec.Command("nice", "-n", "10", "sh", "-c", "while :; do :; done")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		for _, c := range cmds {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			c.Wait()
		}
	}
	t.Cleanup(stop)
	return stop
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// failedInfra maps each failed step of a build's build-steps.json to its
// infrastructure cause ("" for a failure of the code).
func failedInfra(t *testing.T, out string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "build-steps.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Steps []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Infra  string `json:"infra"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	failed := map[string]string{}
	for _, s := range rep.Steps {
		if s.Status == "failed" {
			failed[s.ID] = s.Infra
		}
	}
	return failed
}
