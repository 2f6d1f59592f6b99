package main

// A client that cannot fingerprint a platform itself (a Linux client of
// real Windows workers) keys that platform's steps with the facts its
// workers publish. Here the client's PATH has no Wine and no mingw-w64,
// so it cannot compute the windows platform's executor (Wine version) or
// tools (the cross compiler's) fingerprints; a real `osbench worker
// --platform windows` (wine executor) can, and a real Temporal dev server
// carries them. No real Windows machine is involved: the same route is
// what a Linux client of `executor = "local"` Windows workers takes.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// factsExamples are the examples the test builds: a Go repository whose
// windows steps the worker runs again, and a C one, whose toolchain step
// is keyed by the tools' fingerprint (mingw-w64, Wine, cmake).
var factsExamples = []string{"pathsep", "cpath"}

func TestTemporalClientTakesWindowsFactsFromWorkers(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	all := filepath.Join(dir, "all")
	if err := copyExamples(all); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(dir, "examples")
	os.MkdirAll(examples, 0o755)
	for _, name := range factsExamples {
		if err := os.Rename(filepath.Join(all, name+".hcl"), filepath.Join(examples, name+".hcl")); err != nil {
			t.Fatal(err)
		}
	}
	// The local run, with this machine's Wine: the keys to match.
	localCache := filepath.Join(dir, "local-cache")
	if err := copyCache(localCache); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runOsbench(t, localCache, "--platform", "windows", "plan", "--json", examples)
	if code != 0 {
		t.Fatalf("local plan: exit %d\n%s%s", code, stdout, stderr)
	}
	localPlan := planKeys(t, stdout)
	localOut := filepath.Join(dir, "local-out")
	if stdout, stderr, code := runOsbench(t, localCache, "--platform", "windows", "build", examples, "--out", localOut); code != 0 {
		t.Fatalf("local build: exit %d\n%s%s", code, stdout, stderr)
	}

	c := newTemporalCluster(t)
	worker := c.startWorkerOver("worker-windows", "windows", c.seededCache("worker-cache", []string{"pathsep"}))
	noWine := pathWithout(t, dir, "wine", "x86_64-w64-mingw32-gcc")

	// Told to fingerprint windows itself, the client cannot: no Wine here.
	clientCache := filepath.Join(dir, "client-cache")
	if err := copyCache(clientCache); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runOsbenchEnv(t, noWine, clientCache, append(c.flags(), "--platform", "windows", "--fingerprints-from", "windows=client", "plan", "--json", examples)...)
	if code == 0 || !strings.Contains(stderr, `executor "wine"`) {
		t.Fatalf("a client without Wine keyed windows steps itself (exit %d):\n%s", code, stderr)
	}

	// From the worker's facts: the same keys as the local run's, so the
	// plan says hit for every step (the records are the local corpus's).
	start := time.Now()
	stdout, stderr, code = runOsbenchEnv(t, noWine, clientCache, append(c.flags(), "--platform", "windows", "--fingerprints-from", "windows=workers", "plan", "--json", examples)...)
	if code != 0 {
		t.Fatalf("plan with the workers' facts: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Logf("plan with the workers' facts: %s", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(stderr, "keying the platform's steps with its workers' facts") || !strings.Contains(stderr, "from worker windows-") {
		t.Errorf("the client does not say whose facts it keyed with:\n%s", stderr)
	}
	clientPlan := planKeys(t, stdout)
	if len(clientPlan) == 0 || len(clientPlan) != len(localPlan) {
		t.Fatalf("client plan has %d steps, local %d", len(clientPlan), len(localPlan))
	}
	tools := 0
	for id, key := range localPlan {
		if clientPlan[id] != key {
			t.Errorf("%s: key %s with the workers' facts, %s locally", id, clientPlan[id], key)
		}
		if strings.HasPrefix(id, "cpath/") && strings.HasSuffix(id, "/toolchain") {
			tools++
		}
	}
	if tools == 0 {
		t.Errorf("no C toolchain step compared (keyed by the tools' facts)")
	}

	// A build through the worker from an empty client cache: the
	// pathsep steps run there, cpath's are served from its cache, and the
	// results are the local run's.
	out := filepath.Join(dir, "temporal-out")
	stdout, stderr, code = runOsbenchEnv(t, noWine, c.freshCache("fresh-client"), append(c.flags(), "--platform", "windows", "--fingerprints-from", "windows=workers", "build", examples, "--out", out)...)
	if code != 0 {
		t.Fatalf("build with the workers' facts: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, name := range factsExamples {
		sameFile(t, filepath.Join(localOut, "runs", name, "windows", "tests.json"), filepath.Join(out, "runs", name, "windows", "tests.json"))
	}
	if ran := worker.events("step done", "pathsep/windows/test"); len(ran) == 0 || ran[0].Served {
		t.Errorf("the worker did not run pathsep/windows/test: %+v", ran)
	}

	// No worker of a platform and executor: the client says so and whom
	// to start, instead of keying with facts it does not have.
	_, stderr, code = runOsbenchEnv(t, noWine, clientCache, append(c.flags(), "--platform", "linux", "--fingerprints-from", "linux=workers", "--temporal-no-worker-timeout", "2s", "plan", examples)...)
	if code == 0 || !strings.Contains(stderr, "no live osbench worker for platform linux with executor local") {
		t.Errorf("plan without a linux worker: exit %d\n%s", code, stderr)
	}
	// Real Windows workers are where a Linux client's windows steps with
	// executor local go: it asks them by default, and none is here.
	_, stderr, code = runOsbenchEnv(t, noWine, clientCache, append(c.flags(), "--platform", "windows", "--executor", "windows=local", "--temporal-no-worker-timeout", "2s", "plan", examples)...)
	if code == 0 || !strings.Contains(stderr, "no live osbench worker for platform windows with executor local") {
		t.Errorf("plan of windows=local without a real Windows worker: exit %d\n%s", code, stderr)
	}

	// A second windows worker with another cmake: the two serve other
	// toolchain queues, so no key reaches both; the client names them.
	// (Commands find their tools on the directory of go first, then the
	// system's: toolenv.HostPath.)
	fake := filepath.Join(dir, "other-cmake")
	os.MkdirAll(fake, 0o755)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(goBin, filepath.Join(fake, "go")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "cmake"), []byte("#!/bin/sh\necho 'cmake version 3.99.0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.startWorkerWith("worker-windows-other", "windows", c.freshCache("other-cache"), []string{"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH")})
	_, stderr, code = runOsbenchEnv(t, noWine, clientCache, append(c.flags(), "--platform", "windows", "--fingerprints-from", "windows=workers", "plan", examples)...)
	if code == 0 || !strings.Contains(stderr, "the 2 live windows workers with executor wine disagree on their facts") || strings.Count(stderr, " serves osbench-windows-") != 2 || !strings.Contains(stderr, "(why: above)") {
		t.Errorf("plan over two windows workers with other tools: exit %d\n%s", code, stderr)
	}
}

// planKeys maps each step of a plan --json to its key.
func planKeys(t *testing.T, out string) map[string]string {
	t.Helper()
	var p planJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("plan --json: %v\n%s", err, out)
	}
	keys := map[string]string{}
	for _, s := range p.Steps {
		if s.Key == "" {
			t.Errorf("%s has no key in the plan (status %s)", s.ID, s.Status)
		}
		keys[s.ID] = s.Key
	}
	return keys
}

// pathWithout is a PATH holding this one's commands but the named ones,
// each command a symbolic link in a directory of its own.
func pathWithout(t *testing.T, dir string, without ...string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin-without")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	drop := map[string]bool{}
	for _, w := range without {
		drop[w] = true
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			name := e.Name()
			if drop[name] || strings.HasPrefix(name, "wine") || strings.HasPrefix(name, "x86_64-w64-mingw32-") {
				continue
			}
			if _, err := os.Lstat(filepath.Join(bin, name)); err == nil {
				continue // the first on PATH wins, as for a lookup
			}
			os.Symlink(filepath.Join(d, name), filepath.Join(bin, name))
		}
	}
	for _, w := range without {
		if p, err := lookPathIn(w, bin); err == nil {
			t.Fatalf("%s is still on the reduced PATH: %s", w, p)
		}
	}
	return bin
}

func lookPathIn(name, path string) (string, error) {
	cmd := exec.Command("sh", "-c", "command -v "+name)
	cmd.Env = []string{"PATH=" + path}
	out, err := cmd.Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return "", os.ErrNotExist
	}
	return string(bytes.TrimSpace(out)), nil
}

// runOsbenchEnv is runOsbench with PATH set to path.
func runOsbenchEnv(t testing.TB, path, cacheDir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(osbenchBin, append([]string{"--cache-dir", cacheDir}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "PATH="+path)
	return runOsbenchCmd(t, cmd)
}
