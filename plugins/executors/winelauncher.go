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
var wineLaunchers = map[string]string{
	"go_windows_amd64_exec": "#!/bin/sh\n# Written by osbench's wine executor: go test runs Windows test binaries through this.\nexec wine \"$@\"\n",
}

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
