package executors

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests here watch real process trees through /proc.

// processState returns the state letter of pid from /proc ("S", "Z" ...), or
// "" when no such process exists.
func processState(t *testing.T, pid int) string {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	// The command name in parentheses may contain spaces; the state
	// follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		t.Fatalf("unexpected /proc/%d/stat: %q", pid, stat)
	}
	return string(stat[i+2])
}

// waitGone waits until pid has died (a zombie counts: an orphan may wait
// for a reaper that is not osbench's business) and fails the test if it
// does not die within a few seconds.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		switch processState(t, pid) {
		case "", "Z", "X":
			return
		}
	}
	t.Errorf("process %d (state %s) survived its command", pid, processState(t, pid))
}

// firstPID parses the pid the test script echoes on its first line.
func firstPID(t *testing.T, output string) int {
	t.Helper()
	line, _, _ := strings.Cut(output, "\n")
	pid, err := strconv.Atoi(line)
	if err != nil || pid <= 0 {
		t.Fatalf("script output %q does not start with a pid", output)
	}
	return pid
}

// treeScript starts a grandchild that would outlive a killed shell, prints
// its pid and then blocks.
const treeScript = `sleep 100 & echo $!; sleep 100`

func TestLocalTimeoutKillsProcessTree(t *testing.T) {
	l := newTestLocal(t)
	started := time.Now()
	res, stdout, _, err := runCapture(t, l, Cmd{Argv: shell(treeScript), WorkDir: scratchDir(t), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("Run: %v (a timeout is a result, not an error)", err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("Run = %+v, want timed out with exit code -1", res)
	}
	if elapsed := time.Since(started); elapsed > 3*time.Second {
		t.Errorf("Run took %v after a 300ms timeout", elapsed)
	}
	waitGone(t, firstPID(t, stdout))
}

func TestLocalTimeoutGrace(t *testing.T) {
	tests := []struct {
		desc    string
		script  string
		grace   time.Duration
		atLeast time.Duration // timeout + time the tree must have been given
		atMost  time.Duration
	}{
		// A process that obeys SIGTERM ends the grace period early.
		{"obeys SIGTERM", "sleep 100", 10 * time.Second, 100 * time.Millisecond, 3 * time.Second},
		// One that ignores it is killed once the grace period is over.
		{"ignores SIGTERM", `trap "" TERM; sleep 100`, 500 * time.Millisecond, 600 * time.Millisecond, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			l := newTestLocal(t)
			l.KillGrace = tt.grace
			started := time.Now()
			res, err := l.Run(context.Background(), Cmd{Argv: shell(tt.script), WorkDir: scratchDir(t), Timeout: 100 * time.Millisecond})
			elapsed := time.Since(started)
			if err != nil || !res.TimedOut {
				t.Fatalf("Run = %+v, %v; want a timeout", res, err)
			}
			if elapsed < tt.atLeast || elapsed > tt.atMost {
				t.Errorf("Run took %v, want between %v and %v", elapsed, tt.atLeast, tt.atMost)
			}
		})
	}
}

func TestLocalCancelKillsProcessTree(t *testing.T) {
	l := newTestLocal(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	var stdout bytes.Buffer
	res, err := l.Run(ctx, Cmd{Argv: shell(treeScript), WorkDir: scratchDir(t), Stdout: &stdout})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	if res.ExitCode != -1 || res.TimedOut {
		t.Errorf("Run = %+v, want exit code -1 and no timeout", res)
	}
	waitGone(t, firstPID(t, stdout.String()))
}

func TestLocalKillsLeftoverProcesses(t *testing.T) {
	l := newTestLocal(t)
	// The background sleep does not hold the output pipes, so nothing but
	// the executor's final kill of the group can stop it.
	res, stdout, _, err := runCapture(t, l, Cmd{Argv: shell(`sleep 100 >/dev/null 2>&1 & echo $!`), WorkDir: scratchDir(t)})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	waitGone(t, firstPID(t, stdout))
}

func TestLocalEscapedProcessCannotHoldOutput(t *testing.T) {
	l := newTestLocal(t)
	// setsid leaves the process group, so the kill of the group misses it;
	// it keeps stdout open for 100s unless Run closes the pipe itself. The
	// shell waits until it has left, or the kill of the group would win.
	script := `setsid sh -c 'echo $$; touch escaped; exec sleep 100' &
while [ ! -e escaped ]; do sleep 0.01; done`
	started := time.Now()
	res, stdout, _, err := runCapture(t, l, Cmd{Argv: shell(script), WorkDir: scratchDir(t)})
	elapsed := time.Since(started)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	escaped := firstPID(t, stdout)
	t.Cleanup(func() { _ = syscall.Kill(escaped, syscall.SIGKILL) })
	if state := processState(t, escaped); state == "" || state == "Z" {
		t.Fatalf("escaped process %d is not running (state %q); the test proves nothing", escaped, state)
	}
	if elapsed < l.OutputWait || elapsed > l.OutputWait+3*time.Second {
		t.Errorf("Run took %v, want about OutputWait (%v)", elapsed, l.OutputWait)
	}
}
