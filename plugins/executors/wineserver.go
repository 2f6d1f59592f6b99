package executors

// Every command of the wine executor runs beside a wineserver the executor
// started for it: persistent (-p), so it never exits while the command
// runs, and confirmed as the prefix's server before the command starts.
//
// Why persistent: a wineserver started by a Windows program (the default)
// exits three seconds after its last client. A command that runs Windows
// programs one after another with gaps of about that length — automake's
// `make check` running libsodium's 77 test programs, CTest under Wine —
// now and then starts a program just as the server is closing: the program
// connects, the server goes, and Wine ends the program with "wine client
// error:0: recvmsg: Connection reset by peer" and status 1. The autotools
// driver writes a test's output to its own .log, so osbench saw only a
// FAIL, a different test each run, more often on a loaded machine (where
// programs start more slowly): libsodium's Windows suite gave a different
// tests.json at each rerun (--verify-cache: 4 of 4 runs, 1 to 5 of 77
// tests failing) and lost a task once. A server that lives as long as the
// command closes that window for good.
//
// The first Windows program of a server's session starts Wine's service
// processes (services.exe, winedevice.exe, plugplay.exe, svchost.exe),
// which inherit its stdin, stdout and stderr and live as long as the
// server. Under a persistent server they would hold the first test
// program's output pipe open for the whole command, and a runner that
// reads a program's output to its end (CTest, a $(wine ...) in a script)
// would wait for good; so the wrapper runs one program of its own first
// (cmd /c exit 0, about a second), with /dev/null for all three, and the
// services start with those.
//
// Why confirmed: the command's programs must find this server, not start
// their own. The wrapper starts the server, waits until its socket exists
// (created after the wrapper's own mark, so a socket a killed server left
// behind does not count) while the server still lives — it holds the
// prefix's lock then, since a server that finds the lock taken exits at
// once — and only then runs the command. A server that never gets there
// (a second one holds the lock, Wine is broken) is given up after 30 s and
// the command runs as before, unwatched.
//
// The wrapper execs the command, so its pid, exit status and signal are
// the command's own; the server and its watch run in a process detached
// from it (a double fork), so the command never has children it did not
// start (a bare `wait` in a script would wait for the server forever). The
// watch ends with the command; the executor kills the server afterwards
// (stopPrefix), and the sandbox whatever is left.
//
// The watch (issue 20): a wineserver killed under a running Windows program
// is silent — `wineserver -k` or SIGINT ends the program with status 1 and
// no word, a SIGKILL leaves it hung for good — so without a watch a lost
// server is a failing or hanging test, cached as the code's. The server the
// wrapper confirmed is the one every program of the command talks to, and
// with -p it never exits on its own, so its end while the command runs is
// the machine's (or whoever killed it): the watch, blocked in wait(2) on
// the server (no polling), says so in a line that
// begins with WineServerLostMessage, which the test step takes for a lost
// wineserver (an infrastructure failure: retried, never cached). A second
// server for the same prefix that comes and goes (a client that found no
// socket, a `wineserver` a test runs) is not the watched one and changes
// nothing; an attempt that watched a server it started beside its program,
// without confirming it, read such a race as a loss (reverted, d3accc4).
//
// The Go and cargo test launchers give each Windows program a wineserver
// of its own (winelauncher.go) and watch it the same way, and they can do
// more: a program whose server is gone is killed after a second, so a
// SIGKILLed server does not leave it hanging until the step's timeout.

// wineShellHelpers are the shell functions both wineserver wrappers use.
// alive reads liveness from /proc, where a zombie counts as gone; it needs
// builtins only. confirm_server waits, polling every 50 ms for at most 30
// s, until a wineserver socket newer than $mark exists under TMPDIR
// (Debian's Wine: $TMPDIR/wine-XXXXXX/server-DEV-INO/socket; upstream's
// /tmp/.wine-UID/...) while $server lives.
const wineShellHelpers = `alive() {
	{ read -r st <"/proc/$1/stat"; } 2>/dev/null || return 1
	case ${st##*") "} in Z*) return 1 ;; esac
}
confirm_server() {
	n=0
	while alive "$server" && [ "$n" -lt 600 ]; do
		for s in "${TMPDIR:-/tmp}"/wine-*/server-*/socket "${TMPDIR:-/tmp}"/.wine-*/server-*/socket /tmp/.wine-*/server-*/socket; do
			if [ -S "$s" ] && [ "$s" -nt "$mark" ]; then return 0; fi
		done
		sleep 0.05
		n=$((n + 1))
	done
	return 1
}
`

// wineCommandWrapper runs a wine executor command ("$@") beside a
// persistent, confirmed wineserver (see above). It prints nothing when all
// is well.
const wineCommandWrapper = wineShellHelpers + `if command -v wineserver >/dev/null 2>&1; then
	mark=$(mktemp "${TMPDIR:-/tmp}/osbench-wineserver-mark.XXXXXXXX") || mark=
	if [ -n "$mark" ]; then
		cmd=$$
		sleep 0.01
		ready=$( ( (
			exec </dev/null
			wineserver -f -p >/dev/null 2>&1 &
			server=$!
			if ! confirm_server; then
				echo unconfirmed
				exit 0
			fi
			wine cmd /c exit 0 >/dev/null 2>&1
			echo confirmed
			exec >/dev/null
			wait "$server"
			status=$?
			if alive "$cmd"; then
				echo "` + WineServerLostMessage + `: the wineserver of this command's Wine prefix ended while the command ran (its status $status); Windows programs running then failed or hang" >&2
			fi
		) & ) )
		rm -f "$mark"
	fi
fi
exec "$@"
`

// WineServerLostMessage begins the line a wineserver watch prints when
// the server it confirmed ended under its command or program.
const WineServerLostMessage = "osbench: wineserver lost"

// wineProgramWatch runs one Windows program ("$@": wine and its
// arguments) beside a wineserver of its own, confirmed before the program
// starts, and watches it: a server gone while the program runs gets the
// program killed a second later, and a program that failed gets two
// seconds for a dying server to finish (a server ending on SIGINT kills its
// clients at once and exits half a second later, measured idle). The program keeps the launcher's stdin (a
// background job would get /dev/null). A server that cannot be confirmed
// leaves the program to start its own, unwatched, as before.
const wineProgramWatch = wineShellHelpers + `mark=$(mktemp "${TMPDIR:-/tmp}/osbench-wineserver-mark.XXXXXXXX") || exec "$@"
sleep 0.01
wineserver -f -p </dev/null >/dev/null 2>&1 &
server=$!
if ! confirm_server; then
	rm -f "$mark"
	kill "$server" 2>/dev/null
	exec "$@"
fi
rm -f "$mark"
exec 3<&0
"$@" 0<&3 &
prog=$!
exec 3<&-
lost=
while alive "$prog"; do
	if ! alive "$server"; then
		sleep 1
		if alive "$prog"; then kill -KILL "$prog" 2>/dev/null; fi
		lost=1
		break
	fi
	sleep 0.2
done
status=0
wait "$prog" || status=$?
if [ -z "$lost" ] && [ "$status" != 0 ]; then
	n=0
	while [ "$n" -lt 40 ] && alive "$server"; do sleep 0.05; n=$((n + 1)); done
	if ! alive "$server"; then lost=1; fi
fi
if [ -n "$lost" ]; then
	wait "$server"
	echo "` + WineServerLostMessage + `: the wineserver of this Windows program ended while it ran (its status $?; the program ended with status $status)" >&2
else
	wineserver -k 2>/dev/null
	wait "$server" 2>/dev/null
fi
exit "$status"
`

// wrapWineCommand returns argv run through wineCommandWrapper.
func wrapWineCommand(argv []string) []string {
	return append([]string{"sh", "-c", wineCommandWrapper, "osbench-wine-command"}, argv...)
}
