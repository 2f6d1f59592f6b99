package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
)

// report is everything one harness run measured.
type report struct {
	Seed       int64
	Jobs       int
	Repos      int
	Kills      []killFigures
	Concurrent []concurrentFigures
	Big        *bigFigures
	Escapes    *escapeFigures
	Load       *loadFigures
	CorpusLoad *corpusLoadFigures
	Wall       time.Duration
	// Load is /proc/loadavg's 1-minute figure at the start and the end:
	// the wall times above mean little without it on a shared machine.
	LoadStart, LoadEnd string
}

func (r *report) print(w io.Writer) {
	fmt.Fprintf(w, "\nosbench reliability — seed %d (rerun with -seed %d), -j %d, synthetic corpus %d repositories, %s (load average %s at the start, %s at the end)\n", r.Seed, r.Seed, r.Jobs, r.Repos, r.Wall.Round(time.Second), r.LoadStart, r.LoadEnd)

	if len(r.Kills) > 0 {
		fmt.Fprintln(w, "\nkill -9 at a random point, then rerun")
		t := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(t, "series\ttrials\tkilled mid-run\tcompleted\tidentical\tidentical beyond clean-vs-clean\tverify-clean\tsteps reused by reruns\tkill at min / median / max")
		for _, f := range r.Kills {
			fmt.Fprintf(t, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", f.Name, f.Trials, f.Killed, f.Completed, f.Identical, f.Beyond, f.VerifyClean, f.Reused, delaySpread(f.Delays))
		}
		t.Flush()
		for _, f := range r.Kills {
			if len(f.Noise) > 0 {
				fmt.Fprintf(w, "  %s: two clean runs differ in %d files: %s\n", f.Name, len(f.Noise), headList(f.Noise, 6))
			}
			for _, p := range f.Problems {
				fmt.Fprintf(w, "  %s: %s\n", f.Name, p)
			}
		}
		fmt.Fprintln(w, "  (identical: every exported file equal to the clean run's, wall-clock durations in build-steps.json, logs and log digests aside;")
		fmt.Fprintln(w, "   beyond clean-vs-clean: the same, ignoring the files listed above that differ between two clean runs as well)")
	}

	if len(r.Concurrent) > 0 {
		fmt.Fprintln(w, "\nconcurrent builds on one cache, `cache gc --max-size 64K --grace 0s` looping beside them")
		t := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(t, "builds\tfailed\tidentical exports\tgc runs (during builds)\tgc failed\tcorrupt blobs\tdropped records\twall")
		for _, c := range r.Concurrent {
			fmt.Fprintf(t, "%d\t%d\t%d\t%d (%d)\t%d\t%d\t%d\t%s\n", c.Builds, c.BuildsFailed, c.Identical, c.GCRuns, c.GCDuring, c.GCFailed, c.Corrupt, c.Dropped, c.Wall.Round(time.Millisecond))
		}
		t.Flush()
		for _, c := range r.Concurrent {
			for _, p := range c.Problems {
				fmt.Fprintf(w, "  %d builds: %s\n", c.Builds, p)
			}
		}
	}

	if b := r.Big; b != nil {
		fmt.Fprintf(w, "\na test printing %s: exit %d, step %s", humanBytes(b.OutputBytes), b.Code, b.StepStatus)
		if b.StepLabel != "" {
			fmt.Fprintf(w, " (%s)", b.StepLabel)
		}
		fmt.Fprintf(w, ", %s\n", b.Wall.Round(time.Millisecond))
		fmt.Fprintf(w, "  log kept: %s (truncation marker: %v)\n", humanBytes(b.LogBytes), b.Truncated)
		fmt.Fprintf(w, "  osbench peak RSS: %s (VmHWM from /proc), ru_maxrss %s\n", humanBytes(b.PeakRSS), humanBytes(b.MaxRSS))
	}

	if l := r.Load; l != nil {
		l.print(w)
	}
	if c := r.CorpusLoad; c != nil {
		c.print(w)
	}

	if e := r.Escapes; e != nil {
		fmt.Fprintf(w, "\nprocesses left behind by a test (timeout %s), counted after osbench exited; counter self-check: %d of %d planted found\n", e.Timeout, e.ProbeCounted, e.ProbePlanted)
		t := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(t, "style\tstep ends by\tstarted\tleft alive\tstep took\tstep")
		left, started := 0, 0
		for _, row := range e.Rows {
			fmt.Fprintf(t, "%s\t%s\t%d\t%d\t%s\t%s\n", row.Style, row.Ending, row.Started, row.Left, row.StepWall.Round(time.Millisecond), row.StepStatus)
			left += row.Left
			started += row.Started
		}
		t.Flush()
		fmt.Fprintf(w, "  total: %d of %d escapees left alive\n", left, started)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// loadAverage is the 1-minute load average, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
