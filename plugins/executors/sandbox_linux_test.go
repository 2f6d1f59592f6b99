package executors

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The attacks of issue 13 on the isolation of steps, run with real
// processes.

// waitForFile waits until path exists.
func waitForFile(t *testing.T, path string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s did not appear within %v", path, within)
}

// TestStepsCannotReachEachOther: while one step runs, a concurrent step
// cannot read, list or write its work directory, see its /tmp or its
// processes.
func TestStepsCannotReachEachOther(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	base := scratchDir(t)
	victim := filepath.Join(base, "victim")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := l.Run(ctx, Cmd{
			Argv:    shell(`mkdir repo && echo original > repo/main.go && echo mine > /tmp/victim-tmp && touch ready && exec sleep 60`),
			WorkDir: victim,
		})
		done <- err
	}()
	waitForFile(t, filepath.Join(victim, "ready"), 10*time.Second)

	attacks := []string{
		`cat "$V/repo/main.go"`,
		`ls "$V"`,
		`echo injected > "$V/repo/main.go"`,
		`touch "$V/repo/new.go"`,
		`cat /tmp/victim-tmp`,
		`pgrep -x sleep`,
	}
	var script strings.Builder
	for _, a := range attacks {
		script.WriteString(a + ` >/dev/null 2>&1 && echo "SUCCEEDED: ` + strings.ReplaceAll(a, `"`, `'`) + `"` + "\n")
	}
	script.WriteString("true\n")
	res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script.String()), WorkDir: filepath.Join(base, "attacker"), Env: []string{"V=" + victim}})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("attacker: Run = %+v, %v; stderr %q", res, err, stderr)
	}
	if stdout != "" {
		t.Errorf("a concurrent step reached the victim:\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(victim, "repo", "main.go")); err != nil || string(b) != "original\n" {
		t.Errorf("victim's repo/main.go = %q, %v; want it untouched", b, err)
	}
	info, err := os.Stat(victim)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("victim's work dir has mode %v, want 0700", perm)
	}
	if _, err := os.Stat("/tmp/victim-tmp"); err == nil {
		os.Remove("/tmp/victim-tmp")
		t.Errorf("the victim's /tmp file landed in the host's /tmp")
	}
	cancel()
	<-done
}

// TestStepPrivateTmp: each step has an empty /tmp, /var/tmp and /dev/shm
// of its own, while its work dir (here under the host's /tmp, as in tests)
// stays where it is; a step sees only its own processes.
func TestStepPrivateTmp(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	work := scratchDir(t)
	if !strings.HasPrefix(work, "/tmp/") {
		t.Skipf("the work dir %s is not under /tmp; the test needs it there", work)
	}
	// /tmp holds only the way to the work dir.
	top, _, _ := strings.Cut(strings.TrimPrefix(work, "/tmp/"), "/")
	script := `test "$(ls -A /tmp)" = "` + top + `" || { ls -A /tmp; exit 1; }
ls -A /var/tmp /dev/shm | grep -v ':$' | grep . && exit 1
touch /tmp/x /var/tmp/x /dev/shm/x && echo work > "$PWD/marker" && ls /proc | grep -c '^[0-9]'`
	for range 2 {
		res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script), WorkDir: work})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("Run = %+v, %v; stdout %q, stderr %q", res, err, stdout, stderr)
		}
		// sh, ls and grep, and the init.
		if n, _ := strconv.Atoi(strings.TrimSpace(stdout)); n == 0 || n > 5 {
			t.Errorf("the step sees %s processes, want only its own", stdout)
		}
	}
	if b, err := os.ReadFile(filepath.Join(work, "marker")); err != nil || string(b) != "work\n" {
		t.Errorf("the work dir under /tmp: marker = %q, %v", b, err)
	}
}

// TestKilledOsbenchLeavesNothing: when osbench itself is killed with
// SIGKILL, the kernel kills the init of each running step (its death
// signal), and with it the step's PID namespace: setsid, double-forked and
// nohup processes included.
func TestKilledOsbenchLeavesNothing(t *testing.T) {
	requireRoot(t)
	if os.Getenv("OSBENCH_TEST_HELPER") != "" {
		t.Skip("the helper runs only as TestSandboxHelper")
	}
	marker := newMarker(t)
	work := scratchDir(t)
	helper := exec.Command(os.Args[0], "-test.run=^TestSandboxHelper$")
	helper.Env = append(os.Environ(), "OSBENCH_TEST_HELPER="+work, markerVar+"="+marker)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(work, "work", "ready"), 20*time.Second)
	if len(liveMarked(t, marker)) < 3 {
		t.Fatalf("the step's escapees are not running: %q; the test proves nothing", liveMarked(t, marker))
	}
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(liveMarked(t, marker)) > 0; {
		time.Sleep(50 * time.Millisecond)
	}
	checkNoneLeft(t, marker)
}

// TestSandboxHelper is the "osbench" TestKilledOsbenchLeavesNothing kills:
// it runs a step whose processes escape in three ways and then block.
func TestSandboxHelper(t *testing.T) {
	dir := os.Getenv("OSBENCH_TEST_HELPER")
	if dir == "" {
		t.Skip("run by TestKilledOsbenchLeavesNothing")
	}
	l := newTestLocal(t)
	script := `setsid sleep 101 >/dev/null 2>&1 &
sh -c '(exec sleep 102) &' >/dev/null 2>&1
nohup sleep 103 >/dev/null 2>&1 &
touch ready
exec sleep 104`
	_, err := l.Run(context.Background(), Cmd{
		Argv: shell(script), WorkDir: filepath.Join(dir, "work"),
		Env: []string{markerVar + "=" + os.Getenv(markerVar)},
	})
	t.Fatalf("the step ended (%v) before the helper was killed", err)
}
