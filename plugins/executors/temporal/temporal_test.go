package temporal_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/httpcache"
	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/executors/temporal"
	"github.com/osbench/osbench/plugins/executors/temporal/temporaltest"
)

// shellKind runs its configured script with the local executor in the
// step's work dir: stdout is result "out", whatever the script writes under
// $OUT is result tree "tree", and the input "in" (if any) is in $IN. A real
// command-running step, like the test steps the dispatcher exists for.
type shellKind struct{}

func (shellKind) Name() string    { return "temporal-test-shell" }
func (shellKind) Version() string { return "1" }

func (shellKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg struct {
		Script string `json:"script"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	in := ""
	if a, err := rc.Input("in"); err == nil {
		b, err := a.Bytes("out")
		if err != nil {
			return err
		}
		in = strings.TrimSpace(string(b))
		if err := a.Materialize("tree", filepath.Join(rc.WorkDir, "in")); err != nil {
			return err
		}
	}
	ex, err := executors.New(executors.LocalName, executors.Config{StateDir: filepath.Join(rc.WorkDir, "state")})
	if err != nil {
		return err
	}
	out := filepath.Join(rc.WorkDir, "out")
	var stdout bytes.Buffer
	log, err := rc.SideWriter("log")
	if err != nil {
		return err
	}
	res, err := ex.Run(ctx, executors.Cmd{
		Argv: []string{"sh", "-c", "mkdir -p \"$OUT\" && " + cfg.Script}, Dir: rc.WorkDir, WorkDir: rc.WorkDir,
		Env:    []string{"PATH=/usr/bin:/bin", "IN=" + in, "OUT=" + out},
		Stdout: &stdout, Stderr: log, WritableDirs: []string{out},
	})
	if cerr := log.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return errors.New("script failed: exit " + stdout.String())
	}
	if err := rc.PutBytes("out", stdout.Bytes()); err != nil {
		return err
	}
	rc.SetLabel(strings.TrimSpace(stdout.String()))
	return rc.PutTree("tree", out, nil)
}

func init() { engine.RegisterKind(shellKind{}) }

// reachableDir is a temp dir the unprivileged run user of a root test run
// can enter (t.TempDir's parent is 0700).
func reachableDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// openCache opens a cache with remote (a URL, "" for none) behind it.
func openCache(t *testing.T, dir, remote string) *cache.Cache {
	t.Helper()
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if remote != "" {
		s, err := httpcache.New(remote, httpcache.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		c.AttachRemote(s, cache.RemoteOptions{Name: remote, Warn: func(msg string) { t.Logf("remote: %s", msg) }})
	}
	return c
}

func fingerprint(t *testing.T) string {
	t.Helper()
	ex, err := executors.New(executors.LocalName, executors.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := ex.Fingerprint(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// graph is a chain a → b → c plus a pure-config step d on another chain.
func graph(t *testing.T, fp string, scripts map[string]string) *engine.Graph {
	t.Helper()
	env := map[string]string{"platform": "linux", "executor": fp}
	var steps []*engine.Step
	prev := ""
	for _, id := range []string{"a", "b", "c"} {
		s := &engine.Step{ID: "chain/" + id, Kind: shellKind{}.Name(), Group: "chain", Env: env, Pool: "local",
			Config: []engine.Field{{Name: "script", Value: scripts[id]}}}
		if prev != "" {
			s.Inputs = []engine.Input{{Name: "in", Step: prev}}
		}
		steps = append(steps, s)
		prev = s.ID
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

var chainScripts = map[string]string{
	"a": `echo alpha; echo one > "$OUT/1.txt"; mkdir -p "$OUT/d"; printf 'x\ny\n' > "$OUT/d/2.txt"`,
	"b": `echo "$IN beta"; cat in/d/2.txt > "$OUT/copied"`,
	"c": `echo "$IN gamma"; ls in > "$OUT/listing"`,
}

// startWorker starts an in-process worker over the cache in dir, exchanging
// blobs through the remote cache at remote ("": none).
func startWorker(t *testing.T, ctx context.Context, hostPort, remote, dir, name string) *cache.Cache {
	t.Helper()
	c := openCache(t, dir, remote)
	e := engine.New(c, engine.Options{Jobs: 2, Log: zerolog.Nop()})
	ready := make(chan error, 1)
	go func() {
		ready <- temporal.RunWorker(ctx, temporal.WorkerOptions{HostPort: hostPort, Platform: "linux", Executor: executors.LocalName,
			ExecutorState: t.TempDir(), Engine: e, Jobs: 2, Identity: name, Log: zerolog.Nop()})
	}()
	t.Cleanup(func() {
		if err := <-ready; err != nil {
			t.Errorf("worker %s: %v", name, err)
		}
	})
	waitForWorkers(t, hostPort, addWorker(hostPort))
	return c
}

// workers counts the workers startWorker started, by server.
var workers = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

func addWorker(hostPort string) int {
	workers.Lock()
	defer workers.Unlock()
	workers.n[hostPort]++
	return workers.n[hostPort]
}

func waitForWorkers(t *testing.T, hostPort string, n int) {
	t.Helper()
	ctx, done := context.WithTimeout(context.Background(), 2*time.Minute)
	defer done()
	if err := temporal.WaitForWorkers(ctx, hostPort, "", "linux", n); err != nil {
		t.Fatal(err)
	}
}

func TestDispatchGivesTheLocalResults(t *testing.T) {
	fp := fingerprint(t)
	// The same graph run in-process is what the workers must give.
	localCache := openCache(t, filepath.Join(reachableDir(t), "local"), "")
	want, err := engine.New(localCache, engine.Options{Log: zerolog.Nop()}).Build(context.Background(), graph(t, fp, chainScripts))
	if err != nil {
		t.Fatal(err)
	}

	srv := temporaltest.Start(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	remote := nginxtest.Start(t, nginxtest.Options{}).URL
	w1 := startWorker(t, ctx, srv.HostPort, remote, filepath.Join(reachableDir(t), "w1"), "w1")
	w2 := startWorker(t, ctx, srv.HostPort, remote, filepath.Join(reachableDir(t), "w2"), "w2")

	clientCache := openCache(t, filepath.Join(reachableDir(t), "client"), remote)
	d, err := temporal.NewDispatcher(ctx, temporal.DispatcherOptions{HostPort: srv.HostPort, Cache: clientCache, Heartbeat: 5 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(clientCache, engine.Options{Dispatcher: d, Log: zerolog.Nop()})
	got, err := eng.Build(ctx, graph(t, fp, chainScripts))
	if cerr := d.Close(); cerr != nil {
		t.Errorf("close: %v", cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want.Steps {
		g := got.Steps[i]
		if g.Status != engine.StatusRan || w.Status != engine.StatusRan {
			t.Fatalf("%s: status %s (%s), local %s", g.ID, g.Status, g.Error, w.Status)
		}
		if g.Key != w.Key || g.OutputDigest != w.OutputDigest || g.Label != w.Label {
			t.Errorf("%s: key %s output %s label %q; local run: key %s output %s label %q", g.ID, g.Key.Short(), g.OutputDigest.Short(), g.Label, w.Key.Short(), w.OutputDigest.Short(), w.Label)
		}
		// It ran on a worker, not here: a worker's cache holds its record.
		r1, e1 := w1.GetAction(g.Key)
		r2, e2 := w2.GetAction(g.Key)
		if e1 != nil && e2 != nil || (e1 == nil && r1.Failed) || (e2 == nil && r2.Failed) {
			t.Errorf("%s: no worker has a record of it (%v, %v)", g.ID, e1, e2)
		}
		// And its results and logs are in the client's cache.
		a, err := eng.Artifacts(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Side("log"); err != nil {
			t.Errorf("%s: log: %v", g.ID, err)
		}
		dir := t.TempDir()
		if err := a.Materialize("tree", dir); err != nil {
			t.Errorf("%s: tree: %v", g.ID, err)
		}
	}
	if l := got.Steps[2].Label; l != "alpha beta gamma" {
		t.Errorf("last label %q, want the chain's outputs", l)
	}

	// A second build is all hits, and asks no worker anything.
	again, err := engine.New(clientCache, engine.Options{Log: zerolog.Nop()}).Build(ctx, graph(t, fp, chainScripts))
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Summary(); s.Hit != 3 {
		t.Errorf("rebuild: %s, want 3 hits", s.Line())
	}
}

func TestCancelStopsTheWorkersCommand(t *testing.T) {
	fp := fingerprint(t)
	srv := temporaltest.Start(t)
	wctx, stopWorkers := context.WithCancel(context.Background())
	defer stopWorkers()
	// No remote: the worker and the client share one cache directory.
	dir := filepath.Join(reachableDir(t), "shared")
	startWorker(t, wctx, srv.HostPort, "", dir, "w1")
	clientCache := openCache(t, dir, "")
	d, err := temporal.NewDispatcher(wctx, temporal.DispatcherOptions{HostPort: srv.HostPort, Cache: clientCache, Heartbeat: 3 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	marker := "97.4321" // a sleep no other process has
	scripts := map[string]string{"a": "sleep " + marker, "b": "true", "c": "true"}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var rep *engine.Report
	wg.Add(1)
	go func() {
		defer wg.Done()
		rep, _ = engine.New(clientCache, engine.Options{Dispatcher: d, Log: zerolog.Nop()}).Build(ctx, graph(t, fp, scripts))
	}()
	waitFor(t, 90*time.Second, func() bool { return sleeping(marker) }, "the step's command to start on the worker")
	t0 := time.Now()
	cancel()
	wg.Wait()
	t.Logf("build returned %s after the cancel", time.Since(t0).Round(time.Millisecond))
	if err := d.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	t.Logf("workflows ended %s after the cancel", time.Since(t0).Round(time.Millisecond))
	if st := rep.Step("chain/a").Status; st != engine.StatusCanceled {
		t.Errorf("step a: %s, want canceled", st)
	}
	waitFor(t, 20*time.Second, func() bool { return !sleeping(marker) }, "the worker to kill the step's command")
	if _, err := clientCache.GetAction(rep.Steps[0].Key); err == nil {
		t.Errorf("a canceled step was recorded")
	}
}

func TestDuplicateRequestsRunOnce(t *testing.T) {
	fp := fingerprint(t)
	// The client's key, from a plan over an empty cache.
	c := openCache(t, filepath.Join(reachableDir(t), "w"), "")
	e := engine.New(c, engine.Options{Log: zerolog.Nop()})
	g := graph(t, fp, map[string]string{"a": "sleep 1; echo once", "b": "true", "c": "true"})
	plan, err := e.Plan(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := g.Step("chain/a")
	key := plan.Steps[0].Key
	var wg sync.WaitGroup
	recs := make([]*cache.ActionRecord, 3)
	errs := make([]error, 3)
	for i := range recs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			recs[i], errs[i] = e.RunDispatched(context.Background(), s, key, map[string]*cache.ActionRecord{})
		}(i)
	}
	wg.Wait()
	for i := range recs {
		if errs[i] != nil || recs[i].Failed {
			t.Fatalf("attempt %d: %v %+v", i, errs[i], recs[i])
		}
		// One run: every attempt got the record of the same run.
		if !recs[i].Created.Equal(recs[0].Created) || recs[i].OutputDigest != recs[0].OutputDigest {
			t.Errorf("attempt %d: record of %v, attempt 0 of %v: the step ran twice", i, recs[i].Created, recs[0].Created)
		}
	}
	// A key the worker computes otherwise is refused, not run.
	_, err = e.RunDispatched(context.Background(), s, cache.Sum([]byte("another key")), map[string]*cache.ActionRecord{})
	var mismatch *engine.KeyMismatchError
	if !errors.As(err, &mismatch) {
		t.Errorf("wrong key: %v, want a KeyMismatchError", err)
	}
}

func sleeping(marker string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte("sleep\x00"+marker)) {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, d time.Duration, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// buildWithin builds g, failing the test if that takes longer than d (a
// step waiting for a worker that never comes would wait for ever).
func buildWithin(t *testing.T, d time.Duration, e *engine.Engine, g *engine.Graph) (*engine.Report, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		rep *engine.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := e.Build(ctx, g)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(d):
		t.Fatalf("the build still waits after %s", d)
		return nil, nil
	}
}

func TestNoWorkerServesAnotherFingerprint(t *testing.T) {
	fp := fingerprint(t)
	// The client keyed its steps on another machine: the same executor
	// on another architecture, a fingerprint the worker here never has.
	other := strings.Replace(fp, "/"+runtime.GOARCH+" ", "/elsewhere64 ", 1)
	if other == fp {
		t.Fatalf("fingerprint %q names no architecture to change", fp)
	}
	srv := temporaltest.Start(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	w := startWorker(t, ctx, srv.HostPort, "", filepath.Join(reachableDir(t), "worker"), "w-here")
	clientCache := openCache(t, filepath.Join(reachableDir(t), "client"), "")
	d, err := temporal.NewDispatcher(ctx, temporal.DispatcherOptions{HostPort: srv.HostPort, Cache: clientCache, NoWorkerTimeout: 3 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, err := buildWithin(t, time.Minute, engine.New(clientCache, engine.Options{Dispatcher: d, Log: zerolog.Nop()}), graph(t, other, chainScripts))
	if cerr := d.Close(); cerr != nil {
		t.Errorf("close: %v", cerr)
	}
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Step("chain/a")
	if a.Status != engine.StatusFailed {
		t.Fatalf("step a: %s (%s), want failed: no worker serves it", a.Status, a.Error)
	}
	t.Logf("failed after %s: %s", took.Round(time.Millisecond), a.Error)
	for _, want := range []string{
		"no worker serves queue " + temporal.Queue("linux", temporal.Fingerprint(map[string]string{"executor": other})),
		"within the no-worker timeout of 3s",
		"w-here", // the live worker, named
		`executor: the step needs "` + other + `", the worker has `,
		`"` + fp + `"`, // what differs: the worker's own value
	} {
		if !strings.Contains(a.Error, want) {
			t.Errorf("the error does not say %q:\n%s", want, a.Error)
		}
	}
	if took > time.Minute {
		t.Errorf("the build took %s to give up", took)
	}
	// The worker was given nothing: no record of the step, no work dir.
	if _, err := w.GetAction(a.Key); err == nil {
		t.Errorf("the worker recorded the step it must not get")
	}
	for _, id := range []string{"chain/b", "chain/c"} {
		if st := rep.Step(id).Status; st == engine.StatusRan || st == engine.StatusHit {
			t.Errorf("%s: %s, downstream of a step that never ran", id, st)
		}
	}
}

func TestNoWorkerAtAll(t *testing.T) {
	fp := fingerprint(t)
	srv := temporaltest.Start(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	clientCache := openCache(t, filepath.Join(reachableDir(t), "client"), "")
	d, err := temporal.NewDispatcher(ctx, temporal.DispatcherOptions{HostPort: srv.HostPort, Cache: clientCache, NoWorkerTimeout: 2 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := buildWithin(t, time.Minute, engine.New(clientCache, engine.Options{Dispatcher: d, Log: zerolog.Nop()}), graph(t, fp, chainScripts))
	if cerr := d.Close(); cerr != nil {
		t.Errorf("close: %v", cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Step("chain/a")
	if a.Status != engine.StatusFailed || !strings.Contains(a.Error, "no osbench worker for platform linux is connected") {
		t.Errorf("step a: %s: %s; want a failure saying no linux worker is connected", a.Status, a.Error)
	}
}

func TestStepAbandonedWhenItsWorkersGo(t *testing.T) {
	fp := fingerprint(t)
	// Idle pollers renew their long polls every 2s here (a minute by
	// default), so a worker gone is seen in seconds, not minutes.
	srv := temporaltest.Start(t, `matching.longPollExpirationInterval="2s"`)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	startWorker(t, wctx, srv.HostPort, "", filepath.Join(reachableDir(t), "worker"), "w-gone")
	clientCache := openCache(t, filepath.Join(reachableDir(t), "client"), "")
	d, err := temporal.NewDispatcher(ctx, temporal.DispatcherOptions{HostPort: srv.HostPort, Cache: clientCache,
		Heartbeat: 2 * time.Second, NoWorkerTimeout: 3 * time.Second, WorkerSilence: 6 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	marker := "91.2345"
	scripts := map[string]string{"a": "sleep " + marker, "b": "true", "c": "true"}
	var rep *engine.Report
	var berr error
	built := make(chan struct{})
	go func() {
		defer close(built)
		rep, berr = engine.New(clientCache, engine.Options{Dispatcher: d, Log: zerolog.Nop()}).Build(ctx, graph(t, fp, scripts))
	}()
	waitFor(t, 90*time.Second, func() bool { return sleeping(marker) }, "the step's command to start on the worker")
	// The only worker goes away mid-step: the step's retry waits on a
	// queue nobody serves.
	gone := time.Now()
	stopWorker()
	select {
	case <-built:
	case <-time.After(80 * time.Second):
		t.Fatalf("the build still waits %s after its only worker went", time.Since(gone).Round(time.Second))
	}
	if cerr := d.Close(); cerr != nil {
		t.Errorf("close: %v", cerr)
	}
	if berr != nil {
		t.Fatal(berr)
	}
	a := rep.Step("chain/a")
	t.Logf("step a %s %s after the worker went: %s", a.Status, time.Since(gone).Round(time.Millisecond), a.Error)
	if a.Status != engine.StatusFailed || !strings.Contains(a.Error, "no worker serves queue") {
		t.Errorf("step a: %s: %s; want a failure saying no worker serves its queue", a.Status, a.Error)
	}
}
