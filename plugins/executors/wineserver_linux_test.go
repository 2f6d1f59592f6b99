package executors

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// killServerScript runs a Windows program that pings for 30 s through the
// Wine test launcher, as go test and cargo run test programs, and, when
// SIG is set, kills its wineserver for real once it runs. The server lives
// in the test launcher's PID namespace, inside the command's, whose /proc
// shows it.
const killServerScript = `go_windows_amd64_exec cmd /c "ping -n 30 127.0.0.1 >nul" & p=$!
if [ -n "$SIG" ]; then
	s=
	for i in $(seq 200); do
		for d in /proc/[0-9]*; do
			case $(cat "$d/comm" 2>/dev/null) in wineserver*) s=${d#/proc/} ;; esac
		done
		[ -n "$s" ] && break
		sleep 0.1
	done
	[ -n "$s" ] || { echo "no wineserver appeared" >&2; exit 3; }
	sleep 3
	kill -s "$SIG" "$s"
else
	echo "(no kill)" >&2
	kill -0 $p
fi
wait $p
`

// TestWineLauncherSeesALostServer kills the wineserver of a running
// Windows program (SIGINT, what wineserver -k sends, and SIGKILL): Wine
// ends the program with status 1 and says nothing, and the launcher adds
// the line the test step takes for a lost server. A program that ends on
// its own (here: exits 1 without a kill) gets no such line.
func TestWineLauncherSeesALostServer(t *testing.T) {
	f := sharedWine(t)
	if err := testLauncherUsable(); err != nil {
		t.Skipf("no test launcher on this host: %v", err)
	}
	tests := []struct {
		name, sig, script string
		wantLost          bool
	}{
		{"SIGINT", "INT", killServerScript, true},
		{"SIGKILL", "KILL", killServerScript, true},
		{"a failing program", "", `go_windows_amd64_exec cmd /c "exit 1"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := scratchDir(t)
			var stdout, stderr bytes.Buffer
			res, err := f.wine.Run(context.Background(), Cmd{
				Argv: []string{"sh", "-c", tt.script}, Dir: work, WorkDir: work,
				Env: append([]string{"SIG=" + tt.sig}, f.goEnv...), WritableDirs: f.goCaches,
				Stdout: &stdout, Stderr: &stderr, Timeout: 3 * time.Minute,
			})
			if err != nil || res.TimedOut {
				t.Fatalf("run = %+v, %v; stderr %s", res, err, stderr.String())
			}
			lost := strings.Contains(stderr.String(), WineServerLostMessage)
			if res.ExitCode == 0 || lost != tt.wantLost {
				t.Errorf("exit %d, lost server said %v, want a failure and %v; stderr:\n%s", res.ExitCode, lost, tt.wantLost, stderr.String())
			}
			checkNoLeftovers(t, f.prefix)
		})
	}
}
