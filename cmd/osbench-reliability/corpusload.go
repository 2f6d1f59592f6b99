package main

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The bundled corpus under load (issue 20: "make corpus rebuilt under load
// gives the same table as idle"). A cold rebuild of the whole corpus beside
// 16 busy processes takes many times an idle one on two cores (hours of
// Wine runs), so this section works from a cache that already holds the
// corpus's build (make corpus, idle): it runs a sample of its steps again
// beside the busy processes — osbench build --verify-cache, which reruns
// each sampled hit in a fresh work dir and compares its results with the
// cached ones — and counts the steps whose results differ. A step that
// gave other results under load would have put another row in the table;
// a rerun that fails for the machine's reasons (a starved timeout, a full
// disk) is reported with its cause and changes nothing. The sample is a
// function of the step keys, so a rerun of the section draws the same
// steps.

// corpusLoadFigures are the section's measures.
type corpusLoadFigures struct {
	Cache       string
	Manifests   int
	Busy        int
	Sample      float64
	Wall        time.Duration
	Code        int
	LoadAverage string // /proc/loadavg's 1-minute figure at the end
	Steps       int    // steps of the corpus's build
	Missed      int    // steps that ran: the cache did not hold the whole build
	Verified    int    // sampled hits rerun
	Same        int
	// Differs names the sampled steps whose rerun gave other results;
	// CoverageOnly those whose only other output is the raw coverage file
	// (a count or a timing-dependent block, which the same suite's repeated
	// runs on an idle machine vary in too: a flaky coverage line, not a
	// result); RerunFailed the reruns that failed, with why; Failed the
	// steps that failed as they did in the build (a failure is never
	// cached, so it runs again).
	Differs, CoverageOnly, RerunFailed, Failed []string
}

// corpusLoad reruns a sample of the corpus's cached steps beside busyN
// busy processes.
func (h *harness) corpusLoad(cache string, sample float64, busyN int) (*corpusLoadFigures, error) {
	var paths []string
	err := filepath.WalkDir(filepath.Join(h.cfg.Root, "manifests", "corpus"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".hcl") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("corpus load: no manifests under manifests/corpus (%v)", err)
	}
	sort.Strings(paths)
	fig := &corpusLoadFigures{Cache: cache, Manifests: len(paths), Busy: busyN, Sample: sample}
	stop, err := spin(busyN)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(h.scratch, "corpus-load-out")
	args := append([]string{"--infra-backoff", "10s"}, h.buildArgs(cache, out)...)
	args = append(args, fmt.Sprintf("--verify-cache=%g", sample))
	r := h.rn.run(append(args, paths...)...)
	fig.LoadAverage = loadAverage()
	stop()
	fig.Wall, fig.Code = r.Wall, r.Code
	steps, err := readBuildSteps(filepath.Join(out, "build-steps.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus load: %v: %s", err, r.brief())
	}
	fig.tally(steps)
	return fig, nil
}

// tally counts the build's steps by what --verify-cache said of them.
func (fig *corpusLoadFigures) tally(steps map[string]buildStep) {
	fig.Steps = len(steps)
	for _, s := range steps {
		switch {
		case s.Status == "ran" && strings.HasPrefix(s.Reason, absentInputs):
			// Downstream of a failure: run again every time, never cached.
			fig.Failed = append(fig.Failed, s.ID+" ran with a failed input")
		case s.Status == "ran":
			fig.Missed++
		case s.Status == "failed" || s.Status == "skipped":
			fig.Failed = append(fig.Failed, s.ID+" "+s.Status)
		}
		switch verdict, detail, _ := strings.Cut(s.Verify, ": "); verdict {
		case "":
		case "same":
			fig.Verified++
			fig.Same++
		case "differs":
			fig.Verified++
			if coverageOnly(detail) {
				fig.CoverageOnly = append(fig.CoverageOnly, s.ID+": "+detail)
			} else {
				fig.Differs = append(fig.Differs, s.ID+": "+detail)
			}
		default:
			fig.Verified++
			fig.RerunFailed = append(fig.RerunFailed, s.ID+": "+s.Verify)
		}
	}
	sort.Strings(fig.Differs)
	sort.Strings(fig.CoverageOnly)
	sort.Strings(fig.RerunFailed)
	sort.Strings(fig.Failed)
}

// absentInputs begins the reason of a step that ran although an input
// failed (engine: such a run is never cached).
const absentInputs = "ran with absent inputs"

// coverageOnly reports whether a verify difference ("NAME (cached D, rerun
// D), NAME (new), …", engine.resultDiff) names the test step's raw
// coverage file alone.
func coverageOnly(detail string) bool {
	parts := diffPart.FindAllStringSubmatch(detail, -1)
	for _, p := range parts {
		if p[1] != "coverage.raw" {
			return false
		}
	}
	return len(parts) > 0
}

// diffPart is one output named in a verify difference.
var diffPart = regexp.MustCompile(`(\S+) \((?:cached \S+, rerun \S+|new|gone)\)`)

// failed reports whether the section found a difference, or could not
// rerun what it sampled because the cache lacked the build.
func (f *corpusLoadFigures) failed() bool { return len(f.Differs) > 0 || f.Missed > 0 }

func (f *corpusLoadFigures) print(w io.Writer) {
	fmt.Fprintf(w, "\ncorpus under load: %g of the cached steps of the %d corpus manifests (cache %s) run again beside %d busy processes (load average %s at the end)\n",
		f.Sample, f.Manifests, f.Cache, f.Busy, f.LoadAverage)
	fmt.Fprintf(w, "  exit %d, %s; %d steps, %d ran that were not in the cache (make corpus first), %d failed again or skipped\n", f.Code, f.Wall.Round(time.Second), f.Steps, f.Missed, len(f.Failed))
	fmt.Fprintf(w, "  %d sampled steps run again: %d the same outputs, %d other results, %d other raw coverage only, %d reruns failed\n",
		f.Verified, f.Same, len(f.Differs), len(f.CoverageOnly), len(f.RerunFailed))
	if f.failed() {
		fmt.Fprintf(w, "  NOT load-independent: a step gave other results under load, or the cache did not hold the corpus's build\n")
	} else {
		fmt.Fprintf(w, "  load-independent on this sample: every rerun gave the cached results or failed as the machine's\n")
	}
	for _, d := range f.Differs {
		fmt.Fprintf(w, "    differs: %s\n", d)
	}
	for _, d := range f.CoverageOnly {
		fmt.Fprintf(w, "    raw coverage only: %s\n", d)
	}
	for _, d := range f.RerunFailed {
		fmt.Fprintf(w, "    rerun failed: %s\n", d)
	}
	for _, d := range f.Failed {
		fmt.Fprintf(w, "    failed again: %s\n", d)
	}
}
