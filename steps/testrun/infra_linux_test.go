//go:build linux

package testrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
)

// infraTestStep is a test step of a tiny repository whose test command is
// a shell script printing libtest's lines (or go test).
func infraTestStep(argv []string, parser, timeout string, env map[string]string) []*engine.Step {
	files := map[string]string{"README": "a repository\n", "go.mod": "module ex\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"}
	if env == nil {
		env = map[string]string{}
	}
	return []*engine.Step{
		enginetest.Files("r/checkout", "source", files),
		{
			ID: "r/linux/test", Kind: Kind, Group: "r",
			Config: []engine.Field{
				{Name: "repository", Value: "r"}, {Name: "platform", Value: "linux"}, {Name: "language", Value: "shell"},
				{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
				{Name: "env", Value: env}, {Name: "test", Value: map[string]any{"argv": argv}},
				{Name: "timeout", Value: timeout}, {Name: "parser", Value: parser}, {Name: "skip", Value: []string{}},
			},
			Inputs: []engine.Input{{Name: "source", Step: "r/checkout"}},
		},
	}
}

func buildInfra(t *testing.T, cacheDir string, steps []*engine.Step) (*engine.Report, *engine.Engine) {
	t.Helper()
	c, err := cache.Open(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{Jobs: 1, KeepGoing: true, InfraRetries: 1, InfraBackoff: 10 * time.Millisecond})
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return rep, e
}

const passLines = `echo "running 1 test"; echo "test t::a ... ok"; echo; echo "test result: ok. 1 passed; 0 failed; 0 ignored"`

// TestMachineFailuresAreInfrastructure provokes each failure of the
// machine for real through the local executor: the step fails as
// infrastructure with its cause, was retried, and nothing is cached; and a
// timeout of the code (one that reproduces) is still a cached result.
func TestMachineFailuresAreInfrastructure(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		timeout   string
		wantInfra string // "" = the step succeeds, cached
		wantLog   string
	}{
		{"timed out before any test started", `echo "   Compiling dep v1.0.0"; sleep 60`, "1s", CauseNotStarted, "without starting a test"},
		{"killed by a SIGKILL osbench did not send", `echo "running 1 test"; kill -KILL $$`, "1m", CauseKilled, "SIGKILL"},
		{"full disk in the output", `echo "running 1 test"; echo "error: write target/x: No space left on device (os error 28)" >&2; exit 101`, "1m", engine.CauseNoSpace, "No space left"},
		{"tool-install race", `echo "go: downloading go1.25.0 (linux/amd64)"; echo "go: chmod /c/toolchain@v0.0.1-go1.25.0.linux-amd64/pkg/tool/linux_amd64/asm: operation not permitted" >&2; exit 1`, "1m", CauseToolInstall, "operation not permitted"},
		{"a hang that reproduces is the code's", `echo "running 1 test"; sleep 60`, "1s", "", "the timeout reproduced"},
		{"a timeout that does not reproduce is the machine's", `if [ -e ../first ]; then ` + passLines + `; else touch ../first; echo "running 1 test"; sleep 60; fi`, "2s", "", "the second run did not time out"},
		{"a passing suite may print the words", `echo "running 1 test"; echo "test t::a ... ok"; echo "(checked: no space left on device is reported)"; echo; echo "test result: ok. 1 passed; 0 failed; 0 ignored"`, "1m", "", "test result: ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			rep, e := buildInfra(t, dir, infraTestStep([]string{"sh", "-c", tt.script}, "libtest", tt.timeout, nil))
			r := rep.Step("r/linux/test")
			log := stepLog(t, e, r)
			if r.Infra != tt.wantInfra {
				t.Fatalf("infra %q (status %s, error %q), want %q; log:\n%s", r.Infra, r.Status, r.Error, tt.wantInfra, log)
			}
			if !strings.Contains(log, tt.wantLog) {
				t.Errorf("log lacks %q:\n%s", tt.wantLog, log)
			}
			checkCaching(t, e, r, tt.wantInfra != "", log)
		})
	}
}

// checkCaching checks what became of a step's run: an infrastructure
// failure failed, was retried once and left nothing cached; any other run
// ran, was cached and was not retried.
func checkCaching(t *testing.T, e *engine.Engine, r *engine.StepResult, infra bool, log string) {
	t.Helper()
	rec, err := e.Cache().GetAction(r.Key)
	cached := err == nil && !rec.Failed
	if infra {
		if r.Status != engine.StatusFailed || len(r.Retries) != 1 || cached {
			t.Errorf("status %s, %d retries, cached %v; want failed, 1 retry, not cached; log:\n%s", r.Status, len(r.Retries), cached, log)
		}
		return
	}
	if r.Status != engine.StatusRan || !cached || len(r.Retries) != 0 {
		t.Errorf("status %s (%s), cached %v, %d retries; want ran, cached, none; log:\n%s", r.Status, r.Error, cached, len(r.Retries), log)
	}
}

// stepLog reads the log of a step's last run, passed or failed.
func stepLog(t *testing.T, e *engine.Engine, r *engine.StepResult) string {
	t.Helper()
	rec, err := e.Cache().GetAction(r.Key)
	if err != nil {
		return "(no record: " + err.Error() + ")"
	}
	for _, o := range rec.Side {
		if o.Name == "test.log" {
			b, err := e.Cache().ReadBytes(o.Digest)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	return "(no log)"
}

// TestFullDiskDuringTheTests runs a suite on a cache whose disk (a small
// tmpfs) fills up while the tests write: the step fails as infrastructure
// (not "missing", not cached), and with room again the rerun completes.
func TestFullDiskDuringTheTests(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m", "osbench-test-full", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	script := `echo "running 1 test"; dd if=/dev/zero of=big bs=1M count=32 2>&1; s=$?; rm -f big; [ $s = 0 ] || exit 101; ` + passLines
	steps := infraTestStep([]string{"sh", "-c", script}, "libtest", "1m", nil)
	rep, e := buildInfra(t, filepath.Join(dir, "cache"), steps)
	r := rep.Step("r/linux/test")
	if r.Status != engine.StatusFailed || r.Infra != engine.CauseNoSpace || len(r.Retries) != 1 {
		t.Fatalf("status %s, infra %q, %d retries (%s); want failed, %q, 1 retry; log:\n%s", r.Status, r.Infra, len(r.Retries), r.Error, engine.CauseNoSpace, stepLog(t, e, r))
	}
	if out, err := exec.Command("mount", "-o", "remount,size=128m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, out)
	}
	rep, e = buildInfra(t, filepath.Join(dir, "cache"), steps)
	if r := rep.Step("r/linux/test"); r.Status != engine.StatusRan {
		t.Fatalf("with room: status %s (%s), want ran; log:\n%s", r.Status, r.Error, stepLog(t, e, r))
	}
}

// TestFullDiskSaysNothing: a run that fails while its disk is full, and
// whose output never says so (a build tool's "Cannot open file for
// write", dd's own words thrown away), fails as infrastructure from the
// disk watch alone: not cached, retried, with the free space in its cause.
// Without the watch the same run is a cached failing test.
func TestFullDiskSaysNothing(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m", "osbench-test-full", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	// The disk stays full for a second and a half, longer than a sample
	// period: a real spell lasts minutes.
	script := `echo "running 1 test"; dd if=/dev/zero of=big bs=1M count=32 >/dev/null 2>&1; sleep 1.5; rm -f big; ` +
		`echo "CMake Error: Cannot open file for write: CMakeFiles/cmTC.dir/build.make"; echo "test t ... FAILED"; exit 101`
	steps := infraTestStep([]string{"sh", "-c", script}, "libtest", "1m", nil)
	rep, e := buildInfra(t, filepath.Join(dir, "cache"), steps)
	r := rep.Step("r/linux/test")
	if r.Status != engine.StatusFailed || r.Infra != engine.CauseNoSpace || len(r.Retries) != 1 {
		t.Fatalf("status %s, infra %q, %d retries (%s); want failed, %q, 1 retry; log:\n%s", r.Status, r.Infra, len(r.Retries), r.Error, engine.CauseNoSpace, stepLog(t, e, r))
	}
	if !strings.Contains(r.Error, "free during the run") {
		t.Errorf("the cause does not name the free space: %s", r.Error)
	}
}

// TestSlowCompileIsNotATestTimeout gives a Go suite a test budget (10 s)
// below what compiling it takes: -toolexec makes the compile of its
// package sleep 20 s (the budget of a loaded machine, made certain). The
// compile phase has its own budget, so the tests run and pass instead of
// timing out before they start; without it the run is a timeout before any
// test started.
func TestSlowCompileIsNotATestTimeout(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	env := map[string]string{"CGO_ENABLED": "0", "GOFLAGS": "-mod=mod"}
	slow := `-toolexec=sh -c 'case " $* " in *" -p ex/a "*) sleep 20;; esac; exec "$@"' slowtool`
	steps := infraTestStep([]string{"go", "test", "-count=1", "-json", "-vet=off", slow, "./..."}, "go-test-json", "10s", env)
	steps[1].Config[2].Value = "go"
	rep, e := buildInfra(t, t.TempDir(), steps)
	r := rep.Step("r/linux/test")
	log := stepLog(t, e, r)
	if r.Status != engine.StatusRan {
		t.Fatalf("status %s, infra %q (%s); want ran; log:\n%s", r.Status, r.Infra, r.Error, log)
	}
	a, err := e.Artifacts(r)
	if err != nil {
		t.Fatal(err)
	}
	var tr schemas.TestResults
	if err := a.DecodeJSON("tests.json", &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Tests) != 1 || tr.Tests[0].Status != schemas.StatusPass {
		t.Errorf("tests %+v, want ex/a/TestA pass; log:\n%s", tr.Tests, log)
	}
	if !strings.Contains(log, "[osbench: compile phase exit 0") {
		t.Errorf("no compile phase in the log:\n%s", log)
	}
}

// TestOOMKilledTestIsInfrastructure runs a Go test that allocates and
// touches 1 GiB under a step memory limit of 256 MiB: the kernel's OOM
// killer kills the test binary for real, in the step's own cgroup; go test
// reports "signal: killed". The step fails as infrastructure with the
// cause, was retried, and nothing is cached. With the limit off the same
// suite passes (the host has the memory), so the failure is the limit's.
func TestOOMKilledTestIsInfrastructure(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a memory cgroup per command needs root")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	if executors.HostMemoryBytes() < 4<<30 {
		t.Skip("the host has under 4 GiB: the run without a limit could be killed too")
	}
	big := "package a\n\nimport \"testing\"\n\nfunc TestBig(t *testing.T) {\n\tb := make([]byte, 1<<30)\n\tfor i := 0; i < len(b); i += 4096 {\n\t\tb[i] = 1\n\t}\n\tt.Log(len(b))\n}\n"
	env := map[string]string{"CGO_ENABLED": "0", "GOFLAGS": "-mod=mod"}
	// One cache, so the second run reuses the first's GOCACHE; the OOM
	// run comes first, as it leaves no result to be served.
	cacheDir := t.TempDir()
	for _, tt := range []struct {
		limit     string
		wantInfra string
	}{{"256M", CauseOOM}, {"0", ""}} {
		t.Run("limit "+tt.limit, func(t *testing.T) {
			t.Setenv(executors.MemoryLimitVar, tt.limit)
			steps := infraTestStep([]string{"go", "test", "-count=1", "-json", "-vet=off", "./..."}, "go-test-json", "5m", env)
			steps[1].Config[2].Value = "go"
			steps[0] = enginetest.Files("r/checkout", "source", map[string]string{
				"go.mod": "module ex\n\ngo 1.22\n", "a/a.go": "package a\n", "a/a_test.go": big,
			})
			rep, e := buildInfra(t, cacheDir, steps)
			r := rep.Step("r/linux/test")
			log := stepLog(t, e, r)
			rec, err := e.Cache().GetAction(r.Key)
			cached := err == nil && !rec.Failed
			if tt.wantInfra == "" {
				if r.Status != engine.StatusRan || r.Infra != "" || !cached {
					t.Fatalf("status %s, infra %q (%s), cached %v; want ran, cached; log:\n%s", r.Status, r.Infra, r.Error, cached, log)
				}
				return
			}
			if r.Status != engine.StatusFailed || r.Infra != tt.wantInfra || len(r.Retries) != 1 || cached {
				t.Fatalf("status %s, infra %q, %d retries, cached %v (%s); want failed, %q, 1 retry, not cached; log:\n%s",
					r.Status, r.Infra, len(r.Retries), cached, r.Error, tt.wantInfra, log)
			}
			if !strings.Contains(r.Error, "memory limit of 256 MiB") {
				t.Errorf("error %q does not name the limit", r.Error)
			}
		})
	}
}

// TestStepOverItsDiskLimit: a test that writes past the step's disk limit
// (OSBENCH_STEP_DISK) is stopped by the executor and fails as
// infrastructure with the quota's cause, retried and not cached; with no
// limit the same suite passes and is cached.
func TestStepOverItsDiskLimit(t *testing.T) {
	script := `echo "running 1 test"; head -c 64M /dev/zero > big; sleep 20; ` + passLines
	for _, tt := range []struct {
		limit     string
		wantInfra string
	}{{"16M", engine.CauseDiskQuota}, {"0", ""}} {
		t.Run("limit "+tt.limit, func(t *testing.T) {
			t.Setenv(executors.DiskLimitVar, tt.limit)
			rep, e := buildInfra(t, t.TempDir(), infraTestStep([]string{"sh", "-c", script}, "libtest", "5m", nil))
			r := rep.Step("r/linux/test")
			log := stepLog(t, e, r)
			if r.Infra != tt.wantInfra {
				t.Fatalf("infra %q (status %s, error %q), want %q; log:\n%s", r.Infra, r.Status, r.Error, tt.wantInfra, log)
			}
			if tt.wantInfra != "" && !strings.Contains(r.Error, "past the disk limit of 16 MiB") {
				t.Errorf("error %q does not name the limit", r.Error)
			}
			checkCaching(t, e, r, tt.wantInfra != "", log)
		})
	}
}

// TestKilledWineserverIsInfrastructure runs a Windows program under the
// wine executor, as make check and CTest do, and kills its wineserver for
// real while it runs (SIGINT, what wineserver -k sends): Wine ends the
// program with status 1 and no word, the executor's watch says the server
// was lost, and the step fails as infrastructure with that cause, was
// retried, and caches nothing. Without the watch's line the same run is a
// failing test, cached as the code's.
func TestKilledWineserverIsInfrastructure(t *testing.T) {
	for _, tool := range []string{"wine", "wineserver"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	script := `echo "running 1 test"
wine cmd /c "ping -n 30 127.0.0.1 >nul" & p=$!
s=
for i in $(seq 600); do
	for d in /proc/[0-9]*; do
		case $(cat "$d/comm" 2>/dev/null) in wineserver*) ;; *) continue ;; esac
		if tr '\0' '\n' <"$d/environ" 2>/dev/null | grep -qx "WINEPREFIX=$WINEPREFIX"; then s=${d#/proc/}; fi
	done
	[ -n "$s" ] && break
	sleep 0.1
done
[ -n "$s" ] || { echo "no wineserver appeared" >&2; exit 3; }
sleep 3
kill -INT "$s"
wait $p || { sleep 2; echo "test t::a ... FAILED"; echo; echo "test result: FAILED. 0 passed; 1 failed; 0 ignored"; exit 101; }
` + passLines
	steps := infraTestStep([]string{"sh", "-c", script}, "libtest", "3m", nil)
	for i, f := range steps[1].Config {
		switch f.Name {
		case "platform":
			steps[1].Config[i].Value = "windows"
		case "executor":
			steps[1].Config[i].Value = "wine"
		}
	}
	steps[1].ID = "r/windows/test"
	rep, e := buildInfra(t, t.TempDir(), steps)
	r := rep.Step("r/windows/test")
	log := stepLog(t, e, r)
	rec, err := e.Cache().GetAction(r.Key)
	cached := err == nil && !rec.Failed
	if r.Status != engine.StatusFailed || r.Infra != CauseWine || len(r.Retries) != 1 || cached {
		t.Fatalf("status %s, infra %q, %d retries, cached %v (%s); want failed, %q, 1 retry, not cached; log:\n%s",
			r.Status, r.Infra, len(r.Retries), cached, r.Error, CauseWine, log)
	}
	if !strings.Contains(r.Error, executors.WineServerLostMessage) {
		t.Errorf("error %q does not say the wineserver was lost", r.Error)
	}
}

// TestCompileFieldIsItsOwnPhase gives a suite a test budget (2 s) below
// what compiling it takes (3 s): with the test block's compile command
// (the cargo preset's cargo test --no-run) the compile runs first under its
// own budget and the tests pass in time; without it the same compile
// happens inside the test command and the run is a timeout before any test
// started (infrastructure, never a result).
func TestCompileFieldIsItsOwnPhase(t *testing.T) {
	const compile = `echo "   Compiling ex v0.1.0"; sleep 3; touch compiled`
	script := `if [ ! -e compiled ]; then ` + compile + `; fi; ` + passLines
	tests := []struct {
		name      string
		compile   bool
		wantInfra string
	}{
		{"with a compile command", true, ""},
		{"without", false, CauseNotStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := infraTestStep([]string{"sh", "-c", script}, "libtest", "2s", nil)
			if tt.compile {
				steps[1].Config = append(steps[1].Config, engine.Field{Name: "compile", Value: map[string]any{"argv": []string{"sh", "-c", compile}}})
			}
			rep, e := buildInfra(t, t.TempDir(), steps)
			r := rep.Step("r/linux/test")
			log := stepLog(t, e, r)
			if r.Infra != tt.wantInfra || (tt.wantInfra == "") != (r.Status == engine.StatusRan) {
				t.Fatalf("status %s, infra %q (%s); want infra %q; log:\n%s", r.Status, r.Infra, r.Error, tt.wantInfra, log)
			}
			if tt.compile && !strings.Contains(log, "[osbench: compile phase exit 0") {
				t.Errorf("no compile phase in the log:\n%s", log)
			}
		})
	}
}
