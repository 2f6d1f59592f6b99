package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// buildArgs is a build of paths into out on cache.
func (h *harness) buildArgs(cache, out string, paths ...string) []string {
	args := []string{"--cache-dir", cache, "-j", fmt.Sprint(h.cfg.Jobs), "--log-level", "warn", "build", "--out", out}
	return append(args, paths...)
}

// buildScenario kills builds of paths. With state set, every cache shares
// that directory's state/ (toolchains, GOCACHE, Wine prefixes: what lives
// outside the keys), as a long-lived cache would.
func (h *harness) buildScenario(name, paths string, state *string) scenario {
	return scenario{
		name: name,
		fresh: func(dir string) error {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if state != nil {
				return os.Symlink(*state, filepath.Join(dir, "state"))
			}
			return nil
		},
		args: func(cache, out string) []string { return h.buildArgs(cache, out, paths) },
	}
}

// gcScenario kills `cache gc --max-size` on a cache that holds two
// corpora's builds, the other one used longer ago, with a size bound that
// keeps about half; after the rerun of gc, a build of the corpus must give
// the clean exports again.
func (h *harness) gcScenario(corpus string) (scenario, error) {
	template := filepath.Join(h.scratch, "gc-template")
	other := filepath.Join(h.scratch, "corpus-gc")
	if err := writeSyntheticCorpus(other, "g", h.cfg.Repos); err != nil {
		return scenario{}, err
	}
	for _, c := range []string{other, corpus} {
		if r := h.rn.run(h.buildArgs(template, filepath.Join(h.scratch, "gc-template-out"), c)...); !r.ok() {
			return scenario{}, fmt.Errorf("gc template: build %s: %s", c, r.brief())
		}
	}
	size, err := dirBytes(filepath.Join(template, "ac"), filepath.Join(template, "cas"))
	if err != nil {
		return scenario{}, err
	}
	maxSize := fmt.Sprint(size / 2)
	return scenario{
		name:  "gc",
		fresh: func(dir string) error { return copyDir(template, dir) },
		args: func(cache, out string) []string {
			return []string{"--cache-dir", cache, "cache", "gc", "--max-size", maxSize, "--grace", "0s"}
		},
		after: func(cache, out string) []string { return h.buildArgs(cache, out, corpus) },
	}, nil
}

// evalScenario kills `osbench eval` of two predictions per task (the gold
// patch and no patch, each with a notes file added so that nothing of it
// is cached yet) on a copy of a cache that built the tasks.
func (h *harness) evalScenario(corpus string) (scenario, error) {
	template := filepath.Join(h.scratch, "eval-template")
	tasksOut := filepath.Join(h.scratch, "eval-tasks")
	if r := h.rn.run(h.buildArgs(template, tasksOut, corpus)...); !r.ok() {
		return scenario{}, fmt.Errorf("eval template: %s", r.brief())
	}
	tasks := filepath.Join(tasksOut, "tasks.jsonl")
	preds := filepath.Join(h.scratch, "eval-predictions.jsonl")
	n, err := writePredictions(tasks, preds)
	if err != nil {
		return scenario{}, err
	}
	if n == 0 {
		return scenario{}, fmt.Errorf("eval template: the synthetic corpus gave no tasks")
	}
	return scenario{
		name:  "eval",
		fresh: func(dir string) error { return copyDir(template, dir) },
		args: func(cache, out string) []string {
			return []string{"--cache-dir", cache, "-j", fmt.Sprint(h.cfg.Jobs), "--log-level", "warn", "eval", "--tasks", tasks, "--predictions", preds, "--out", out}
		},
	}, nil
}

// exampleScenario kills builds of some bundled examples. Their caches
// share the state/ of cfg.ExampleState, filled by one build there first if
// it is empty (minutes of toolchain downloads, compiling and Wine set-up,
// once per machine).
func (h *harness) exampleScenario() (scenario, error) {
	var paths []string
	for _, name := range h.cfg.Examples {
		p := filepath.Join(h.cfg.Root, "manifests", "examples", name+".hcl")
		if _, err := os.Stat(p); err != nil {
			return scenario{}, fmt.Errorf("-examples: %v", err)
		}
		paths = append(paths, p)
	}
	stateCache := h.cfg.ExampleState
	if stateCache == "" {
		stateCache = filepath.Join(h.scratch, "examples-state")
	}
	if err := os.MkdirAll(stateCache, 0o755); err != nil {
		return scenario{}, err
	}
	if err := reachable(stateCache, h.scratch); err != nil {
		return scenario{}, err
	}
	warm := filepath.Join(h.scratch, "examples-warm-out")
	if r := h.rn.run(append(h.buildArgs(stateCache, warm), paths...)...); !r.ok() {
		return scenario{}, fmt.Errorf("examples: warming %s: %s", stateCache, r.brief())
	}
	state := filepath.Join(stateCache, "state")
	sc := h.buildScenario("examples", "", &state)
	sc.args = func(cache, out string) []string { return append(h.buildArgs(cache, out), paths...) }
	// The warming build's exports are a clean build's (run now, or
	// served from the records of the clean build that filled the state),
	// so they are the second clean run: one slow build fewer.
	sc.baseline = warm
	return sc, nil
}

// writePredictions writes, per task, its gold patch and an empty patch,
// each adding a notes file: a new tree for every prediction, the verdicts
// of gold and empty.
func writePredictions(tasks, preds string) (int, error) {
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
	const note = "diff --git a/RELIABILITY_NOTES.txt b/RELIABILITY_NOTES.txt\nnew file mode 100644\n--- /dev/null\n+++ b/RELIABILITY_NOTES.txt\n@@ -0,0 +1 @@\n+reliability\n"
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var t struct {
			ID    string `json:"instance_id"`
			Patch string `json:"patch"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return 0, fmt.Errorf("%s: %v", tasks, err)
		}
		for _, p := range [][2]string{{"gold-noted", t.Patch + note}, {"empty-noted", note}} {
			line, _ := json.Marshal(map[string]string{"instance_id": t.ID, "model_name_or_path": p[0], "model_patch": p[1]})
			if _, err := w.Write(append(line, '\n')); err != nil {
				return 0, err
			}
			n++
		}
	}
	return n, sc.Err()
}

// dirBytes sums the sizes of the files under dirs.
func dirBytes(dirs ...string) (int64, error) {
	var total int64
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			fi, err := e.Info()
			if err == nil {
				total += fi.Size()
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return total, nil
}

// reachable makes the unprivileged test user able to reach the state
// below dir: dir itself, and the directories between it and the scratch
// dir (both osbench-reliability's own), are opened to others; a directory
// above them that is not is never widened — that would open a user's home
// or more to every local user — but reported.
func reachable(dir, scratch string) error {
	dir, _ = filepath.Abs(dir)
	scratch, _ = filepath.Abs(scratch)
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o005 == 0o005 {
			continue
		}
		rel, err := filepath.Rel(scratch, d)
		ours := d == dir || err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
		if !ours {
			return fmt.Errorf("%s, above the state dir %s, is not readable and searchable by others (mode %v), so the unprivileged test user cannot reach the state; open it yourself (chmod o+rx) or choose a state dir elsewhere", d, dir, fi.Mode().Perm())
		}
		if err := os.Chmod(d, fi.Mode().Perm()|0o055); err != nil {
			return err
		}
	}
	return nil
}
