package executors

import (
	"os"
	"path/filepath"
	"strings"
)

// Launchers let a toolchain run Windows programs through Wine without any
// Wine-specific flag in the manifest, so the same command works unchanged
// on a real Windows host with the local executor. The go command runs a
// cross-compiled test binary through `go_$GOOS_$GOARCH_exec` when one is on
// PATH; the wine executor puts one there.
//
// When the executor protects the command's shared caches it names the test
// launcher in TestSandboxVar, and the Wine launchers run wine through it:
// the Windows program and its wineserver, which opens files on the
// program's behalf, both run in the test launcher's namespaces, where the
// caches are read-only and the build's processes are out of sight. Each
// program gets a wineserver of its own, so its socket goes to a private
// TMPDIR (Debian's Wine keeps it under TMPDIR): a concurrent program,
// whose wineserver lives in another PID namespace and dies with it, is
// never reached. The launcher starts that server itself and watches it
// (wineProgramWatch in wineserver.go), so a server lost under the program
// is said, not taken for the program's failure. Without the test sandbox
// a program runs on the command's own wineserver, which the executor's
// wrapper watches.
//
// osbench-wine-test is that launcher for any Windows test program: the
// wine executor makes it the cargo runner of a command whose runner is
// plain "wine" (the cargo preset's). A fresh wineserver gives every
// program the same Windows process id, so a %p in LLVM_PROFILE_FILE (the
// cargo preset's profile names, which its profile runtime never
// overwrites) gets this launcher's own pid put before it: profiles of
// programs run one after another stay apart.
var wineLaunchers = map[string]string{
	"go_windows_amd64_exec": wineTestLauncher,
	wineTestLauncherName:    wineTestLauncher,
}

// wineTestLauncherName is the launcher the executor names as cargo's
// Windows runner.
const wineTestLauncherName = "osbench-wine-test"

// cargoWindowsRunnerVar is cargo's variable for the runner of the Windows
// target the cargo preset builds.
const cargoWindowsRunnerVar = "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER"

const wineTestLauncher = `#!/bin/sh
# Written by osbench's wine executor: go test and cargo run Windows test binaries through this.
if [ -z "${` + TestSandboxVar + `:-}" ]; then
	exec wine "$@"
fi
case ${LLVM_PROFILE_FILE:-} in
*%p*)
	LLVM_PROFILE_FILE=$(printf '%s\n' "$LLVM_PROFILE_FILE" | sed "s/%p/$$-%p/g")
	export LLVM_PROFILE_FILE
	;;
esac
server=$(mktemp -d "${TMPDIR:-/tmp}/osbench-wineserver.XXXXXXXX") || exit 125
status=0
TMPDIR=$server "$` + TestSandboxVar + `" sh -c '` + wineProgramWatch + `' osbench-wine wine "$@" || status=$?
rm -rf "$server"
exit "$status"
`

// ensureLaunchers writes the launcher scripts into dir.
func ensureLaunchers(dir string) error { return ensureScripts(dir, wineLaunchers) }

// ensureScripts writes scripts into dir (idempotently, with a rename so a
// concurrent reader never sees half a script).
func ensureScripts(dir string, scripts map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, script := range scripts {
		p := filepath.Join(dir, name)
		if b, err := os.ReadFile(p); err == nil && string(b) == script {
			continue
		}
		// A temporary name of its own per call: two steps of one process
		// write the same script at once, and a shared name (the pid's) let
		// one rename the other's file away under it.
		f, err := os.CreateTemp(dir, name+".*.tmp")
		if err != nil {
			return err
		}
		tmp := f.Name()
		_, err = f.WriteString(script)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp, 0o755)
		}
		if err == nil {
			err = os.Rename(tmp, p)
		}
		if err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}

// prependPath puts dir first on the PATH of env (adding PATH if absent).
func prependPath(env []string, dir string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + dir + string(os.PathListSeparator) + v
			return env
		}
	}
	return append(env, "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
