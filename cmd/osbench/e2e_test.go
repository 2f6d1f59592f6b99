package main

// End-to-end tests drive the real osbench binary on the bundled examples,
// with real git, the real Go toolchain and the real local executor. The
// binary is built once (TestMain); the example corpus is built once into a
// shared cache by the first test that needs it (requireCorpus), so a -run
// of tests that do not need it does not pay for it. Every test then works on
// its own copy of the cache's records and shares only the tool caches
// (GOCACHE, module cache), which are safe to share.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
	"github.com/osbench/osbench/schemas"
)

var (
	osbenchBin  string // built once
	corpusCache string // the examples, built once
	repoRoot    string // this checkout
	setupErr    error  // building the binary

	corpusOnce sync.Once
	corpusErr  error // building the corpus
	corpusTmp  string
)

func TestMain(m *testing.M) {
	code := func() int {
		tmp, err := os.MkdirTemp("", "osbench-e2e-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		// Test commands run as an unprivileged user when the tests run as
		// root; it must be able to reach the work dirs under the cache.
		os.Chmod(tmp, 0o755)
		corpusTmp = tmp
		setupErr = setupBinary(tmp)
		return m.Run()
	}()
	os.Exit(code)
}

func setupBinary(tmp string) error {
	wd, _ := os.Getwd()
	repoRoot = filepath.Clean(filepath.Join(wd, "..", ".."))
	osbenchBin = filepath.Join(tmp, "bin", "osbench")
	corpusCache = filepath.Join(tmp, "corpus-cache")
	// A developer iterating on one test can keep the example corpus's cache
	// between runs: the build then reruns only what the change touched.
	// make test never sets it.
	if dir := os.Getenv("OSBENCH_E2E_CACHE"); dir != "" {
		corpusCache = dir
	}
	build := exec.Command("go", "build", "-o", osbenchBin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

func setupCorpus(tmp string) error {
	examples := filepath.Join(tmp, "examples")
	if err := copyExamples(examples); err != nil {
		return err
	}
	cmd := exec.Command(osbenchBin, "--cache-dir", corpusCache, "build", examples)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the example corpus: %v\n%s", err, out)
	}
	return nil
}

// copyExamples writes the bundled example manifests into dir with their
// relative source paths made absolute, so they compile to the same keys.
func copyExamples(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src := filepath.Join(repoRoot, "manifests", "examples")
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".hcl" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte(`"../../testdata/repos/`), []byte(`"`+filepath.Join(repoRoot, "testdata", "repos")+"/"))
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyCache gives a test its own cache holding the corpus's records, blobs
// and history, sharing the tool caches under state/.
func copyCache(dst string) error {
	for _, sub := range []string{"ac", "cas", "history"} {
		if err := copyTree(filepath.Join(corpusCache, sub), filepath.Join(dst, sub)); err != nil {
			return err
		}
	}
	return os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(dst, "state"))
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// requireBinary fails t when the osbench binary could not be built.
func requireBinary(t testing.TB) {
	t.Helper()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
}

// requireCorpus builds the example corpus into corpusCache on first use.
func requireCorpus(t testing.TB) {
	t.Helper()
	requireBinary(t)
	corpusOnce.Do(func() { corpusErr = setupCorpus(corpusTmp) })
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
}

func TestScripts(t *testing.T) {
	requireCorpus(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		WorkdirRoot:         reachableTempDir(t),
		RequireExplicitExec: true,
		// [root]: osbench runs as root, so user = "root" in a manifest
		// keeps root (otherwise it changes nothing).
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			if cond == "mini" {
				return miniVenv() != "", nil
			}
			if cond == "codex" {
				return codexDir() != "", nil
			}
			if cond == "nginx" {
				// False only when nginx is absent and apt cannot install
				// it; absent but installable, the nginx command fails.
				ok, installable := nginxtest.Installed()
				return ok || installable, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			cache := filepath.Join(env.WorkDir, "cache")
			if err := copyCache(cache); err != nil {
				return err
			}
			env.Setenv("OSBENCH_CACHE", cache)
			env.Setenv("PATH", filepath.Dir(osbenchBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			env.Setenv("REPOS", filepath.Join(repoRoot, "testdata", "repos"))
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("MINI_VENV", miniVenv())
			env.Setenv("CODEX_DIR", codexDir())
			env.Setenv("AGENTS", filepath.Join(repoRoot, "manifests", "agents"))
			return copyExamples(filepath.Join(env.WorkDir, "examples"))
		},
		Cmds: withAgentCmds(withTaskCmds(withRemoteCmds(map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// resolved SUMMARY MODEL all|none: summary.json says the model
			// resolved every one of its (one or more) tasks, or none.
			"resolved": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 || (args[2] != "all" && args[2] != "none") {
					ts.Fatalf("usage: resolved SUMMARY MODEL all|none")
				}
				var sum schemas.EvalSummary
				ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &sum))
				for _, m := range sum.Models {
					if m.Model != args[1] {
						continue
					}
					want := 0
					if args[2] == "all" {
						want = m.Total
					}
					if m.Total == 0 || (m.Resolved == want) == neg {
						ts.Fatalf("%s resolved %d of %d tasks; want %s", args[1], m.Resolved, m.Total, args[2])
					}
					return
				}
				ts.Fatalf("%s has no model %s", args[0], args[1])
			},
			// replace FILE OLD NEW: edit a manifest in place (\n in NEW is a newline).
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: replace FILE OLD NEW")
				}
				p := ts.MkAbs(args[0])
				b, err := os.ReadFile(p)
				ts.Check(err)
				if !bytes.Contains(b, []byte(args[1])) {
					ts.Fatalf("%s does not contain %q", args[0], args[1])
				}
				repl := strings.ReplaceAll(args[2], `\n`, "\n")
				ts.Check(os.WriteFile(p, bytes.Replace(b, []byte(args[1]), []byte(repl), 1), 0o644))
			},
		}))),
	})
}

func withRemoteCmds(cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	for name, fn := range remoteCmds {
		cmds[name] = fn
	}
	return cmds
}

// run executes the binary and returns stdout, stderr and the exit code.
func runOsbench(t testing.TB, cacheDir string, args ...string) (string, string, int) {
	t.Helper()
	return runOsbenchCmd(t, exec.Command(osbenchBin, append([]string{"--cache-dir", cacheDir}, args...)...))
}

// runOsbenchCmd runs a prepared osbench command and returns stdout, stderr
// and the exit code.
func runOsbenchCmd(t testing.TB, cmd *exec.Cmd) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// reachableTempDir is t.TempDir made traversable by the unprivileged user
// that runs test commands (t.TempDir creates 0700 directories).
func reachableTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if strings.HasPrefix(filepath.Base(d), "Test") || filepath.Dir(d) == os.TempDir() || d == dir {
			os.Chmod(d, 0o755)
		}
		if filepath.Dir(d) == os.TempDir() {
			break
		}
	}
	return dir
}
