// Command osbench-bench is the harness behind `make bench`. It builds the
// osbench binary and measures, side by side in one run, the ratios that
// DESIGN §9 and the foundation issue set as targets:
//
//   - cold overhead: osbench building the example corpus vs a plain script
//     running the same test commands (both with cold Go build caches, -j 1);
//   - no-op rebuild: a second build of the corpus vs the first (≤ 0.02);
//   - per-step overhead of plan and of a no-op build on a generated corpus
//     of 1,000 manifests with trivial commands (≤ 1 ms per step);
//   - evaluation: a second evaluation of the same predictions vs the first
//     (≤ 0.01), and what osbench adds per prediction beyond the test
//     commands themselves;
//   - remote cache: a build of the examples served by a remote cache (nginx
//     on loopback, an empty local cache) vs one served by the local cache;
//   - distribution: the Go examples built through Temporal by 2 workers vs 1
//     (≤ 0.6), with cores shared and with one core per worker, and what
//     limits the ratio (temporal.go);
//   - isolation: one repository's test run on Linux and one under Wine,
//     with a root osbench's network namespace and file-system view and
//     without them (isolation.go).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	repos := flag.Int("repos", 1000, "manifests in the synthetic corpus")
	keep := flag.Bool("keep", false, "keep the scratch directory")
	only := flag.String("only", "", "measure one part only: temporal (2 workers vs 1, after the cold build that warms its tool caches), remote (remote-hit vs local-hit build of the examples), or isolation (a test run with and without a root osbench's isolation)")
	examplesCache := flag.String("examples-cache", "", "with -only=remote: a cache that already holds the examples' build (e.g. an OSBENCH_E2E_CACHE), instead of building them first")
	repeat := flag.Int("temporal-repeat", 3, "repetitions of the 1-vs-2-worker pair, per set-up")
	flag.Parse()
	if *repeat < 1 {
		fmt.Fprintln(os.Stderr, "osbench-bench: -temporal-repeat must be at least 1")
		os.Exit(2)
	}
	if *only != "" && *only != "temporal" && *only != "remote" && *only != "isolation" {
		fmt.Fprintf(os.Stderr, "osbench-bench: -only is temporal, remote or isolation, not %q\n", *only)
		os.Exit(2)
	}
	if err := run(*repos, *keep, *only, *repeat, *examplesCache); err != nil {
		fmt.Fprintln(os.Stderr, "osbench-bench:", err)
		os.Exit(1)
	}
}

type row struct {
	name, measured, target string
	ok                     bool
}

func run(nRepos int, keep bool, only string, repeat int, examplesCache string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "osbench-bench-")
	if err != nil {
		return err
	}
	// Test commands run as an unprivileged user under root; it must reach
	// the work dirs under the caches kept here.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Println("scratch:", tmp)
	}
	bin := filepath.Join(tmp, "osbench")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/osbench").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	var rows []row
	if only == "isolation" {
		rows, err := benchIsolation(root, tmp)
		if err != nil {
			return err
		}
		return printRows(rows)
	}
	if only == "remote" {
		// Build the examples (into a cache given, only what it lacks: a
		// cache built from copies of the manifests elsewhere has other
		// checkouts), so the measured local build is all hits.
		cache := examplesCache
		if cache == "" {
			cache = filepath.Join(tmp, "examples-all-cache")
		}
		if _, _, err := timed(bin, "--cache-dir", cache, "--log-level", "warn", "build", filepath.Join(root, "manifests/examples")); err != nil {
			return err
		}
		rows, err := benchRemote(bin, root, tmp, cache)
		if err != nil {
			return err
		}
		return printRows(rows)
	}

	// 1. The Go examples on Linux (what the plain script can run too): cold
	// build, plain script, no-op rebuild.
	cache := filepath.Join(tmp, "examples-cache")
	var goExamples []string
	for _, name := range []string{"fsapi", "lineend", "pathsep"} {
		goExamples = append(goExamples, filepath.Join(root, "manifests/examples", name+".hcl"))
	}
	buildArgs := append([]string{"--cache-dir", cache, "--platform", "linux", "-j", "1", "build"}, goExamples...)
	cold, _, err := timed(bin, buildArgs...)
	if err != nil {
		return err
	}
	if only == "temporal" {
		rows, err := benchTemporal(bin, goExamples, cache, tmp, repeat)
		if err != nil {
			return err
		}
		return printRows(rows)
	}
	script, err := plainScript(root, filepath.Join(tmp, "script"))
	if err != nil {
		return err
	}
	noop, out, err := timed(bin, buildArgs...)
	if err != nil {
		return err
	}
	if !strings.Contains(out, " 0 ran,") {
		return fmt.Errorf("no-op build ran steps:\n%s", out)
	}
	overhead := cold.Seconds() / script.Seconds()
	rows = append(rows,
		row{"cold build of the Go examples (linux) vs plain script (-j 1)", fmt.Sprintf("%.2fx (%s vs %s)", overhead, cold.Round(time.Millisecond), script.Round(time.Millisecond)), "close to 1", overhead < 1.5},
		row{"no-op rebuild / cold build", fmt.Sprintf("%.4f (%s / %s)", noop.Seconds()/cold.Seconds(), noop.Round(time.Millisecond), cold.Round(time.Millisecond)), "≤ 0.02", noop.Seconds()/cold.Seconds() <= 0.02},
	)

	// 1b. The same examples through Temporal: 2 workers vs 1.
	temporalRows, err := benchTemporal(bin, goExamples, cache, tmp, repeat)
	if err != nil {
		return err
	}
	rows = append(rows, temporalRows...)

	// 2. Evaluation of the example tasks.
	evalRows, err := benchEval(bin, root, tmp)
	if err != nil {
		return err
	}
	rows = append(rows, evalRows...)
	remoteRows, err := benchRemote(bin, root, tmp, filepath.Join(tmp, "eval-cache"))
	if err != nil {
		return err
	}
	rows = append(rows, remoteRows...)
	isolationRows, err := benchIsolation(root, tmp)
	if err != nil {
		return err
	}
	rows = append(rows, isolationRows...)

	// 3. The synthetic corpus.
	corpus := filepath.Join(tmp, "corpus")
	if err := writeCorpus(corpus, nRepos); err != nil {
		return err
	}
	ccache := filepath.Join(tmp, "corpus-cache")
	first, out, err := timed(bin, "--cache-dir", ccache, "--platform", "linux", "--log-level", "warn", "build", corpus)
	if err != nil {
		return err
	}
	steps, err := stepCount(out)
	if err != nil {
		return err
	}
	plan, _, err := timed(bin, "--cache-dir", ccache, "--platform", "linux", "plan", "--json", corpus)
	if err != nil {
		return err
	}
	second, out, err := timed(bin, "--cache-dir", ccache, "--platform", "linux", "--log-level", "warn", "build", corpus)
	if err != nil {
		return err
	}
	if !strings.Contains(out, " 0 ran,") {
		return fmt.Errorf("no-op corpus build ran steps:\n%s", out)
	}
	perPlan := float64(plan.Microseconds()) / 1000 / float64(steps)
	perNoop := float64(second.Microseconds()) / 1000 / float64(steps)
	perCold := float64(first.Microseconds()) / 1000 / float64(steps)
	rows = append(rows,
		row{fmt.Sprintf("plan, %d manifests (%d steps), per step", nRepos, steps), fmt.Sprintf("%.3f ms (%s)", perPlan, plan.Round(time.Millisecond)), "≤ 1 ms", perPlan <= 1},
		row{fmt.Sprintf("no-op build, %d manifests, per step", nRepos), fmt.Sprintf("%.3f ms (%s)", perNoop, second.Round(time.Millisecond)), "≤ 1 ms", perNoop <= 1},
		row{fmt.Sprintf("cold build, %d manifests, per step (runs `echo`)", nRepos), fmt.Sprintf("%.3f ms (%s)", perCold, first.Round(time.Millisecond)), "(reference)", true},
		row{"no-op / cold, synthetic corpus", fmt.Sprintf("%.4f", second.Seconds()/first.Seconds()), "(reference)", true},
	)

	return printRows(rows)
}

func printRows(rows []row) error {
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "measure\tmeasured\ttarget\tmet")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\n", r.name, r.measured, r.target, r.ok)
	}
	return w.Flush()
}

// timed runs the binary and returns its wall time and stdout.
func timed(bin string, args ...string) (time.Duration, string, error) {
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, stdout.String(), fmt.Errorf("%s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, tail(stdout.String()), tail(stderr.String()))
	}
	return d, stdout.String(), nil
}

var summaryLine = regexp.MustCompile(`(?m)^(\d+) steps:`)

func stepCount(out string) (int, error) {
	m := summaryLine.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no summary line in:\n%s", out)
	}
	return strconv.Atoi(m[1])
}

// plainScript runs the go preset's test command on a copy of each fixture,
// sequentially, with a cold GOCACHE: what a person would do without osbench.
func plainScript(root, dir string) (time.Duration, error) {
	fixtures, err := filepath.Glob(filepath.Join(root, "testdata/repos/*/go.mod"))
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	env := append(os.Environ(), "GOCACHE="+filepath.Join(dir, "gocache"), "GOFLAGS=-modcacherw", "GOTOOLCHAIN=go1.26.8")
	start := time.Now()
	for _, gomod := range fixtures {
		src := filepath.Dir(gomod)
		work := filepath.Join(dir, filepath.Base(src))
		if out, err := exec.Command("cp", "-r", src, work).CombinedOutput(); err != nil {
			return 0, fmt.Errorf("cp: %v: %s", err, out)
		}
		cmd := exec.Command("go", "test", "-count=1", "-json", "-vet=off", "-timeout=5m", "-covermode=set", "-coverpkg=./...", "-coverprofile=coverage.out", "./...")
		cmd.Dir, cmd.Env = work, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("go test in %s: %v\n%s", work, err, out)
		}
	}
	return time.Since(start), nil
}

// writeCorpus generates n manifests whose test command is a trivial echo of
// one passing test2json event, each over its own tiny source directory.
func writeCorpus(dir string, n int) error {
	return writeCorpusWith(dir, n, []string{"echo", passEvent})
}

// passEvent is one passing test2json event.
const passEvent = `{"Action":"pass","Package":"example.com/bench","Test":"TestOK"}`

// writeCorpusWith generates n manifests whose Linux test command is argv.
func writeCorpusWith(dir string, n int, argv []string) error {
	command, err := json.Marshal(argv)
	if err != nil {
		return err
	}
	event := passEvent
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%04d", i)
		src := filepath.Join(dir, "src", name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(src, "main.txt"), []byte(name+"\n"), 0o644); err != nil {
			return err
		}
		// Both platforms are declared (a direction needs them); the bench
		// builds the Linux one only.
		manifest := fmt.Sprintf(`repository %q {
  language = "shell"
  migrate  = ["windows->linux"]
  source {
    path = "src/%s"
  }
  platform "linux" {
    executor = "local"
    test {
      command = %s
      parser  = "go-test-json"
      timeout = "1m"
    }
  }
  platform "windows" {
    executor = "wine"
    test {
      command = ["echo", %q]
      parser  = "go-test-json"
      timeout = "1m"
    }
  }
}
`, name, name, command, event)
		if err := os.WriteFile(filepath.Join(dir, name+".hcl"), []byte(manifest), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// tail keeps the end of long output for error messages.
func tail(s string) string {
	const max = 4000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}
