package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// benchEval builds the example tasks, gives each a patch of its own (its
// gold patch plus a new notes file, so no test run is in the cache yet),
// and evaluates the predictions twice with -j 1. The first evaluation's
// wall time minus the time of the build and test commands themselves
// (summed from the runs' logs) is what osbench adds.
func benchEval(bin, root, tmp string) ([]row, error) {
	cache := filepath.Join(tmp, "eval-cache")
	out := filepath.Join(tmp, "eval-tasks")
	if _, _, err := timed(bin, "--cache-dir", cache, "--log-level", "warn", "build", "--out", out, filepath.Join(root, "manifests/examples")); err != nil {
		return nil, err
	}
	preds := filepath.Join(tmp, "bench-predictions.jsonl")
	n, err := benchPredictions(filepath.Join(out, "tasks.jsonl"), preds)
	if err != nil {
		return nil, err
	}
	evalOut := filepath.Join(tmp, "eval-out")
	args := []string{"--cache-dir", cache, "--log-level", "warn", "-j", "1", "eval", "--tasks", filepath.Join(out, "tasks.jsonl"), "--predictions", preds, "--out", evalOut}
	first, _, err := timed(bin, args...)
	if err != nil {
		return nil, err
	}
	commands, err := commandTime(evalOut)
	if err != nil {
		return nil, err
	}
	second, stdout, err := timed(bin, args...)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(stdout, " 0 ran, 0 failed") {
		return nil, fmt.Errorf("second evaluation ran steps:\n%s", stdout)
	}
	ratio := second.Seconds() / first.Seconds()
	perPred := (first - commands) / time.Duration(n)
	return []row{
		{fmt.Sprintf("re-evaluation / evaluation, %d predictions (-j 1)", n), fmt.Sprintf("%.4f (%s / %s)", ratio, second.Round(time.Millisecond), first.Round(time.Millisecond)), "≤ 0.01", ratio <= 0.01},
		{"evaluation overhead per prediction beyond its build and test commands", fmt.Sprintf("%s (%s of %s is commands)", perPred.Round(time.Millisecond), commands.Round(time.Millisecond), first.Round(time.Millisecond)), "(reference)", true},
	}, nil
}

// benchPredictions writes one prediction per task: the gold patch and a
// new file, which changes the tree (so nothing is cached) and not the
// verdict.
func benchPredictions(tasks, preds string) (int, error) {
	f, err := os.Open(tasks)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w, err := os.Create(preds)
	if err != nil {
		return 0, err
	}
	defer w.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var t struct {
			ID    string `json:"instance_id"`
			Patch string `json:"patch"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return 0, err
		}
		note := "diff --git a/BENCH_NOTES.txt b/BENCH_NOTES.txt\nnew file mode 100644\n--- /dev/null\n+++ b/BENCH_NOTES.txt\n@@ -0,0 +1 @@\n+bench\n"
		line, _ := json.Marshal(map[string]string{"instance_id": t.ID, "model_name_or_path": "bench", "model_patch": t.Patch + note})
		if _, err := w.Write(append(line, '\n')); err != nil {
			return 0, err
		}
		n++
	}
	return n, sc.Err()
}

var commandMarker = regexp.MustCompile(`\[osbench: (?:build )?exit -?\d+, timed out \w+, ((?:[0-9.]+[a-zµ]+)+)\]`)

// commandTime sums the durations the evaluation's test runs record in
// their logs for their build and test commands. Predictions share runs (the
// two directions of a repository run the same patched tree on the same
// platform), so each log is counted once, by its digest.
func commandTime(evalOut string) (time.Duration, error) {
	reports, err := filepath.Glob(filepath.Join(evalOut, "*", "*", "report.json"))
	if err != nil || len(reports) == 0 {
		return 0, fmt.Errorf("no reports under %s (%v)", evalOut, err)
	}
	logs := map[string]string{} // digest → path
	for _, p := range reports {
		type logRef struct{ Path, Digest string }
		type stage struct{ Log *logRef }
		var r struct {
			StageI  stage `json:"stage_i"`
			StageII stage `json:"stage_ii"`
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, err
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return 0, fmt.Errorf("%s: %v", p, err)
		}
		for _, l := range []*logRef{r.StageI.Log, r.StageII.Log} {
			if l != nil {
				logs[l.Digest] = filepath.Join(filepath.Dir(p), filepath.FromSlash(l.Path))
			}
		}
	}
	var total time.Duration
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, err
		}
		for _, m := range commandMarker.FindAllStringSubmatch(string(b), -1) {
			d, err := time.ParseDuration(m[1])
			if err != nil {
				return 0, fmt.Errorf("%s: %v", p, err)
			}
			total += d
		}
	}
	return total, nil
}
