package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/osbench/osbench/plugins/executors/temporal"
	"github.com/osbench/osbench/plugins/executors/temporal/temporaltest"
)

// benchTemporal measures distribution: the Go examples (linux) built through
// a Temporal dev server by 1 worker and by 2 workers (each -j 1, every
// process over one cache directory, as workers on one machine can be —
// the remote cache's transfers are measured apart), every step a miss, the
// tool caches warm (shared from warmCache's state/, so compiling the tests
// does not drown the scheduling). The ratio says how much a second worker
// buys.
//
// Two set-ups, each measured repeat times side by side (1 worker, then 2,
// then 2, then 1, …: a load that drifts falls on both):
//   - shared cores: the workers' steps may use both cores of the machine,
//     as every process normally does. A go test step already keeps both
//     cores busy (it compiles and links in parallel), so a second worker on
//     a 2-core machine mostly halves each step's share of the CPU;
//   - one core per worker (taskset): each worker and its steps on a core
//     of its own, the 1-worker run on one core — two 1-core machines
//     against one. This is the distribution's own speed-up, what more
//     machines buy.
//
// Beside the ratios it prints what limits them: the time the workers spent
// in steps (busy) against the wall, the per-step dispatch overhead (the
// client's wait for a step minus the worker's time in it), and the floor
// the graph sets for 2 workers (client-only time plus the larger of the
// longest repository's chain and half the busy time).
func benchTemporal(bin string, manifests []string, warmCache, tmp string, repeat int) ([]row, error) {
	srv, err := temporaltest.StartServer(tmp)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	load0 := loadAverage()
	var rows []row
	for _, pinned := range []bool{false, true} {
		if pinned && !canPin() {
			rows = append(rows, row{"Go examples through Temporal, one core per worker", "skipped: taskset or a second core missing", "", true})
			continue
		}
		var ratios []float64
		var runs []temporalRun
		for r := 0; r < repeat; r++ {
			order := []int{1, 2}
			if r%2 == 1 {
				order = []int{2, 1}
			}
			got := map[int]temporalRun{}
			for _, n := range order {
				dir := filepath.Join(tmp, fmt.Sprintf("temporal-%v-%d-%d", pinned, r, n))
				run, err := temporalBuild(bin, srv.HostPort, manifests, warmCache, dir, n, pinned)
				if err != nil {
					return nil, err
				}
				got[n] = run
			}
			ratios = append(ratios, got[2].wall.Seconds()/got[1].wall.Seconds())
			runs = append(runs, got[1], got[2])
		}
		rows = append(rows, temporalRows(pinned, ratios, runs)...)
	}
	// The distribution alone: steps that take a second of wall and no CPU.
	sleepy := filepath.Join(tmp, "sleep-corpus")
	if err := writeCorpusWith(sleepy, sleepSteps, []string{"sh", "-c", "sleep 1; echo '" + passEvent + "'"}); err != nil {
		return nil, err
	}
	var sratios []float64
	var sruns []temporalRun
	for r := 0; r < repeat; r++ {
		got := map[int]temporalRun{}
		for _, n := range []int{1, 2} {
			run, err := temporalBuild(bin, srv.HostPort, []string{sleepy}, warmCache, filepath.Join(tmp, fmt.Sprintf("temporal-sleep-%d-%d", r, n)), n, false)
			if err != nil {
				return nil, err
			}
			got[n] = run
		}
		sratios = append(sratios, got[2].wall.Seconds()/got[1].wall.Seconds())
		sruns = append(sruns, got[1], got[2])
	}
	srows := temporalRows(false, sratios, sruns)
	srows[0].name = fmt.Sprintf("%d repositories whose test is `sleep 1` (no CPU) through Temporal: 2 workers / 1 worker", sleepSteps)
	rows = append(rows, srows[0], srows[3])
	rows = append(rows, row{"load average (1 min) before / after the Temporal runs (other processes share the machine)",
		fmt.Sprintf("%s / %s", load0, loadAverage()), "(reference)", true})
	return rows, nil
}

// sleepSteps is the size of the synthetic corpus whose steps only wait.
const sleepSteps = 8

// temporalRows summarises one set-up's runs: runs holds, per repetition,
// the 1-worker then the 2-worker run.
func temporalRows(pinned bool, ratios []float64, runs []temporalRun) []row {
	name := "Go examples (linux) through Temporal: 2 workers / 1 worker (-j 1 each, cores shared)"
	if pinned {
		name = "Go examples (linux) through Temporal: 2 workers / 1 worker (-j 1 each, one core per worker)"
	}
	sorted := append([]float64(nil), ratios...)
	sort.Float64s(sorted)
	median := sorted[len(sorted)/2]
	var each []string
	for i, r := range ratios {
		each = append(each, fmt.Sprintf("%.2f (%s / %s)", r, runs[2*i+1].wall.Round(100*time.Millisecond), runs[2*i].wall.Round(100*time.Millisecond)))
	}
	rows := []row{{name, fmt.Sprintf("median %.2f: %s", median, strings.Join(each, ", ")), "≤ 0.6", median <= 0.6}}
	// What limits it, from the median repetition's runs.
	i := 0
	for j, r := range ratios {
		if r == median {
			i = j
		}
	}
	one, two := runs[2*i], runs[2*i+1]
	client := one.wall - one.busy
	floor := client + maxDuration(one.chain, one.busy/2)
	rows = append(rows,
		row{"  1 worker: wall, time in steps on the worker, client-only time, steps dispatched",
			fmt.Sprintf("%s, %s, %s, %d", one.wall.Round(100*time.Millisecond), one.busy.Round(100*time.Millisecond), client.Round(100*time.Millisecond), one.steps), "(reference)", true},
		row{"  2 workers: wall, time in steps on the workers (sum), longest repository chain",
			fmt.Sprintf("%s, %s (%.2fx the 1-worker's), %s", two.wall.Round(100*time.Millisecond), two.busy.Round(100*time.Millisecond), two.busy.Seconds()/one.busy.Seconds(), two.chain.Round(100*time.Millisecond)), "(reference)", true},
		row{"  dispatch overhead per step (client's wait − wait for a free worker − worker's time), 1 / 2 workers",
			fmt.Sprintf("%s / %s", one.overhead.Round(time.Millisecond), two.overhead.Round(time.Millisecond)), "(reference)", true},
		row{"  floor for 2 workers from the graph: (client-only + max(chain, busy/2)) / 1-worker wall",
			fmt.Sprintf("%.2f", floor.Seconds()/one.wall.Seconds()), "(reference)", true},
	)
	return rows
}

// temporalRun is one build through Temporal.
type temporalRun struct {
	wall     time.Duration
	busy     time.Duration // the workers' time in steps, summed
	chain    time.Duration // the longest repository's steps on workers, toolchain then its longest run
	overhead time.Duration // mean of (client's wait − wait for a free worker − worker's time) per dispatched step
	steps    int
}

func temporalBuild(bin, hostPort string, manifests []string, warmCache, dir string, workers int, pinned bool) (temporalRun, error) {
	fresh := func(name string) (string, error) {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
		return d, os.Symlink(filepath.Join(warmCache, "state"), filepath.Join(d, "state"))
	}
	flags := []string{"--temporal", hostPort, "--log-level", "warn"}
	cache, err := fresh("cache")
	if err != nil {
		return temporalRun{}, err
	}
	var logs []string
	for i := 0; i < workers; i++ {
		path := filepath.Join(dir, fmt.Sprintf("worker-%d.log", i))
		log, err := os.Create(path)
		if err != nil {
			return temporalRun{}, err
		}
		logs = append(logs, path)
		args := []string{"--cache-dir", cache, "--platform", "linux", "-j", "1", "--log-format", "json", "--log-level", "info", "--temporal", hostPort, "worker"}
		var w *exec.Cmd
		if pinned {
			w = exec.Command("taskset", append([]string{"-c", fmt.Sprint(i), bin}, args...)...)
		} else {
			w = exec.Command(bin, args...)
		}
		w.Stdout, w.Stderr = log, log
		if err := w.Start(); err != nil {
			return temporalRun{}, err
		}
		log.Close()
		defer func() {
			w.Process.Signal(syscall.SIGTERM)
			w.Wait()
		}()
	}
	ctx, done := context.WithTimeout(context.Background(), 3*time.Minute)
	defer done()
	if err := temporal.WaitForWorkers(ctx, hostPort, "", "linux", workers); err != nil {
		return temporalRun{}, err
	}
	wall, out, err := timed(bin, append(append(append([]string{"--cache-dir", cache, "--platform", "linux"}, flags...), "build"), manifests...)...)
	if err != nil {
		return temporalRun{}, err
	}
	if strings.Contains(out, " 0 ran,") {
		return temporalRun{}, fmt.Errorf("the build through temporal ran nothing:\n%s", out)
	}
	run := temporalRun{wall: wall}
	worker := map[string]time.Duration{} // step → the worker's time in it
	queued := map[string]time.Duration{} // step → its wait for a free worker
	for _, p := range logs {
		evs, err := stepsDone(p)
		if err != nil {
			return temporalRun{}, err
		}
		for step, ev := range evs {
			worker[step], queued[step] = ev.took, ev.queued
			run.busy += ev.took
		}
	}
	run.steps = len(worker)
	client, err := traceDurations(cache)
	if err != nil {
		return temporalRun{}, err
	}
	var over time.Duration
	chain := map[string]time.Duration{} // repository → toolchain
	longest := map[string]time.Duration{}
	for step, took := range worker {
		if c, ok := client[step]; ok {
			over += c - took - queued[step]
		}
		repo, _, _ := strings.Cut(step, "/")
		if strings.HasSuffix(step, "/toolchain") {
			chain[repo] += took
		} else if took > longest[repo] {
			longest[repo] = took
		}
	}
	if run.steps > 0 {
		over /= time.Duration(run.steps)
	}
	run.overhead = over
	for repo := range longest {
		run.chain = maxDuration(run.chain, chain[repo]+longest[repo])
	}
	return run, nil
}

type stepDone struct{ took, queued time.Duration }

// stepsDone reads a worker's JSON log: the time it spent in each step, and
// how long the step waited for it (schedule to start).
func stepsDone(path string) (map[string]stepDone, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]stepDone{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev struct {
			Message  string  `json:"message"`
			Step     string  `json:"step"`
			TookMS   float64 `json:"took_ms"`
			QueuedMS float64 `json:"queued_ms"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Message == "step done" {
			out[ev.Step] = stepDone{took: msDuration(ev.TookMS), queued: msDuration(ev.QueuedMS)}
		}
	}
	return out, sc.Err()
}

// traceDurations reads the latest run trace of a cache: each step's
// duration as the client saw it (for a dispatched step, its wait).
func traceDurations(cache string) (map[string]time.Duration, error) {
	traces, _ := filepath.Glob(filepath.Join(cache, "traces", "*.jsonl"))
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace in %s", cache)
	}
	sort.Strings(traces)
	f, err := os.Open(traces[len(traces)-1])
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]time.Duration{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tl struct {
			Step       string  `json:"step"`
			DurationMS float64 `json:"duration_ms"`
		}
		if json.Unmarshal(sc.Bytes(), &tl) == nil {
			out[tl.Step] = time.Duration(tl.DurationMS * float64(time.Millisecond))
		}
	}
	return out, sc.Err()
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func maxDuration(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// canPin reports whether workers can be given a core each.
func canPin() bool {
	_, err := exec.LookPath("taskset")
	return err == nil && runtime.NumCPU() >= 2
}

// loadAverage is the 1-minute load average.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
