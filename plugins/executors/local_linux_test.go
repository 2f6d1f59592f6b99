package executors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	// A process that exits while we look reads as ENOENT or, when its
	// /proc entry is already half torn down, as ESRCH: both mean gone.
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
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

// markerVar names the processes of one test: they inherit it from the
// command's environment, and the test finds them through the host's /proc
// (a pid the command prints is its pid inside its own namespace).
const markerVar = "OSBENCH_TEST_MARKER"

// newMarker returns a value of markerVar unique to the test.
func newMarker(t *testing.T) string {
	return strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()) + "-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// liveMarked returns the live (not zombie) processes whose environment
// holds marker.
func liveMarked(t *testing.T, marker string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("\x00" + markerVar + "=" + marker + "\x00")
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append(append([]byte{0}, env...), 0), want) {
			continue
		}
		switch processState(t, pid) {
		case "", "Z", "X":
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		found = append(found, strconv.Itoa(pid)+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return found
}

// checkNoneLeft fails when a process of marker is alive.
func checkNoneLeft(t *testing.T, marker string) {
	t.Helper()
	if left := liveMarked(t, marker); len(left) > 0 {
		for _, p := range left {
			if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		t.Errorf("processes outlived their command:\n%s", strings.Join(left, "\n"))
	}
}

// treeScript starts a grandchild that would outlive a killed shell and
// then blocks.
const treeScript = `sleep 100 & sleep 100`

func TestLocalTimeoutKillsProcessTree(t *testing.T) {
	l := newTestLocal(t)
	marker := newMarker(t)
	started := time.Now()
	res, _, _, err := runCapture(t, l, Cmd{Argv: shell(treeScript), WorkDir: scratchDir(t), Env: []string{markerVar + "=" + marker}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("Run: %v (a timeout is a result, not an error)", err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("Run = %+v, want timed out with exit code -1", res)
	}
	if elapsed := time.Since(started); elapsed > 3*time.Second {
		t.Errorf("Run took %v after a 300ms timeout", elapsed)
	}
	checkNoneLeft(t, marker)
}

func TestLocalTimeoutGrace(t *testing.T) {
	tests := []struct {
		desc    string
		script  string
		timeout time.Duration
		grace   time.Duration
		atLeast time.Duration // timeout + time the tree must have been given
		atMost  time.Duration
	}{
		// A process that obeys SIGTERM ends the grace period early.
		{"obeys SIGTERM", "sleep 100", 100 * time.Millisecond, 10 * time.Second, 100 * time.Millisecond, 3 * time.Second},
		// One that ignores it is killed once the grace period is over.
		// The timeout leaves the shell time to set its trap on a
		// loaded machine.
		{"ignores SIGTERM", `trap "" TERM; sleep 100`, time.Second, 500 * time.Millisecond, 1500 * time.Millisecond, 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			l := newTestLocal(t)
			l.KillGrace = tt.grace
			started := time.Now()
			res, err := l.Run(context.Background(), Cmd{Argv: shell(tt.script), WorkDir: scratchDir(t), Timeout: tt.timeout})
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
	marker := newMarker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err := l.Run(ctx, Cmd{Argv: shell(treeScript), WorkDir: scratchDir(t), Env: []string{markerVar + "=" + marker}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	if res.ExitCode != -1 || res.TimedOut {
		t.Errorf("Run = %+v, want exit code -1 and no timeout", res)
	}
	checkNoneLeft(t, marker)
}

// escapeStyles are the ways a test leaves its command's process tree (the
// three of issue 13 and more). Each waits until its escapee runs (the file
// "escaped" exists), so the command never ends before the escape.
var escapeStyles = []struct{ name, script string }{
	{"background", `sleep 100 >/dev/null 2>&1 & touch escaped`},
	{"setsid", `setsid sh -c 'touch escaped; exec sleep 100' >/dev/null 2>&1 &`},
	{"setsid holding stdout", `setsid sh -c 'touch escaped; exec sleep 100' &`},
	{"double fork", `sh -c '(touch escaped; exec sleep 100) &' >/dev/null 2>&1`},
	{"nohup", `nohup sh -c 'touch escaped; exec sleep 100' >/dev/null 2>&1 &`},
	{"setsid double fork ignoring SIGTERM", `setsid sh -c 'trap "" TERM HUP; (trap "" TERM HUP; touch escaped; while :; do sleep 1; done) &' >/dev/null 2>&1 &`},
}

// TestLocalNothingOutlivesItsStep: whatever the style, no process of a
// command is alive once Run returns, after a normal end and after a
// timeout, and Run returns promptly even when an escapee holds stdout.
func TestLocalNothingOutlivesItsStep(t *testing.T) {
	for _, style := range escapeStyles {
		for _, timeout := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/timeout=%v", style.name, timeout), func(t *testing.T) {
				l := newTestLocal(t)
				marker := newMarker(t)
				script := style.script + "\nwhile [ ! -e escaped ]; do sleep 0.01; done"
				cmd := Cmd{Argv: shell(script), WorkDir: scratchDir(t), Env: []string{markerVar + "=" + marker}}
				if timeout {
					cmd.Argv = shell(script + "\nsleep 100")
					cmd.Timeout = 500 * time.Millisecond
				}
				started := time.Now()
				res, _, stderr, err := runCapture(t, l, cmd)
				elapsed := time.Since(started)
				if err != nil || res.TimedOut != timeout || !timeout && res.ExitCode != 0 {
					t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
				}
				if elapsed > 5*time.Second {
					t.Errorf("Run took %v", elapsed)
				}
				checkNoneLeft(t, marker)
			})
		}
	}
}
