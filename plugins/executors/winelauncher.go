package executors

import (
	"fmt"
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
// launcher in TestSandboxVar, and go_windows_amd64_exec runs wine through
// it: the Windows program and its wineserver, which opens files on the
// program's behalf, both run in the test launcher's namespaces, where the
// caches are read-only and the build's processes are out of sight. Each
// program gets a wineserver of its own, so its socket goes to a private
// TMPDIR (Debian's Wine keeps it under TMPDIR): a concurrent program,
// whose wineserver lives in another PID namespace and dies with it, is
// never reached.
var wineLaunchers = map[string]string{
	"go_windows_amd64_exec": wineGoLauncher,
}

const wineGoLauncher = `#!/bin/sh
# Written by osbench's wine executor: go test runs Windows test binaries through this.
if [ -z "${` + TestSandboxVar + `:-}" ]; then
	exec wine "$@"
fi
server=$(mktemp -d "${TMPDIR:-/tmp}/osbench-wineserver.XXXXXXXX") || exit 125
status=0
TMPDIR=$server "$` + TestSandboxVar + `" wine "$@" || status=$?
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
		tmp := fmt.Sprintf("%s.%d.tmp", p, os.Getpid())
		if err := os.WriteFile(tmp, []byte(script), 0o755); err != nil {
			return err
		}
		if err := os.Rename(tmp, p); err != nil {
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
