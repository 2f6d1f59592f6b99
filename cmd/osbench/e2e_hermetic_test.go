package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
)

// The network class of issue 19, as fixtures of ours against the example
// tasks: patches that reach for a dependency outside the task's locked set
// (a Go require of a real module from the proxy, the stand-in for the
// task's own published module; a crate added to Cargo.toml; the task's own
// crate under another name) are rejected with the reason and run nothing,
// and the gold patches, evaluated in the same eval, all resolve — served
// from the build's own runs, since the evaluation's test runs are keyed by
// the task's lock files as the build's were.
func TestEvalDependencyOutsideLockedSet(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	repo := func(id string) string { return filepath.Join(out, "tasks", id, "repo") }
	edit := func(dir, file string, f func(string) string) {
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("git", "-C", dir, "add", "--intent-to-add", file).CombinedOutput(); err != nil {
			t.Fatalf("git add: %v\n%s", err, out)
		}
	}
	type case_ struct {
		id, patch, want string
	}
	goTask := "pathsep__windows-to-linux"
	rustTask := "rsplat__windows-to-linux"
	cases := []case_{
		{goTask, agentPatch(t, repo(goTask), func(dir string) {
			edit(dir, "go.mod", func(s string) string { return s + "\nrequire github.com/mitchellh/go-homedir v1.1.0\n" })
			edit(dir, "home.go", func(string) string {
				return "package pathsep\n\nimport \"github.com/mitchellh/go-homedir\"\n\nvar _ = homedir.Dir\n"
			})
		}), "patch adds dependency github.com/mitchellh/go-homedir@v1.1.0 not in the task's locked set"},
		{rustTask, agentPatch(t, repo(rustTask), func(dir string) {
			edit(dir, "Cargo.toml", func(s string) string { return s + "filetime = \"0.2\"\n" })
		}), "patch adds dependency crate filetime (crates.io) not in the task's locked set"},
		{rustTask, agentPatch(t, repo(rustTask), func(dir string) {
			edit(dir, "Cargo.toml", func(s string) string { return s + "original = { package = \"rsplat\", version = \"0.1.0\" }\n" })
		}), "patch adds dependency crate rsplat (crates.io) not in the task's locked set"},
	}
	var preds [][3]string
	for i, c := range cases {
		preds = append(preds, [3]string{c.id, "outside" + string(rune('a'+i)), c.patch})
	}
	predFile := filepath.Join(t.TempDir(), "outside.jsonl")
	writePredictions(t, predFile, preds...)
	evalOut := filepath.Join(out, "eval-outside")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", predFile, "--out", evalOut)
	if r.code != 0 {
		t.Fatalf("eval: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ids := taskIDs(t, tasks)
	if g := readSummary(t, evalOut)["gold"]; g.Total != len(ids) || g.Resolved != len(ids) {
		t.Errorf("gold: %d of %d resolved; want all", g.Resolved, g.Total)
	}
	// The evaluation's runs are keyed by the task's lock files (its own
	// deps step), the build's by the repository's: the same skeleton, so
	// the gold runs are the build's gold re-runs, and nothing is tested.
	for _, id := range r.ran {
		if strings.HasSuffix(id, "/test") {
			t.Errorf("eval ran test step %s: the gold runs must be served from the build, and a rejected patch runs nothing", id)
		}
	}
	for i, c := range cases {
		rep := readReport(t, evalOut, "outside"+string(rune('a'+i)), c.id)
		if rep.Outcome != schemas.OutcomePatchRejected || rep.Apply.Reason != c.want || rep.StageI.Ran {
			t.Errorf("%s (%d): outcome %s, reason %q, stage I ran %v; want patch-rejected, %q", c.id, i, rep.Outcome, rep.Apply.Reason, rep.StageI.Ran, c.want)
		}
	}
	// The tasks record what they lock.
	for _, line := range strings.Split(readFile(t, tasks), "\n") {
		if strings.Contains(line, `"instance_id":"`+goTask+`"`) && !strings.Contains(line, `"locked_deps":{"digest":"sha256:`) {
			t.Errorf("%s records no locked set: %s", goTask, line)
		}
	}
}

// TestEvalBuildTimeDownload is the build-time door: a CMake step that
// downloads the gold patch (from a server of the test's on a host address,
// the stand-in for the original archive on the registries) and applies it
// before the build. Without the network the download fails and the task
// stays unresolved with the masked code; the innocent gold patch resolves.
// It needs the executor's network namespace (the sandbox branch): where a
// command without Cmd.Network still reaches the host's addresses, the test
// says so and stops, since the outcome it checks is not the one osbench
// can give there.
func TestEvalBuildTimeDownload(t *testing.T) {
	addr := hostAddress(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	gold := map[string]string{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(gold[strings.TrimPrefix(r.URL.Path, "/")]))
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + "/"
	if reachable(t, ln.Addr().String()) {
		t.Skip("commands without Cmd.Network reach the host's addresses: the executor's network namespace (the sandbox branch) is not there, and a build-time download succeeds")
	}

	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	id := "cpath__windows-to-linux"
	for _, line := range strings.Split(readFile(t, tasks), "\n") {
		var task schemas.Task
		if json.Unmarshal([]byte(line), &task) == nil && task.InstanceID == id {
			gold[id] = task.Patch
		}
	}
	if gold[id] == "" {
		t.Fatalf("no task %s", id)
	}
	patch := agentPatch(t, filepath.Join(out, "tasks", id, "repo"), func(dir string) {
		p := filepath.Join(dir, "CMakeLists.txt")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fetch := "execute_process(COMMAND sh -c \"curl -sf -m 20 " + url + id + " | patch -p1 --forward\" WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n"
		if err := os.WriteFile(p, append([]byte(fetch), b...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	predFile := filepath.Join(t.TempDir(), "download.jsonl")
	writePredictions(t, predFile, [3]string{id, "download", patch})
	evalOut := filepath.Join(out, "eval-download")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", predFile, "--out", evalOut)
	if r.code != 0 {
		t.Fatalf("eval: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if rep := readReport(t, evalOut, "gold", id); !rep.Resolved {
		t.Errorf("gold/%s: %s", id, rep.Outcome)
	}
	rep := readReport(t, evalOut, "download", id)
	if rep.Resolved || !rep.StageI.Ran {
		t.Errorf("download/%s: resolved %v, stage I ran %v: the build-time download reached the server", id, rep.Resolved, rep.StageI.Ran)
	}
	if !rep.TamperSuspected {
		t.Errorf("download/%s: not tamper-suspected (build-time-download)", id)
	}
}

// hostAddress is an address of this host other than loopback, which a
// command in a network namespace of its own cannot reach.
func hostAddress(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("no non-loopback address")
	return ""
}

// reachable reports whether a command run by the local executor without
// the network connects to addr.
func reachable(t *testing.T, addr string) bool {
	ex, err := executors.New(executors.LocalName, executors.Config{StateDir: reachableTempDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(addr)
	res, err := ex.Run(context.Background(), executors.Cmd{
		Argv: []string{"bash", "-c", "exec 3<>/dev/tcp/" + host + "/" + port}, WorkDir: reachableTempDir(t),
		Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.ExitCode == 0
}
