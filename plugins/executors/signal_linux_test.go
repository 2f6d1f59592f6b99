//go:build linux

package executors

import (
	"syscall"
	"testing"
	"time"
)

// TestLocalReportsSignalsItDidNotSend: a command killed from outside (the
// OOM killer's SIGKILL, here the command's own kill) reports the signal; a
// command the executor killed on timeout, or one that exited, reports none.
func TestLocalReportsSignalsItDidNotSend(t *testing.T) {
	tests := []struct {
		name    string
		script  string
		timeout time.Duration
		want    int
	}{
		{"SIGKILL from outside", `kill -KILL $$`, 0, int(syscall.SIGKILL)},
		{"SIGTERM from outside", `kill -TERM $$`, 0, int(syscall.SIGTERM)},
		{"killed by the executor on timeout", `sleep 100`, 300 * time.Millisecond, 0},
		{"exit 3", `exit 3`, 0, 0},
	}
	l := newTestLocal(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _, _, err := runCapture(t, l, Cmd{Argv: shell(tt.script), WorkDir: scratchDir(t), Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if res.Signal != tt.want {
				t.Errorf("Signal = %d, want %d (%+v)", res.Signal, tt.want, res)
			}
		})
	}
}
