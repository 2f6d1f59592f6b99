package executors

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// prefixServers is a shell function that prints the pids of the wineservers
// of the command's prefix (found by their WINEPREFIX, so other commands'
// servers on a shared /proc do not count).
const prefixServers = `servers() {
	for d in /proc/[0-9]*; do
		case $(cat "$d/comm" 2>/dev/null) in wineserver*) ;; *) continue ;; esac
		if tr '\0' '\n' <"$d/environ" 2>/dev/null | grep -qx "WINEPREFIX=$WINEPREFIX"; then printf '%s ' "${d#/proc/}"; fi
	done
}
`

// TestWineServerOutlivesItsPrograms runs two Windows programs five seconds
// apart in one command, as make check and CTest run test programs: one
// wineserver serves both. Wine's own server exits three seconds after its
// last client, and a program that starts just then dies with "wine client
// error:0: recvmsg: Connection reset by peer" (libsodium's Windows suite
// lost a different test at each run that way); without the executor's
// persistent server (wineCommandWrapper) the server seen between the
// programs is gone and the second program gets a new one.
func TestWineServerOutlivesItsPrograms(t *testing.T) {
	f := sharedWine(t)
	script := prefixServers + `wine "$1" >/dev/null; a=$(servers)
sleep 5; b=$(servers)
wine "$1" >/dev/null; c=$(servers)
echo "after the first: $a; between: $b; after the second: $c"
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ]
`
	var stdout, stderr bytes.Buffer
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{"sh", "-c", script, "servers", f.prog}, WorkDir: scratchDir(t),
		Stdout: &stdout, Stderr: &stderr, Timeout: 3 * time.Minute,
	})
	if err != nil || res.TimedOut || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; want one wineserver throughout: %s%s", res, err, stdout.String(), stderr.String())
	}
	t.Log(strings.TrimSpace(stdout.String()))
	checkNoLeftovers(t, f.prefix)
}

// TestWineCommandWrapperKeepsTheStatus: the wrapper execs the command, so
// an exit status and a signal are the command's own (the test step tells a
// kill osbench did not send by the signal), and a missing program is the
// executor's error, as with Local.
func TestWineCommandWrapperKeepsTheStatus(t *testing.T) {
	f := sharedWine(t)
	tests := []struct {
		name     string
		argv     []string
		wantExit int
		wantSig  int
		wantErr  bool
	}{
		{"exit 137", []string{"sh", "-c", "exit 137"}, 137, 0, false},
		{"SIGKILL", []string{"sh", "-c", "kill -KILL $$"}, -1, int(syscall.SIGKILL), false},
		{"missing program", []string{"osbench-no-such-program"}, -1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.wine.Run(context.Background(), Cmd{Argv: tt.argv, WorkDir: scratchDir(t), Timeout: time.Minute})
			if (err != nil) != tt.wantErr || res.ExitCode != tt.wantExit || res.Signal != tt.wantSig {
				t.Errorf("Run = %+v, %v; want exit %d, signal %d, error %v", res, err, tt.wantExit, tt.wantSig, tt.wantErr)
			}
		})
	}
}
