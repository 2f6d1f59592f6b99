package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// killFigures are the counts of one series of kill -9 trials.
type killFigures struct {
	Name      string
	Trials    int
	Killed    int // the SIGKILL arrived while osbench ran (else it had finished first)
	Completed int // the rerun exited 0 with no failed step
	// Identical: the rerun's exports equal the clean reference's, wall-clock
	// durations aside; Beyond: equal except in files that also differ
	// between two clean builds (Noise).
	Identical   int
	Beyond      int
	VerifyClean int // `osbench cache verify` found nothing corrupt and dropped nothing
	Reused      int // steps the reruns served from the cache, summed
	Delays      []time.Duration
	Noise       []string // files that differ between two clean runs
	Problems    []string // one line per trial that fell short, first few
}

func (f *killFigures) problem(trial int, delay time.Duration, format string, args ...any) {
	if len(f.Problems) < 8 {
		f.Problems = append(f.Problems, fmt.Sprintf("trial %d (kill at %s): %s", trial, delay.Round(time.Millisecond), fmt.Sprintf(format, args...)))
	}
}

// reference is a clean run to compare trials with, and what differs
// between it and a second clean run.
type reference struct {
	out   string
	snap  map[string][]byte
	noise []string
	wall  time.Duration // of the first clean run: the window kills fall in
}

// scenario is what a series runs: how to prepare a trial's cache, the
// command that is killed and rerun, and where its exports go.
type scenario struct {
	name string
	// fresh prepares an empty (or template) cache at dir.
	fresh func(dir string) error
	// args is the command the trial kills and then reruns.
	args func(cache, out string) []string
	// after runs once the rerun completed, before the exports are compared
	// (the build after a gc); nil for nothing.
	after func(cache, out string) []string
	// baseline, when set, is the exports of a clean run made already,
	// which stands in for the second clean run.
	baseline string
}

// cleanReference runs the scenario twice from scratch, once per harness
// run and scenario name.
func (h *harness) cleanReference(sc scenario) (*reference, error) {
	if ref := h.refs[sc.name]; ref != nil {
		return ref, nil
	}
	var ref reference
	// second is the other clean run's exports: the baseline's, or a second
	// run's.
	var second map[string][]byte
	runs := 2
	if sc.baseline != "" {
		s, err := snapshot(sc.baseline)
		if err != nil {
			return nil, err
		}
		second, runs = s, 1
	}
	for i := 0; i < runs; i++ {
		cache := filepath.Join(h.scratch, fmt.Sprintf("%s-ref%d-cache", sc.name, i))
		out := filepath.Join(h.scratch, fmt.Sprintf("%s-ref%d-out", sc.name, i))
		os.RemoveAll(cache)
		os.RemoveAll(out)
		if err := sc.fresh(cache); err != nil {
			return nil, err
		}
		r := h.rn.run(sc.args(cache, out)...)
		if !r.ok() {
			return nil, fmt.Errorf("%s: clean run %d: %s", sc.name, i+1, r.brief())
		}
		if sc.after != nil {
			if a := h.rn.run(sc.after(cache, out)...); !a.ok() {
				return nil, fmt.Errorf("%s: clean run %d, then: %s", sc.name, i+1, a.brief())
			}
		}
		s, err := snapshot(out)
		if err != nil {
			return nil, err
		}
		os.RemoveAll(cache)
		if i == 0 {
			ref.out, ref.wall, ref.snap = out, r.Wall, s
		} else {
			second = s
			os.RemoveAll(out)
		}
	}
	ref.noise = diffPaths(ref.snap, second)
	h.refs[sc.name] = &ref
	return &ref, nil
}

// killSeries runs n trials: a fresh cache, the command killed at a random
// point of the reference's wall time, rerun to the end, its exports
// compared, the cache verified.
func (h *harness) killSeries(sc scenario, n int, rng *rand.Rand) (*killFigures, error) {
	fig := &killFigures{Name: sc.name, Trials: n}
	ref, err := h.cleanReference(sc)
	if err != nil {
		return nil, err
	}
	fig.Noise = ref.noise
	noise := pathSet(ref.noise)
	cache := filepath.Join(h.scratch, sc.name+"-trial-cache")
	out := filepath.Join(h.scratch, sc.name+"-trial-out")
	for i := 1; i <= n; i++ {
		delay := time.Duration(rng.Int63n(int64(ref.wall) + 1))
		fig.Delays = append(fig.Delays, delay)
		os.RemoveAll(cache)
		os.RemoveAll(out)
		if err := sc.fresh(cache); err != nil {
			return nil, err
		}
		args := sc.args(cache, out)
		first := h.rn.runWith(runOpts{killAfter: delay}, args...)
		if first.Killed {
			fig.Killed++
		}
		rerun := h.rn.run(args...)
		_, cached, _, failed, _ := summary(rerun.Stdout)
		fig.Reused += cached
		completed := rerun.ok() && failed == 0
		if completed && sc.after != nil {
			a := h.rn.run(sc.after(cache, out)...)
			if !a.ok() {
				completed = false
				fig.problem(i, delay, "after the rerun: %s", a.brief())
			}
		}
		if completed {
			fig.Completed++
		} else if !rerun.ok() || failed > 0 {
			fig.problem(i, delay, "rerun: %s", rerun.brief())
		}
		snap, err := snapshot(out)
		if err != nil {
			fig.problem(i, delay, "exports: %v", err)
		} else {
			diff := diffPaths(ref.snap, snap)
			if len(diff) == 0 {
				fig.Identical++
			}
			if extra := beyond(diff, noise); len(extra) == 0 {
				fig.Beyond++
			} else {
				fig.problem(i, delay, "exports differ from the clean run's beyond clean-vs-clean noise: %s", headList(extra, 4))
			}
		}
		clean, corrupt, dropped, detail := h.rn.verifyClean(cache)
		if clean {
			fig.VerifyClean++
		} else {
			fig.problem(i, delay, "cache verify: %d corrupt, %d records dropped (%s)", corrupt, dropped, detail)
		}
		fmt.Fprintf(h.log, "  %s trial %d/%d: kill at %s (killed: %v), rerun %s, %d steps cached; verify clean: %v\n",
			sc.name, i, n, delay.Round(time.Millisecond), first.Killed, rerun.Wall.Round(time.Millisecond), cached, clean)
	}
	os.RemoveAll(cache)
	os.RemoveAll(out)
	return fig, nil
}

// delaySpread says where the kills fell: min, median, max.
func delaySpread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	r := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	return fmt.Sprintf("%s / %s / %s", r(s[0]), r(s[len(s)/2]), r(s[len(s)-1]))
}
