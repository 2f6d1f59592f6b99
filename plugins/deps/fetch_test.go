package deps_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolenv"
)

// TestGoOfflineAfterFetch fetches a module's locked dependencies (a real
// module from the proxy) through the local executor into an empty module
// cache, then runs `go test` offline as the test step does: the locked
// module builds, and a module the lock files do not pin — the patch's new
// require — is not downloaded. With the online environment (the defence
// off) the same require downloads and builds. Needs the module proxy.
func TestGoOfflineAfterFetch(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	ctx := context.Background()
	// A root osbench runs commands as an unprivileged uid, which must
	// traverse the test's directories.
	reachable := func(dir string) string {
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	state := reachable(t.TempDir())
	stateDir := func(parts ...string) (string, error) {
		d := filepath.Join(append([]string{state}, parts...)...)
		return d, os.MkdirAll(d, 0o755)
	}
	ex, err := toolenv.Executor(stateDir, executors.LocalName)
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(reachable(t.TempDir()), "w")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	env, writable, err := toolenv.Env(stateDir, work, "go", "", "linux")
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(work, "repo")
	write := func(name, body string) {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module ex\n\ngo 1.22\n\nrequire github.com/mitchellh/go-homedir v1.1.0\n")
	write("go.sum", "github.com/mitchellh/go-homedir v1.1.0 h1:lukF9ziXFxDFPkA1vsr5zpc1XuPDn/wFntq5mG+4E0Y=\ngithub.com/mitchellh/go-homedir v1.1.0/go.mod h1:SfyaCUpYCn1Vlf4IUYiD9fPX4A5wJrkLzIz1N1q0pr0=\n")
	write("a.go", "package ex\n\nimport \"github.com/mitchellh/go-homedir\"\n\nfunc Home() (string, error) { return homedir.Dir() }\n")
	write("a_test.go", "package ex\n\nimport \"testing\"\n\nfunc TestHome(t *testing.T) {\n\tif _, err := Home(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n")

	lock := filepath.Join(work, "lock")
	if err := deps.WriteSkeleton(deps.Go, repo, lock); err != nil {
		t.Fatal(err)
	}
	var flog bytes.Buffer
	argv, err := deps.Fetch(ctx, ex, deps.Go, lock, executors.Cmd{Env: env, Timeout: 5 * time.Minute, WorkDir: work, WritableDirs: writable}, &flog)
	if err != nil {
		t.Fatalf("fetch %v: %v\n%s", argv, err, flog.String())
	}
	run := func(offline bool) (int, string) {
		e, w, ro := toolenv.Merge(append([]string(nil), env...), map[string]string{"GOFLAGS": "-mod=mod"}), writable, []string(nil)
		if offline {
			e, w, ro, _ = toolenv.Offline(env, writable, "go")
		}
		var out bytes.Buffer
		res, err := ex.Run(ctx, executors.Cmd{Argv: []string{"go", "test", "-count=1", "./..."}, Dir: repo, Env: e,
			Stdout: &out, Stderr: &out, Timeout: 5 * time.Minute, WorkDir: work, WritableDirs: w, ReadOnlyDirs: ro,
			// The defence off is the online environment with the network.
			Network: !offline})
		if err != nil {
			t.Fatal(err)
		}
		return res.ExitCode, out.String()
	}
	if code, out := run(true); code != 0 {
		t.Fatalf("offline test after the fetch: exit %d\n%s", code, out)
	}
	// The patch requires a module the lock files do not pin.
	write("go.mod", "module ex\n\ngo 1.22\n\nrequire (\n\tgithub.com/mitchellh/go-homedir v1.1.0\n\tgithub.com/kardianos/osext v0.0.0-20190222173326-2bc1f35cddc0\n)\n")
	write("b.go", "package ex\n\nimport \"github.com/kardianos/osext\"\n\nfunc Exe() (string, error) { return osext.Executable() }\n")
	code, out := run(true)
	if code == 0 || !strings.Contains(out, "kardianos/osext") {
		t.Fatalf("offline, a module outside the lock files built (exit %d):\n%s", code, out)
	}
	// Its only proxy is the module cache, which it may not write.
	modcache := strings.TrimPrefix(env[slicesIndex(env, "GOMODCACHE=")], "GOMODCACHE=")
	if _, err := os.Stat(filepath.Join(modcache, "github.com", "kardianos")); err == nil {
		t.Errorf("offline run put the module in the cache:\n%s", out)
	}
	// The defence off: the same tree online downloads the module.
	if code, out := run(false); code != 0 || !strings.Contains(out, "downloading github.com/kardianos/osext") {
		t.Errorf("online (the defence off) exit %d, want a download and a pass:\n%s", code, out)
	}
}

func slicesIndex(env []string, prefix string) int {
	for i, kv := range env {
		if strings.HasPrefix(kv, prefix) {
			return i
		}
	}
	return 0
}
