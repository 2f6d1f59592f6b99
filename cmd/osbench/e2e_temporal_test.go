package main

// Distribution through Temporal, end to end: a real development server on
// loopback, real `osbench worker` processes (linux with the local executor,
// windows with wine), blobs exchanged through a real remote cache (nginx),
// and each process with a cache of its own. The tests drive the process
// lifecycle (start, SIGKILL mid-step) from Go, which a script cannot do
// precisely.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
	"github.com/osbench/osbench/plugins/executors/temporal/temporaltest"
)

// temporalCluster is a dev server, a store and the workers of one test.
type temporalCluster struct {
	t        *testing.T
	dir      string
	hostPort string
	remote   string // the remote cache's URL
	workers  []*workerProc
}

type workerProc struct {
	name, log string
	cache     string
	cmd       *exec.Cmd
	done      chan struct{}
}

func newTemporalCluster(t *testing.T) *temporalCluster {
	srv := temporaltest.Start(t)
	remote := nginxtest.Start(t, nginxtest.Options{})
	return &temporalCluster{t: t, dir: reachableTempDir(t), hostPort: srv.HostPort, remote: remote.URL}
}

// freshCache is an empty cache sharing only the corpus's tool caches
// (GOCACHE, module cache, Wine prefixes) under state/.
func (c *temporalCluster) freshCache(name string) string {
	dir := filepath.Join(c.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(dir, "state")); err != nil {
		c.t.Fatal(err)
	}
	return dir
}

func (c *temporalCluster) flags() []string {
	return []string{"--temporal", c.hostPort, "--remote-cache", c.remote, "--temporal-heartbeat", "5s"}
}

// seededCache is a cache holding the corpus's records, blobs and history
// except the records of the steps of the repositories in rerun (and of
// every evaluation step), which a worker over it runs again.
func (c *temporalCluster) seededCache(name string, rerun []string) string {
	dir := filepath.Join(c.dir, name)
	if err := copyCache(dir); err != nil {
		c.t.Fatal(err)
	}
	forget := map[string]bool{}
	for _, r := range rerun {
		forget[r] = true
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "ac", "*", "*"))
	n := 0
	for _, p := range recs {
		b, err := os.ReadFile(p)
		if err != nil {
			c.t.Fatal(err)
		}
		var rec struct {
			Step string `json:"step"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			c.t.Fatalf("%s: %v", p, err)
		}
		group, _, _ := strings.Cut(rec.Step, "/")
		if forget[group] || group == "eval" {
			if err := os.Remove(p); err != nil {
				c.t.Fatal(err)
			}
			n++
		}
	}
	if len(rerun) > 0 && n == 0 {
		c.t.Fatalf("the corpus cache has no record of %v", rerun)
	}
	return dir
}

// startWorker starts `osbench worker` with a cache of its own.
func (c *temporalCluster) startWorker(name, platform string) *workerProc {
	return c.startWorkerOver(name, platform, c.freshCache(name))
}

// startWorkerOver starts `osbench worker` over the cache directory dir
// (which other workers may share).
func (c *temporalCluster) startWorkerOver(name, platform, dir string) *workerProc {
	return c.startWorkerWith(name, platform, dir, nil)
}

// startWorkerWith is startWorkerOver with env added to the worker's
// environment (a later entry wins).
func (c *temporalCluster) startWorkerWith(name, platform, dir string, env []string) *workerProc {
	w := &workerProc{name: name, log: filepath.Join(c.dir, name+".log"), done: make(chan struct{}), cache: dir}
	logf, err := os.Create(w.log)
	if err != nil {
		c.t.Fatal(err)
	}
	args := append([]string{"--cache-dir", w.cache, "--log-format", "json", "-j", "2", "--platform", platform}, c.flags()...)
	w.cmd = exec.Command(osbenchBin, append(args, "worker")...)
	if env != nil {
		w.cmd.Env = append(os.Environ(), env...)
	}
	w.cmd.Stdout, w.cmd.Stderr = logf, logf
	if err := w.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	logf.Close()
	go func() { w.cmd.Wait(); close(w.done) }()
	c.t.Cleanup(func() {
		w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.done:
		case <-time.After(20 * time.Second):
			w.cmd.Process.Kill()
			<-w.done
		}
	})
	c.workers = append(c.workers, w)
	// Ready once it polls every queue of its fingerprints.
	deadline := time.Now().Add(2 * time.Minute)
	for len(w.events("worker polling", "")) == 0 {
		select {
		case <-w.done:
			b, _ := os.ReadFile(w.log)
			c.t.Fatalf("worker %s exited:\n%s", name, b)
		default:
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(w.log)
			c.t.Fatalf("worker %s did not start polling:\n%s", name, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return w
}

// workerEvent is one JSON log line of a worker.
type workerEvent struct {
	Message string `json:"message"`
	Step    string `json:"step"`
	Attempt int    `json:"attempt"`
	Label   string `json:"label"`
	Served  bool   `json:"served"` // from the worker's cache, not run
}

// events lists the worker's log lines with message msg (and step, if set).
func (w *workerProc) events(msg, step string) []workerEvent {
	f, err := os.Open(w.log)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []workerEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev workerEvent
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Message == msg && (step == "" || ev.Step == step) {
			out = append(out, ev)
		}
	}
	return out
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("%s and %s differ:\n%s\n---\n%s", a, b, x, y)
	}
}

// temporalRerun are the examples whose steps the workers run again in
// TestTemporalBuildAndEvalMatchLocal: one Go and one C repository, each on
// both platforms (Wine for Windows), both directions. The workers serve the
// other examples' steps from a cache seeded with the corpus's records —
// still routed by queue (every language's tools on each platform), keyed
// again by the worker, and moved through the remote cache into an empty
// client cache — so every example goes through Temporal at the cost of
// two. OSBENCH_TEMPORAL_FULL=1 (make e2e-temporal-full) gives the workers
// empty caches: every step of every example runs on them.
//
// Measured on the 2-core machine, the corpus already built: this test
// 71 s (load ~5; 1m44s for the build through Temporal at load ~30); with
// OSBENCH_TEMPORAL_FULL=1, 360 s (the build through Temporal 5m17s, load
// 20–29).
var temporalRerun = []string{"pathsep", "cpath"}

func TestTemporalBuildAndEvalMatchLocal(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	full := os.Getenv("OSBENCH_TEMPORAL_FULL") == "1"
	// The local run: the corpus's records, so every step is a hit of the
	// in-process build of TestMain.
	localCache := filepath.Join(dir, "local-cache")
	if err := copyCache(localCache); err != nil {
		t.Fatal(err)
	}
	localOut := filepath.Join(dir, "local-out")
	if stdout, stderr, code := runOsbench(t, localCache, "build", examples, "--out", localOut); code != 0 {
		t.Fatalf("local build: exit %d\n%s%s", code, stdout, stderr)
	}
	// Beside gold and empty (whose runs the build made), an agent's patch:
	// the gold patch plus a comment, a tree no build ran, so its Stage I
	// and II run — through Temporal, on the workers.
	const task = "pathsep__linux-to-windows"
	agent := agentPatch(t, filepath.Join(localOut, "tasks", task, "repo"), func(repo string) {
		cmd := exec.Command("git", "-C", repo, "apply")
		cmd.Stdin = strings.NewReader(goldPatch(t, filepath.Join(localOut, "tasks.jsonl"), task))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gold patch: %v\n%s", err, out)
		}
		f, err := os.OpenFile(filepath.Join(repo, "compare.go"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\n// An agent's note.\n")
		f.Close()
	})
	preds := filepath.Join(dir, "agent.jsonl")
	writePredictions(t, preds, [3]string{task, "agent", agent})
	evalArgs := func(out string) []string {
		return []string{"eval", "--tasks", filepath.Join(out, "tasks.jsonl"), "--predictions", "gold", "--predictions", "empty", "--predictions", preds, "--out", filepath.Join(out, "eval")}
	}
	if stdout, stderr, code := runOsbench(t, localCache, evalArgs(localOut)...); code != 0 {
		t.Fatalf("local eval: exit %d\n%s%s", code, stdout, stderr)
	}

	// Through Temporal: a fresh client cache, so every step that runs
	// commands runs on a worker.
	c := newTemporalCluster(t)
	var linux, windows *workerProc
	if full {
		linux = c.startWorker("worker-linux", "linux")
		windows = c.startWorker("worker-windows", "windows")
	} else {
		seeded := c.seededCache("worker-cache", temporalRerun)
		linux = c.startWorkerOver("worker-linux", "linux", seeded)
		windows = c.startWorkerOver("worker-windows", "windows", seeded)
	}
	clientCache := c.freshCache("client-cache")
	out := filepath.Join(dir, "temporal-out")
	start := time.Now()
	stdout, stderr, code := runOsbench(t, clientCache, append(c.flags(), "build", examples, "--out", out)...)
	if code != 0 {
		t.Fatalf("build through temporal: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Logf("build through temporal: %s in %s", lastLine(stdout), time.Since(start).Round(time.Second))
	sameFile(t, filepath.Join(localOut, "tasks.jsonl"), filepath.Join(out, "tasks.jsonl"))
	for _, w := range []*workerProc{linux, windows} {
		ran := w.events("step done", "")
		if len(ran) == 0 {
			t.Errorf("%s ran no step", w.name)
		}
		platform := strings.TrimPrefix(w.name, "worker-")
		// Every example passed through the workers, and the reruns ran.
		examplesSeen, rerun := map[string]bool{}, map[string]bool{}
		for _, ev := range ran {
			group, _, _ := strings.Cut(ev.Step, "/")
			examplesSeen[group] = true
			if !ev.Served && strings.HasSuffix(ev.Step, "/"+platform+"/test") {
				rerun[group] = true
			}
		}
		names, _ := filepath.Glob(filepath.Join(examples, "*.hcl"))
		for _, n := range names {
			name := strings.TrimSuffix(filepath.Base(n), ".hcl")
			if !examplesSeen[name] {
				t.Errorf("%s was sent no step of %s", w.name, name)
			}
		}
		for _, name := range temporalRerun {
			if !rerun[name] {
				t.Errorf("%s did not run %s's %s test step (it should not be in its cache)", w.name, name, platform)
			}
		}
		for _, ev := range ran {
			// A platform's runs, and the masking of a direction into it
			// (which builds the masked tree on the target).
			if !strings.Contains(ev.Step, "/"+platform+"/") && !strings.Contains(ev.Step, "-to-"+platform+"/") {
				t.Errorf("%s ran %s, a step of another platform", w.name, ev.Step)
			}
		}
	}
	start = time.Now()
	stdout, stderr, code = runOsbench(t, clientCache, append(c.flags(), evalArgs(out)...)...)
	if code != 0 {
		t.Fatalf("eval through temporal: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Logf("eval through temporal: %s in %s", lastLine(stdout), time.Since(start).Round(time.Second))
	sameFile(t, filepath.Join(localOut, "eval", "summary.json"), filepath.Join(out, "eval", "summary.json"))
	for _, w := range []*workerProc{linux, windows} {
		if !ranEvalStep(w) {
			t.Errorf("%s ran no step of the agent's evaluation", w.name)
		}
	}
}

func TestTemporalWorkerKilledMidStep(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	manifests := freshManifest(t, filepath.Join(dir, "m"), "pathsep", "pathsep")
	localCache := filepath.Join(dir, "local-cache")
	if err := copyCache(localCache); err != nil {
		t.Fatal(err)
	}
	localOut := filepath.Join(dir, "local-out")
	if stdout, stderr, code := runOsbench(t, localCache, "--platform", "linux", "build", manifests, "--out", localOut); code != 0 {
		t.Fatalf("local build: exit %d\n%s%s", code, stdout, stderr)
	}

	c := newTemporalCluster(t)
	a := c.startWorker("worker-a", "linux")
	b := c.startWorker("worker-b", "linux")
	out := filepath.Join(dir, "temporal-out")
	build := exec.Command(osbenchBin, append(append([]string{"--cache-dir", c.freshCache("client-cache"), "--platform", "linux"}, c.flags()...), "build", manifests, "--out", out)...)
	var bout bytes.Buffer
	build.Stdout, build.Stderr = &bout, &bout
	if err := build.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill whichever worker starts the test run, while it runs. The test
	// step and the gold re-run have one key here (pathsep's Linux timeout
	// is the eval timeout), so single flight dispatches whichever comes
	// first and serves the other from it.
	var step string
	var victim, other *workerProc
	deadline := time.Now().Add(5 * time.Minute)
	for victim == nil {
		for _, id := range []string{"pathsep/linux/test", "pathsep/linux/gold-rerun"} {
			if len(a.events("running step", id)) > 0 {
				victim, other, step = a, b, id
			} else if len(b.events("running step", id)) > 0 {
				victim, other, step = b, a, id
			}
			if victim != nil {
				break
			}
		}
		if victim == nil && time.Now().After(deadline) {
			build.Process.Kill()
			t.Fatalf("no worker started pathsep's Linux test run\n%s", bout.String())
		}
		if victim == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Killed at once: with warm caches the run takes about a second.
	if len(victim.events("step done", step)) > 0 {
		t.Fatalf("%s finished %s before it could be killed", victim.name, step)
	}
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// On a real cluster the machine is gone; here the dead worker's
	// commands live on (they were in process groups of their own) and
	// would write into its cache while the test removes it.
	defer killProcessesUnder(t, victim.cache)
	if err := build.Wait(); err != nil {
		t.Fatalf("build after a worker died: %v\n%s", err, bout.String())
	}
	// The other worker ran it again, as a retry of the same activity.
	retried := other.events("step done", step)
	if len(retried) == 0 {
		t.Fatalf("%s never ran %s after %s died\n%s", other.name, step, victim.name, bout.String())
	}
	if attempts := other.events("running step", step); attempts[len(attempts)-1].Attempt < 2 {
		t.Errorf("%s ran %s as attempt %d, want a retry", other.name, step, attempts[len(attempts)-1].Attempt)
	}
	for _, f := range []string{"tests.json", "coverage.json"} {
		sameFile(t, filepath.Join(localOut, "runs", "pathsep", "linux", f), filepath.Join(out, "runs", "pathsep", "linux", f))
	}
}

// killProcessesUnder kills every process whose working directory lies
// under dir.
func killProcessesUnder(t *testing.T, dir string) {
	cwds, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, link := range cwds {
		target, err := os.Readlink(link)
		if err != nil || !strings.HasPrefix(target, dir+"/") {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(link)))
		if err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// ranEvalStep reports whether w ran a step of an evaluation (eval/<model>/
// <instance>/...), not only the build's.
func ranEvalStep(w *workerProc) bool {
	for _, ev := range w.events("step done", "") {
		if strings.HasPrefix(ev.Step, "eval/") {
			return true
		}
	}
	return false
}
