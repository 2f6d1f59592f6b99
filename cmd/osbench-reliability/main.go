// Command osbench-reliability is the harness behind `make reliability`: it
// measures in counts what DESIGN §8 promises about crashes, sharing and
// hostile test output, against the real osbench binary:
//
//   - kill -9 at a random point of `osbench build` (a synthetic corpus whose
//     repositories walk every step kind in about a second, and the bundled
//     examples), of `osbench cache gc` and of `osbench eval`, then a rerun:
//     how many completed, gave exports identical to a clean run's, and left
//     a cache that `osbench cache verify` finds clean;
//   - 2, 3 and 4 concurrent builds on one cache with `cache gc --max-size`
//     running beside them: failures and corrupt entries;
//   - a test that prints 1 GiB: the log osbench keeps and osbench's peak RSS;
//   - tests that fork processes which outlive the step (timed out or
//     passed): how many are still alive after osbench has exited;
//   - every bundled example built idle and beside 16 busy processes: the
//     same tasks.jsonl, or infrastructure failures a rerun completes.
//
// Kill points come from one seed, printed, so a run can be repeated
// (`-seed N`); the timing of the processes killed still varies.
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// config is one harness run's size.
type config struct {
	Root          string // the osbench checkout: manifests/examples, ./cmd/osbench
	Bin           string // osbench binary; built from Root when empty
	Seed          int64
	Jobs          int // -j of every osbench run
	Repos         int // repositories of the synthetic corpus
	BuildTrials   int
	GCTrials      int
	EvalTrials    int
	ExampleTrials int
	Examples      []string // manifests/examples/<name>.hcl the example trials build
	ExampleState  string   // a cache dir whose state/ (toolchains, GOCACHE, Wine prefixes) the example runs share
	Concurrency   []int
	OutputBytes   int64
	LoadBusy      int // busy processes of the load section; 0 skips it
	// CorpusCache is a cache holding the corpus's build, whose steps the
	// corpus-load section samples (corpusload.go); "" skips the section.
	CorpusCache  string
	CorpusSample float64
	CorpusBusy   int
	Keep         bool
}

func main() {
	var cfg config
	var conc, examples, outBytes string
	flag.Int64Var(&cfg.Seed, "seed", 0, "seed of the kill points (0: from the clock; printed either way)")
	flag.IntVar(&cfg.Jobs, "j", 2, "-j of every osbench run")
	flag.IntVar(&cfg.Repos, "repos", 3, "repositories in the synthetic corpus")
	flag.IntVar(&cfg.BuildTrials, "build-trials", 50, "kill -9 trials of a build of the synthetic corpus")
	flag.IntVar(&cfg.GCTrials, "gc-trials", 25, "kill -9 trials of cache gc")
	flag.IntVar(&cfg.EvalTrials, "eval-trials", 20, "kill -9 trials of eval")
	flag.IntVar(&cfg.ExampleTrials, "example-trials", 3, "kill -9 trials of a build of the bundled examples")
	flag.StringVar(&examples, "examples", "fsapi,pathsep", "the bundled examples those trials build (names under manifests/examples; the Go ones are the quick ones)")
	flag.StringVar(&cfg.ExampleState, "example-state", defaultExampleState(), "cache dir whose state/ the example runs share (kept between runs: toolchains, GOCACHE, Wine prefixes)")
	flag.StringVar(&conc, "concurrency", "2,3,4", "numbers of concurrent builds on one cache")
	flag.StringVar(&outBytes, "output", "1G", "output of the big-output test (K, M, G: powers of 1024)")
	flag.StringVar(&cfg.Bin, "bin", "", "osbench binary (default: built from this checkout)")
	flag.IntVar(&cfg.LoadBusy, "load-busy", 16, "busy processes beside the load section's build of every bundled example (0: skip the section)")
	flag.StringVar(&cfg.CorpusCache, "corpus-cache", "", "a cache holding make corpus's build: rerun a sample of its steps beside busy processes and compare (\"\": skip the section)")
	flag.Float64Var(&cfg.CorpusSample, "corpus-sample", 0.05, "the fraction of the corpus's cached steps the corpus-load section reruns")
	flag.IntVar(&cfg.CorpusBusy, "corpus-busy", 16, "busy processes beside the corpus-load section's reruns")
	flag.BoolVar(&cfg.Keep, "keep", false, "keep the scratch directory")
	flag.Parse()
	var err error
	if cfg.Concurrency, err = parseInts(conc); err != nil {
		fatal(fmt.Errorf("-concurrency: %v", err))
	}
	if cfg.OutputBytes, err = parseSize(outBytes); err != nil {
		fatal(fmt.Errorf("-output: %v", err))
	}
	if examples != "" {
		cfg.Examples = strings.Split(examples, ",")
	}
	if cfg.Root, err = os.Getwd(); err != nil {
		fatal(err)
	}
	// osbench runs in the scratch directory: a relative -bin would not resolve.
	if cfg.Bin != "" {
		if cfg.Bin, err = filepath.Abs(cfg.Bin); err != nil {
			fatal(err)
		}
	}
	if cfg.Seed == 0 {
		cfg.Seed = time.Now().UnixNano() % 1_000_000_007
	}
	rep, err := run(cfg, os.Stdout)
	if err != nil {
		fatal(err)
	}
	rep.print(os.Stdout)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "osbench-reliability:", err)
	os.Exit(1)
}

func defaultExampleState() string {
	// As root, the test user cannot reach /root/.cache, and the harness
	// never opens a home directory to it: root's state lives where root
	// osbench keeps its cache, under /var/cache.
	if os.Getenv("XDG_CACHE_HOME") == "" && os.Geteuid() == 0 {
		return "/var/cache/osbench-reliability/examples"
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "osbench-reliability", "examples")
	}
	return ""
}

// harness is what every section shares.
type harness struct {
	cfg     config
	rn      runner
	scratch string
	log     io.Writer
	refs    map[string]*reference // clean runs by scenario name
}

// run measures every section cfg asks for. Progress goes to log.
func run(cfg config, log io.Writer) (*report, error) {
	start := time.Now()
	scratch, err := os.MkdirTemp("", "osbench-reliability-")
	if err != nil {
		return nil, err
	}
	// Test commands run as an unprivileged user under root; they must
	// reach the work dirs of the caches kept here.
	if err := os.Chmod(scratch, 0o755); err != nil {
		return nil, err
	}
	if cfg.Keep {
		fmt.Fprintln(log, "scratch:", scratch)
	} else {
		defer os.RemoveAll(scratch)
	}
	if cfg.Bin == "" {
		cfg.Bin = filepath.Join(scratch, "osbench")
		build := exec.Command("go", "build", "-o", cfg.Bin, "./cmd/osbench")
		build.Dir = cfg.Root
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	h := &harness{cfg: cfg, rn: runner{bin: cfg.Bin, dir: scratch}, scratch: scratch, log: log, refs: map[string]*reference{}}
	rep := &report{Seed: cfg.Seed, Jobs: cfg.Jobs, Repos: cfg.Repos, LoadStart: loadAverage()}
	rng := rand.New(rand.NewSource(cfg.Seed))
	fmt.Fprintf(log, "seed %d, -j %d, synthetic corpus of %d repositories\n", cfg.Seed, cfg.Jobs, cfg.Repos)

	corpus := filepath.Join(scratch, "corpus")
	if err := writeSyntheticCorpus(corpus, "r", cfg.Repos); err != nil {
		return nil, err
	}
	section := func(name string, f func() error) error {
		t := time.Now()
		fmt.Fprintf(log, "%s …\n", name)
		err := f()
		fmt.Fprintf(log, "%s: %s\n", name, time.Since(t).Round(time.Second))
		return err
	}
	if cfg.BuildTrials > 0 {
		err := section("kill -9 of build (synthetic)", func() error {
			f, err := h.killSeries(h.buildScenario("build", corpus, nil), cfg.BuildTrials, rng)
			rep.Kills = appendFig(rep.Kills, f)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.GCTrials > 0 {
		err := section("kill -9 of cache gc", func() error {
			sc, err := h.gcScenario(corpus)
			if err != nil {
				return err
			}
			f, err := h.killSeries(sc, cfg.GCTrials, rng)
			rep.Kills = appendFig(rep.Kills, f)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.EvalTrials > 0 {
		err := section("kill -9 of eval", func() error {
			sc, err := h.evalScenario(corpus)
			if err != nil {
				return err
			}
			f, err := h.killSeries(sc, cfg.EvalTrials, rng)
			rep.Kills = appendFig(rep.Kills, f)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.ExampleTrials > 0 && len(cfg.Examples) > 0 {
		err := section("kill -9 of build (examples)", func() error {
			sc, err := h.exampleScenario()
			if err != nil {
				return err
			}
			f, err := h.killSeries(sc, cfg.ExampleTrials, rng)
			rep.Kills = appendFig(rep.Kills, f)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	for _, n := range cfg.Concurrency {
		err := section(fmt.Sprintf("%d concurrent builds + gc", n), func() error {
			c, err := h.concurrent(corpus, n, rng)
			if c != nil {
				rep.Concurrent = append(rep.Concurrent, *c)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.OutputBytes > 0 {
		err := section("big output", func() error {
			b, err := h.bigOutput(cfg.OutputBytes)
			rep.Big = b
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.LoadBusy > 0 {
		err := section(fmt.Sprintf("the examples idle and beside %d busy processes", cfg.LoadBusy), func() error {
			l, err := h.load(cfg.LoadBusy)
			rep.Load = l
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.CorpusCache != "" {
		err := section(fmt.Sprintf("a sample of the corpus's steps beside %d busy processes", cfg.CorpusBusy), func() error {
			c, err := h.corpusLoad(cfg.CorpusCache, cfg.CorpusSample, cfg.CorpusBusy)
			rep.CorpusLoad = c
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	err = section("processes that outlive their step", func() error {
		e, err := h.escapes()
		rep.Escapes = e
		return err
	})
	if err != nil {
		return nil, err
	}
	rep.Wall = time.Since(start)
	rep.LoadEnd = loadAverage()
	return rep, nil
}

func appendFig(figs []killFigures, f *killFigures) []killFigures {
	if f == nil {
		return figs
	}
	return append(figs, *f)
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseSize reads "123", "10K", "500M", "1G" (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	if s != "" {
		switch strings.ToUpper(s[len(s)-1:]) {
		case "K":
			mult = 1 << 10
		case "M":
			mult = 1 << 20
		case "G":
			mult = 1 << 30
		}
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a size like 1G", s)
	}
	return n * mult, nil
}
