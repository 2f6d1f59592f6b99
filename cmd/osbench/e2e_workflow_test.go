package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
)

// The parts of a GitHub Actions workflow the test reads.
type workflow struct {
	Env  map[string]string
	Jobs map[string]*workflowJob
}

type workflowJob struct {
	Needs    any    `yaml:"needs"`
	RunsOn   string `yaml:"runs-on"`
	Strategy struct {
		Matrix map[string]any `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []struct {
		Uses  string            `yaml:"uses"`
		Run   string            `yaml:"run"`
		With  map[string]string `yaml:"with"`
		Shell string            `yaml:"shell"`
	} `yaml:"steps"`
}

func (j *workflowJob) needs() []string {
	switch n := j.Needs.(type) {
	case string:
		return []string{n}
	case []any:
		var out []string
		for _, x := range n {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

// combos expands the job's matrix: the product of its lists, or its
// include entries when it has nothing else.
func (j *workflowJob) combos(t *testing.T) []map[string]string {
	m := j.Strategy.Matrix
	if len(m) == 0 {
		return []map[string]string{{}}
	}
	combos := []map[string]string{{}}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "include" {
			continue
		}
		vals, ok := m[k].([]any)
		if !ok {
			t.Fatalf("matrix %s is not a list", k)
		}
		var next []map[string]string
		for _, c := range combos {
			for _, v := range vals {
				n := map[string]string{k: fmt.Sprint(v)}
				for ck, cv := range c {
					n[ck] = cv
				}
				next = append(next, n)
			}
		}
		combos = next
	}
	if inc, ok := m["include"].([]any); ok {
		if len(keys) > 1 {
			t.Fatalf("the test expands a matrix of lists or of include entries, not both")
		}
		combos = nil
		for _, e := range inc {
			c := map[string]string{}
			for k, v := range e.(map[string]any) {
				c[k] = fmt.Sprint(v)
			}
			combos = append(combos, c)
		}
	}
	return combos
}

var exprRe = regexp.MustCompile(`\$\{\{\s*([a-z]+)\.([A-Za-z_-]+)\s*\}\}`)

// The example workflow parses, its artifacts line up, and its osbench
// commands, run here job by job (each job a fresh empty cache) against one
// nginx remote cache seeded by an earlier run, give: every build step a
// download, and from two eval shards merged by report the summary.json a
// single eval writes, byte for byte.
func TestExampleWorkflow(t *testing.T) {
	requireCorpus(t)
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "ci", "osbench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("docs/ci/osbench.yml: %v", err)
	}
	for _, k := range []string{"OSBENCH_REMOTE_CACHE", "OSBENCH_REMOTE_CACHE_TOKEN", "OSBENCH_REMOTE_READ_ONLY"} {
		if _, ok := wf.Env[k]; !ok {
			t.Errorf("the workflow does not set %s for its jobs", k)
		}
	}
	var linux, windows bool
	for _, j := range wf.Jobs {
		linux = linux || strings.HasPrefix(j.RunsOn, "ubuntu")
		windows = windows || strings.HasPrefix(j.RunsOn, "windows")
	}
	if !linux || !windows {
		t.Fatalf("the workflow needs a Linux and a Windows job")
	}
	order := jobOrder(t, wf)
	checkArtifacts(t, wf, order)

	srv := nginxtest.Start(t, nginxtest.Options{Token: "ci-token"})
	work := reachableTempDir(t)
	checkout := filepath.Join(work, "checkout")
	if err := copyExamples(filepath.Join(checkout, "manifests", "examples")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"OSBENCH_REMOTE_CACHE="+srv.URL+"/ci", "OSBENCH_REMOTE_CACHE_TOKEN=ci-token", "OSBENCH_REMOTE_READ_ONLY=false")
	run := func(cacheDir string, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(osbenchBin, append([]string{"--cache-dir", cacheDir}, args...)...)
		cmd.Dir, cmd.Env = checkout, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("osbench %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		if strings.Contains(stdout.String()+stderr.String(), "ci-token") {
			t.Errorf("osbench %s printed the token", strings.Join(args, " "))
		}
		return stdout.String(), stderr.String()
	}
	// An earlier run of the workflow filled the cache.
	seed := filepath.Join(work, "seed-cache")
	if err := copyCache(seed); err != nil {
		t.Fatal(err)
	}
	run(seed, "cache", "push")

	ran := map[string]int{}
	for _, name := range order {
		job := wf.Jobs[name]
		onWindows := strings.HasPrefix(job.RunsOn, "windows")
		for i, combo := range job.combos(t) {
			cacheDir := filepath.Join(work, fmt.Sprintf("cache-%s-%d", name, i)) // a fresh machine
			for _, st := range job.Steps {
				line := strings.TrimSpace(st.Run)
				if !strings.HasPrefix(line, "bin/osbench ") {
					continue
				}
				if strings.ContainsAny(line, "'\"|;&$\n") && !strings.Contains(line, "${{") {
					t.Fatalf("job %s: %q is not a plain command", name, line)
				}
				line = exprRe.ReplaceAllStringFunc(line, func(e string) string {
					m := exprRe.FindStringSubmatch(e)
					switch {
					case m[1] == "matrix" && combo[m[2]] != "":
						return combo[m[2]]
					case m[1] == "env" && wf.Env[m[2]] != "":
						return wf.Env[m[2]]
					}
					t.Fatalf("job %s: cannot evaluate %s here", name, e)
					return ""
				})
				args := strings.Fields(line)[1:]
				if onWindows && args[0] == "build" {
					// This host cannot run Windows binaries natively: the
					// Windows job's command is planned, not built.
					args[0] = "plan"
				}
				stdout, stderr := run(cacheDir, args...)
				t.Logf("%s %v: osbench %s\n%s", name, combo, strings.Join(args, " "), lastLine(stdout))
				if args[0] == "build" {
					// Everything is downloaded; a shard runs only its
					// corpus-wide tasks step, which lists that shard's
					// tasks (a new key, and a cheap one).
					want := "0"
					if strings.Contains(line, "--shard") {
						want = "1"
						if !strings.Contains(stderr, "step=tasks ") {
							t.Errorf("job %s: the step that ran is not the tasks list:\n%s", name, stderr)
						}
					}
					m := regexp.MustCompile(`(?m)^(\d+) steps: (\d+) cached, (\d+) ran, 0 failed$`).FindStringSubmatch(stdout)
					if m == nil || m[3] != want || atoi(m[1]) != atoi(m[2])+atoi(want) {
						t.Errorf("job %s: build did not download everything:\n%s%s", name, stdout, stderr)
					}
					if !strings.Contains(line, "--shard") {
						continue
					}
					if m := regexp.MustCompile(`shard \d/\d: (\d+) of`).FindStringSubmatch(stderr); m != nil {
						ran[name] += atoi(m[1])
					}
				}
			}
		}
	}
	if ran["build-linux"] != 6 {
		t.Errorf("the build-linux shards built %d repositories together, want the 6 examples", ran["build-linux"])
	}

	// The same evaluation in one job.
	single := filepath.Join(work, "single")
	run(filepath.Join(work, "cache-single"), "eval", "--tasks", "out/tasks.jsonl", "--predictions", wf.Env["PREDICTIONS"], "--out", single)
	want, err := os.ReadFile(filepath.Join(single, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(checkout, "eval", "summary.json"))
	if err != nil {
		t.Fatalf("the report job wrote no summary: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("merged summary.json differs from a single run's:\n%s\nwant:\n%s", got, want)
	}
	for i := 1; i <= 2; i++ {
		s, _ := os.ReadFile(filepath.Join(checkout, "shards", fmt.Sprintf("eval-%d", i), "summary.json"))
		if bytes.Equal(s, want) {
			t.Errorf("shard %d alone gives the whole summary: the split did nothing", i)
		}
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// jobOrder sorts the jobs so that each comes after what it needs.
func jobOrder(t *testing.T, wf workflow) []string {
	var order []string
	done := map[string]bool{}
	names := make([]string, 0, len(wf.Jobs))
	for n := range wf.Jobs {
		names = append(names, n)
	}
	sort.Strings(names)
	for len(order) < len(names) {
		progress := false
		for _, n := range names {
			if done[n] {
				continue
			}
			ready := true
			for _, need := range wf.Jobs[n].needs() {
				if wf.Jobs[need] == nil {
					t.Fatalf("job %s needs %s, which is not a job", n, need)
				}
				ready = ready && done[need]
			}
			if ready {
				order = append(order, n)
				done[n] = true
				progress = true
			}
		}
		if !progress {
			t.Fatalf("the jobs' needs form a cycle")
		}
	}
	return order
}

// checkArtifacts: every artifact a job downloads was uploaded by a job it
// (transitively) needs, and lands where the uploader had it, since the
// commands use the same paths on both sides.
func checkArtifacts(t *testing.T, wf workflow, order []string) {
	uploaded := map[string]string{} // name (matrix expressions kept) → path
	for _, n := range order {
		for _, st := range wf.Jobs[n].Steps {
			switch {
			case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
				uploaded[st.With["name"]] = st.With["path"]
			case strings.HasPrefix(st.Uses, "actions/download-artifact@"):
				if name := st.With["name"]; name != "" {
					if p, ok := uploaded[name]; !ok || p != st.With["path"] {
						t.Errorf("job %s downloads %s to %s; uploaded: %q", n, name, st.With["path"], p)
					}
					continue
				}
				matched := 0
				for name, p := range uploaded {
					if ok, _ := path.Match(st.With["pattern"], name); ok {
						matched++
						// Several artifacts land in path/<name>.
						if path.Join(st.With["path"], name) != p {
							t.Errorf("job %s downloads %s to %s, uploaded from %s", n, name, path.Join(st.With["path"], name), p)
						}
					}
				}
				if matched == 0 {
					t.Errorf("job %s downloads %s, which no job before it uploads", n, st.With["pattern"])
				}
			}
		}
	}
}
