package executors

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// The build of a step writes the shared caches (GOCACHE, GOMODCACHE,
// CARGO_HOME); the test programs it builds must not, or one prediction's
// init() rewrites the archives every later build links (the poisoning of
// issue 13). go test runs each test binary through the program -exec names,
// and cargo through its target runner; the executor points both at a test
// launcher that runs the program in user, mount and PID namespaces of its
// own in which every shared cache is mounted read-only.
//
// The launcher needs no privilege (it works for a non-root osbench too):
// an unprivileged user namespace where the run user is root makes the
// read-only bind mounts, and a second one maps the run user back to its own
// uid, so the test program has no capability and its mounts are locked: it
// can neither remount them writable nor unmount them to reach what is below.
// The PID namespace hides the build's processes, whose /proc/PID/root would
// otherwise lead back to the writable view. The test program is not pid 1
// of that namespace (a shell waits for it), so signals and orphans behave
// as usual for it.
const testLauncherScript = `#!/bin/sh
# Written by osbench's local executor: go test (-exec) and cargo (target
# runner) run test programs through this, with the shared build caches
# mounted read-only.
set -e
case "$1" in
--osbench-readonly)
	uid=$2 gid=$3
	shift 3
	for d in %s; do
		mount --bind "$d" "$d"
		mount -o remount,bind,ro "$d"
	done
	exec unshare --user --map-user="$uid" --map-group="$gid" --mount --pid --fork --mount-proc --kill-child -- "$0" --osbench-run "$@"
	;;
--osbench-run)
	shift
	"$@"
	exit
	;;
esac
exec unshare --user --map-root-user --mount -- "$0" --osbench-readonly "$(id -u)" "$(id -g)" "$@"
`

// testLauncherName is the launcher's file name; its directory is named by
// the digest of its content, so launchers for different cache sets never
// replace each other while a command runs.
const testLauncherName = "osbench-test-exec"

// writeTestLauncher writes the launcher that protects dirs into stateDir
// and returns its path.
func writeTestLauncher(stateDir string, dirs []string) (string, error) {
	dir, script := testLauncher(stateDir, dirs)
	if err := ensureScripts(dir, map[string]string{testLauncherName: script}); err != nil {
		return "", err
	}
	return filepath.Join(dir, testLauncherName), nil
}

// testLauncher is the launcher that protects dirs: its directory under
// stateDir and its script.
func testLauncher(stateDir string, dirs []string) (dir, script string) {
	quoted := make([]string, len(dirs))
	for i, d := range dirs {
		quoted[i] = shellQuote(d)
	}
	script = fmt.Sprintf(testLauncherScript, strings.Join(quoted, " "))
	sum := sha256.Sum256([]byte(script))
	return filepath.Join(stateDir, "test-launchers", hex.EncodeToString(sum[:8])), script
}

// testLauncherDir is the directory of the launcher that protects dirs.
func testLauncherDir(stateDir string, dirs []string) string {
	dir, _ := testLauncher(stateDir, dirs)
	return dir
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// testLauncherUsable reports whether the launcher can work here: util-
// linux's unshare is installed and unprivileged user namespaces are
// allowed (Debian's kernel.unprivileged_userns_clone, Ubuntu's AppArmor
// restriction, a zero user.max_user_namespaces all forbid them).
var testLauncherUsable = sync.OnceValue(func() error {
	if _, err := exec.LookPath("unshare"); err != nil {
		return fmt.Errorf("unshare (util-linux) not found")
	}
	for file, bad := range map[string]string{
		"/proc/sys/kernel/unprivileged_userns_clone":             "0",
		"/proc/sys/user/max_user_namespaces":                     "0",
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1",
	} {
		if b, err := os.ReadFile(file); err == nil && strings.TrimSpace(string(b)) == bad {
			return fmt.Errorf("%s is %s: unprivileged user namespaces are disabled", file, bad)
		}
	}
	return nil
})

// cargoRunnerVar is cargo's variable for the runner of the host target.
func cargoRunnerVar() string {
	arch := map[string]string{"amd64": "X86_64", "arm64": "AARCH64"}[runtime.GOARCH]
	if arch == "" {
		return ""
	}
	return "CARGO_TARGET_" + arch + "_UNKNOWN_LINUX_GNU_RUNNER"
}

// withTestLauncher hands env the launcher: always as TestSandboxVar, for
// launchers of the command's own that chain to it; and, unless crossRunner
// (Wine, whose go_windows_amd64_exec chains to TestSandboxVar itself), as
// -exec in GOFLAGS for a Go environment (one with GOCACHE) and as the host
// target's runner for a cargo one (CARGO_HOME). A runner the environment
// sets itself is kept: a manifest that sets one knows what it does, and
// keeps the protection only if its runner chains to TestSandboxVar
// (docs/security.md).
func withTestLauncher(env []string, launcher string, crossRunner bool) []string {
	env = setEnv(dedupEnv(env), TestSandboxVar, launcher)
	if crossRunner {
		return env
	}
	if _, ok := envLookup(env, "GOCACHE"); ok {
		flags, _ := envLookup(env, "GOFLAGS")
		if !strings.Contains(" "+flags, " -exec") {
			env = setEnv(env, "GOFLAGS", strings.TrimSpace(flags+" -exec="+launcher))
		}
	}
	if _, ok := envLookup(env, "CARGO_HOME"); ok {
		if v := cargoRunnerVar(); v != "" {
			if _, set := envLookup(env, v); !set {
				env = append(env, v+"="+launcher)
			}
		}
	}
	return env
}

// setEnv sets key in env, replacing its entry.
func setEnv(env []string, key, value string) []string {
	for i, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			env[i] = key + "=" + value
			return env
		}
	}
	return append(env, key+"="+value)
}

// dedupEnv keeps the last entry of each variable, where the first stood,
// as os/exec does: a program started by execve sees the first entry, so
// the environment handed to the sandbox init must have only one.
func dedupEnv(env []string) []string {
	last := map[string]int{}
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	out := make([]string, 0, len(last))
	seen := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, env[last[k]])
	}
	return out
}
