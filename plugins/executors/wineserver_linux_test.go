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

// serverOf is a shell function that prints the pid of a wineserver of the
// command's prefix whose TMPDIR matches the pattern $1 (the program's own,
// under the launcher: .../osbench-wineserver.*; the command's: its TMPDIR),
// and that TMPDIR, waiting up to a minute for one.
const serverOf = `serverOf() {
	for i in $(seq 600); do
		for d in /proc/[0-9]*; do
			case $(cat "$d/comm" 2>/dev/null) in wineserver*) ;; *) continue ;; esac
			env=$(tr '\0' '\n' <"$d/environ" 2>/dev/null)
			printf '%s\n' "$env" | grep -qx "WINEPREFIX=$WINEPREFIX" || continue
			srvtmp=$(printf '%s\n' "$env" | sed -n 's/^TMPDIR=//p')
			case $srvtmp in $1) echo "${d#/proc/} $srvtmp"; return ;; esac
		done
		sleep 0.1
	done
	echo "no wineserver with TMPDIR $1 appeared" >&2
	exit 3
}
`

// TestWineServerWatch kills, for real, the wineserver under a running
// Windows program — the one the Go and cargo launcher gives the program,
// and the command's own, which plain `wine` (make check, CTest) uses —
// with SIGINT (what wineserver -k sends: Wine ends the program with status
// 1 and no word) and SIGKILL (the program hangs for good): the watch says
// the server was lost, and the launcher kills the hung program. A program
// that fails on its own while a second wineserver for the same prefix
// starts and leaves at once (it finds the lock taken) is no loss: the
// watch follows the server it confirmed, not any server of the prefix.
func TestWineServerWatch(t *testing.T) {
	f := sharedWine(t)
	launcher := testLauncherUsable() == nil
	const ping = `"ping -n 30 127.0.0.1 >nul"`
	const kill = `sleep 3
kill -s "$SIG" "$s"
wait $p`
	const secondServer = `sleep 2
TMPDIR=$srvtmp timeout 20 wineserver -f -p; echo "second server: exit $?"
wait $p`
	tests := []struct {
		name, script string
		viaLauncher  bool
		sig          string
		wantLost     bool
	}{
		{"launcher, SIGINT", `go_windows_amd64_exec cmd /c ` + ping + ` & p=$!; set -- $(serverOf "*/osbench-wineserver.*"); s=$1 srvtmp=$2` + "\n" + kill, true, "INT", true},
		{"launcher, SIGKILL", `go_windows_amd64_exec cmd /c ` + ping + ` & p=$!; set -- $(serverOf "*/osbench-wineserver.*"); s=$1 srvtmp=$2` + "\n" + kill, true, "KILL", true},
		{"launcher, a failing program and a second server", `go_windows_amd64_exec cmd /c "ping -n 6 127.0.0.1 >nul & exit 1" & p=$!; set -- $(serverOf "*/osbench-wineserver.*"); s=$1 srvtmp=$2` + "\n" + secondServer, true, "", false},
		// A suite goes on after a program: the command's watch speaks
		// while the command runs.
		{"command, SIGINT", `wine cmd /c ` + ping + ` & p=$!; set -- $(serverOf "$TMPDIR"); s=$1 srvtmp=$2` + "\n" + kill + `; st=$?; sleep 2; exit $st`, false, "INT", true},
		{"command, a failing program and a second server", `wine cmd /c "ping -n 6 127.0.0.1 >nul & exit 1" & p=$!; set -- $(serverOf "$TMPDIR"); s=$1 srvtmp=$2` + "\n" + secondServer + `; st=$?; sleep 2; exit $st`, false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.viaLauncher && !launcher {
				t.Skip("no test launcher on this host: the Windows program runs on the command's server")
			}
			work := scratchDir(t)
			cmd := Cmd{
				Argv: []string{"sh", "-c", serverOf + tt.script}, Dir: work, WorkDir: work,
				Env: []string{"SIG=" + tt.sig}, Timeout: 3 * time.Minute,
			}
			if tt.viaLauncher {
				cmd.Env, cmd.WritableDirs = append(cmd.Env, f.goEnv...), f.goCaches
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			started := time.Now()
			res, err := f.wine.Run(context.Background(), cmd)
			if err != nil || res.TimedOut {
				t.Fatalf("run = %+v, %v; stderr %s", res, err, stderr.String())
			}
			lost := strings.Contains(stderr.String(), WineServerLostMessage)
			if res.ExitCode == 0 || lost != tt.wantLost {
				t.Errorf("exit %d, lost server said %v, want a failure and %v; stdout %s; stderr:\n%s", res.ExitCode, lost, tt.wantLost, stdout.String(), stderr.String())
			}
			if tt.name == "launcher, SIGKILL" && time.Since(started) > time.Minute {
				t.Errorf("the program of a SIGKILLed server ended after %v: the launcher did not kill it", time.Since(started))
			}
			t.Logf("%v: %s%s", time.Since(started).Round(time.Millisecond), stdout.String(), stderr.String())
			checkNoLeftovers(t, f.prefix)
		})
	}
}

// TestWineServicesHoldNoOutput: a runner that reads a Windows program's
// output to its end (CTest, $(wine ...) in a script) gets it at once. The
// first program of a wineserver's session starts Wine's service processes,
// which inherit its output and live as long as the server: under the
// persistent server, unless the executor started them with /dev/null, the
// first test's pipe stays open for the whole command (CTest waited for its
// own timeout).
func TestWineServicesHoldNoOutput(t *testing.T) {
	f := sharedWine(t)
	var stdout, stderr bytes.Buffer
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{"sh", "-c", `out=$(wine cmd /c echo hi 2>&1); echo "got $out"`}, WorkDir: scratchDir(t),
		Stdout: &stdout, Stderr: &stderr, Timeout: 90 * time.Second,
	})
	if err != nil || res.TimedOut || res.ExitCode != 0 || !strings.Contains(stdout.String(), "got hi") {
		t.Fatalf("Run = %+v, %v; stdout %q, stderr %q; want the program's output read to its end", res, err, stdout.String(), stderr.String())
	}
	checkNoLeftovers(t, f.prefix)
}
