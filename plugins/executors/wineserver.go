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

// wineShellHelpers are the shell functions both wineserver wrappers use.
// alive reads liveness from /proc, where a zombie counts as gone; it needs
// builtins only. confirm_server waits, polling every 50 ms for at most 30
// s, until a wineserver socket newer than $mark exists under TMPDIR
// (Debian's Wine: $TMPDIR/wine-XXXXXX/server-DEV-INO/socket; upstream's
// /tmp/.wine-UID/...) while $server lives.
const wineShellHelpers = `alive() {
	read -r st <"/proc/$1/stat" 2>/dev/null || return 1
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
		sleep 0.01
		ready=$( ( (
			exec </dev/null
			wineserver -f -p >/dev/null 2>&1 &
			server=$!
			if ! confirm_server; then
				echo unconfirmed
				exit 0
			fi
			echo confirmed
		) & ) )
		rm -f "$mark"
	fi
fi
exec "$@"
`

// wrapWineCommand returns argv run through wineCommandWrapper.
func wrapWineCommand(argv []string) []string {
	return append([]string{"sh", "-c", wineCommandWrapper, "osbench-wine-command"}, argv...)
}
