package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cargoHomePlanter is a build script (build.rs) of the patch's: cargo
// runs it before compiling the crate, in the build, not in a test program.
// It writes the shared CARGO_HOME three ways: a config.toml that makes
// every later cargo fail (build.jobs = 0; the fetch removes config files
// before it runs, so this one alone would not last), a crate planted in
// the registry sources, and cargo's package-cache lock file replaced by a
// directory, which no fetch repairs and every later cargo fails to lock.
// The cargo commands after it in its own run fail too: the planter ends
// as an infra-failure or unresolved, never resolved.
const cargoHomePlanter = `use std::fs;
use std::path::Path;

fn main() {
    let home = match std::env::var("CARGO_HOME") {
        Ok(h) => h,
        Err(_) => return,
    };
    let home = Path::new(&home);
    let _ = fs::write(home.join("config.toml"), "[build]\njobs = 0\n");
    let planted = home.join("registry").join("src").join("osbench-planted").join("planted-0.1.0").join("src");
    if fs::create_dir_all(&planted).is_ok() {
        let _ = fs::write(planted.join("lib.rs"), "compile_error!(\"planted\");\n");
    }
    let lock = home.join(".package-cache");
    if fs::remove_file(&lock).is_ok() {
        let _ = fs::create_dir(&lock);
    }
}
`

// TestEvalBuildScriptWritesCargoHome is the shared-cache class of issue
// 19 from a build script: a patch of each rsplat task adds a build.rs
// that writes the shared CARGO_HOME (a config.toml every later cargo run
// reads, a planted crate). The planter runs and does not resolve; the
// cache's CARGO_HOME has neither file afterwards; and in a later eval on
// the same cache, each task's gold patch (with a comment in Cargo.toml, so
// its runs are new) still resolves. Without the copy-on-write CARGO_HOME
// the later cargo runs fail (checked by hand: see docs/security.md).
//
// The test has a cache of its own with a copy of the corpus's cargo home
// (copyCacheOwnCargoHome): a regression poisons the copy, not the corpus
// every other test uses.
func TestEvalBuildScriptWritesCargoHome(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	cacheDir, out := filepath.Join(dir, "cache"), filepath.Join(dir, "out")
	if err := copyCacheOwnCargoHome(cacheDir); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runOsbench(t, cacheDir, "build", examples, "--out", out); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	tasks := filepath.Join(out, "tasks.jsonl")
	repo := func(id string) string { return filepath.Join(out, "tasks", id, "repo") }
	var ids []string
	for _, id := range taskIDs(t, tasks) {
		if strings.HasPrefix(id, "rsplat__") {
			ids = append(ids, id)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("want both rsplat tasks, got %v", ids)
	}
	cargoHome := filepath.Join(cacheDir, "state", "cargo", "home")
	if _, err := os.Stat(cargoHome); err != nil {
		t.Fatalf("no cargo home in the test's cache: %v", err)
	}

	var preds [][3]string
	for _, id := range ids {
		preds = append(preds, [3]string{id, "planter", agentPatch(t, repo(id), func(dir string) {
			if err := os.WriteFile(filepath.Join(dir, "build.rs"), []byte(cargoHomePlanter), 0o644); err != nil {
				t.Fatal(err)
			}
			gitAddIntent(t, dir, "build.rs")
		})})
	}
	// The door of the own package in the dependency cache: rsplat's
	// complete sources where another repository's fetch would leave a
	// published rsplat (the registry sources of CARGO_HOME), and a patch
	// whose lib.rs takes each module the gold patch restores from there
	// by #[path]. No new dependency, no new cargo target: only the view,
	// which hides the registry's rsplat from rsplat's own commands
	// (toolenv.Hide), stops it. Without it the door resolves (checked
	// by hand, Hide hiding nothing).
	planted := filepath.Join(cargoHome, "registry", "src", "index.crates.io-1949cf8c6b5b557f", "rsplat-0.1.0")
	if err := copyTree(filepath.Join(repoRoot, "testdata", "repos", "rsplat"), planted); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		preds = append(preds, [3]string{id, "door", agentPatch(t, repo(id), func(dir string) {
			lib := filepath.Join(dir, "src", "lib.rs")
			b, err := os.ReadFile(lib)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			for _, f := range goldFiles(t, tasks, id) {
				mod, ok := strings.CutPrefix(strings.TrimSuffix(f, ".rs"), "src/")
				if !ok || mod == "lib" {
					t.Fatalf("%s: the gold patch restores %s, not a module of src/", id, f)
				}
				decl := "pub mod " + mod + ";"
				if !strings.Contains(src, decl) {
					t.Fatalf("%s: lib.rs has no %q", id, decl)
				}
				src = strings.Replace(src, decl, fmt.Sprintf("#[path = %q]\n%s", filepath.Join(planted, f), decl), 1)
			}
			if err := os.WriteFile(lib, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		})})
	}
	predFile := filepath.Join(dir, "planter.jsonl")
	writePredictions(t, predFile, preds...)
	evalOut := filepath.Join(dir, "eval-1")
	// An infra-failure exits 1; the reports still say what happened.
	runEval(t, cacheDir, "--tasks", tasks, "--predictions", predFile, "--out", evalOut)
	for _, id := range ids {
		for _, model := range []string{"planter", "door"} {
			rep := readReport(t, evalOut, model, id)
			if rep.Resolved {
				t.Errorf("%s/%s: resolved", model, id)
			}
			t.Logf("%s/%s: %s (%s)", model, id, rep.Outcome, rep.StageI.InfraFailure)
			if model != "door" {
				continue
			}
			// Unresolved because rustc found no planted file, not for a
			// reason of its own.
			if rep.StageI.Log == nil {
				t.Errorf("door/%s: stage I has no log", id)
				continue
			}
			log := readFile(t, filepath.Join(evalOut, model, id, rep.StageI.Log.Path))
			if !strings.Contains(log, "couldn't read") || !strings.Contains(log, planted) {
				t.Errorf("door/%s: the stage I log does not say rustc could not read the planted sources; outcome %s, failing %v, not graded %q:\n%s",
					id, rep.Outcome, rep.StageI.Failing, rep.StageI.NotGraded, tail(log, 40))
			}
		}
	}
	// The shared CARGO_HOME is as the fetch left it.
	if info, err := os.Lstat(filepath.Join(cargoHome, ".package-cache")); err == nil && !info.Mode().IsRegular() {
		t.Errorf("the planter replaced the shared CARGO_HOME's .package-cache (%v)", info.Mode())
	}
	err := filepath.WalkDir(cargoHome, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(cargoHome, p); rel == "config.toml" || strings.Contains(rel, "osbench-planted") {
			t.Errorf("the planter's %s is in the shared CARGO_HOME", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// A later eval on the same cache: the innocent gold patches.
	var later [][3]string
	for _, id := range ids {
		later = append(later, [3]string{id, "later", agentPatch(t, repo(id), func(dir string) {
			applyGold(t, dir, tasks, id)
			f, err := os.OpenFile(filepath.Join(dir, "Cargo.toml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("# innocent, evaluated after the planter\n"); err != nil {
				t.Fatal(err)
			}
		})})
	}
	laterFile := filepath.Join(dir, "later.jsonl")
	writePredictions(t, laterFile, later...)
	laterOut := filepath.Join(dir, "eval-2")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", laterFile, "--out", laterOut)
	if r.code != 0 {
		t.Errorf("later eval: exit %d\n%s%s", r.code, r.stdout, tail(r.stderr, 30))
	}
	if len(r.ran) == 0 {
		t.Errorf("the later eval ran nothing: its runs were served from the cache, the test proves nothing")
	}
	checkResolved(t, laterOut, "later", ids)
}

// applyGold applies a task's gold patch to a copy of its masked repo.
func applyGold(t *testing.T, dir, tasks, id string) {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "apply")
	cmd.Stdin = strings.NewReader(goldPatch(t, tasks, id))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gold patch of %s: %v\n%s", id, err, out)
	}
}

// copyCacheOwnCargoHome is copyCache with a copy of the corpus's cargo
// state (tens of kilobytes) instead of a link to it; the rest of the
// state (the Go caches, the Wine prefixes) is shared.
func copyCacheOwnCargoHome(dst string) error {
	for _, sub := range []string{"ac", "cas", "history"} {
		if err := copyTree(filepath.Join(corpusCache, sub), filepath.Join(dst, sub)); err != nil {
			return err
		}
	}
	state := filepath.Join(dst, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Join(corpusCache, "state"))
	if err != nil {
		return err
	}
	for _, e := range entries {
		src := filepath.Join(corpusCache, "state", e.Name())
		if e.Name() == "cargo" {
			if out, err := exec.Command("cp", "-a", src, filepath.Join(state, e.Name())).CombinedOutput(); err != nil {
				return fmt.Errorf("copying %s: %v: %s", src, err, out)
			}
			continue
		}
		if err := os.Symlink(src, filepath.Join(state, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
