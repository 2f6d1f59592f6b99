// Package toolenv is the environment a repository's tools run in: the PATH
// every command gets, the host's settings for reaching the package
// registries, and the long-lived caches of each language's toolchain (Go's
// build and module caches, Rust's cargo home), which stay outside every key
// because what they hold changes what a run costs, never what it gives.
//
// The toolchain step probes a toolchain in this environment, and the test
// and mask steps run in it, so all three agree on where the caches are
// without one step kind importing another.
package toolenv

import (
	"github.com/osbench/osbench/plugins/executors"

	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// StateDir returns a long-lived directory under the cache for the given
// path parts, creating it (engine.RunContext.StateDir).
type StateDir func(parts ...string) (string, error)

// Env returns the environment for commands that use a language's toolchain
// (version on platform), and the long-lived directories they write.
// workDir is the running step's work directory.
//
// For Rust: CARGO_HOME, shared. For Go: GOTOOLCHAIN pins the version (the
// go command fetches it from the module proxy once, into the shared module
// cache); GOCACHE is per toolchain and platform so builds stay incremental
// across runs without ever entering a key; GOPATH is private to the run;
// GOENV is off, so no user's go env file applies. Host settings for
// reaching the module proxy pass through.
func Env(stateDir StateDir, workDir, language, version, platform string) (env, writable []string, err error) {
	env = BaseEnv()
	if language == "rust" {
		// One cargo home for every Rust run: cargo fetches a crate's
		// dependencies into it (at the versions and checksums its Cargo.lock
		// pins, so the bytes are those the lock names), and the test runs
		// read them offline from there. Like GOMODCACHE it is a download
		// cache, never a key component.
		home, err := stateDir("cargo", "home")
		if err != nil {
			return nil, nil, err
		}
		return append(env, "CARGO_HOME="+home), []string{home}, nil
	}
	if language != "go" {
		return env, nil, nil
	}
	gocache, err := stateDir("go", "build-cache", safe(version)+"-"+platform)
	if err != nil {
		return nil, nil, err
	}
	modcache, err := stateDir("go", "mod-cache")
	if err != nil {
		return nil, nil, err
	}
	env = append(env,
		"GOTOOLCHAIN="+orLocal(version),
		"GOCACHE="+gocache,
		"GOMODCACHE="+modcache,
		"GOPATH="+filepath.Join(workDir, "gopath"),
		// Read-write module cache files, so osbench (and gc) can delete them.
		"GOFLAGS=-modcacherw",
		"GOTELEMETRY=off",
		// No go env file: a run with user = "root" has root's real
		// HOME, whose $HOME/.config/go/env (`go env -w`) would set
		// GOFLAGS, GOTOOLCHAIN, CGO_ENABLED ... unseen by any key.
		"GOENV=off",
	)
	return env, []string{gocache, modcache}, nil
}

// Offline turns Env's environment into the one of commands that run
// repository or patch code (builds, tests, a mask's build check): they find
// their dependencies where the fetch put them and download nothing.
// It returns the environment, the directories they write and those they
// only read (executors.Cmd.ReadOnlyDirs).
//
// Go: GOPROXY is the module cache's own download directory (a file://
// proxy), GOSUMDB is off and -mod=mod lets the go command complete go.sum
// from what is cached. GOPROXY=off would do for the modules, but not for
// the pinned toolchain: the go command checks a toolchain module against
// the checksum database even when it is cached and GOSUMDB is off, except
// when GOPROXY is a lone file:// URL (cmd/go/internal/modfetch/sumdb.go),
// and the fetch (`go mod download` under GOTOOLCHAIN) has put it there.
// GOMODCACHE becomes read-only (copy-on-write where Hide hides the
// module's own versions in it); GOCACHE stays writable (the go command
// runs no code of the patch).
//
// Rust: CARGO_NET_OFFLINE, which beats any .cargo/config, and the program
// keys of a .cargo/config overridden by variables, which beat config files
// too: no rustc wrapper (an empty RUSTC_WRAPPER disables a configured
// one), rustc and rustdoc from PATH, the host's linker. Test runners are
// the executor's (its test sandbox) and the preset's. CARGO_HOME becomes
// copy-on-write (executors.Cmd.CopyOnWriteDirs): cargo writes it even
// offline, and a build script's writes must reach no later command.
func Offline(env, writable []string, language string) (offEnv, offWritable, readOnly, copyOnWrite []string) {
	switch language {
	case "go":
		modcache, _ := lookup(env, "GOMODCACHE")
		env = set(env, "GOPROXY", "file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")))
		env = set(env, "GOSUMDB", "off")
		env = unset(env, "GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GOINSECURE")
		flags, _ := lookup(env, "GOFLAGS")
		env = set(env, "GOFLAGS", strings.TrimSpace(flags+" -mod=mod"))
		for _, d := range writable {
			if d == modcache {
				readOnly = append(readOnly, d)
			} else {
				offWritable = append(offWritable, d)
			}
		}
		return env, offWritable, readOnly, nil
	case "rust":
		for _, kv := range [][2]string{
			{"CARGO_NET_OFFLINE", "true"},
			{"RUSTC_WRAPPER", ""},
			{"RUSTC_WORKSPACE_WRAPPER", ""},
			{"RUSTC", "rustc"},
			{"RUSTDOC", "rustdoc"},
			// The host's linker (build scripts and proc macros link
			// for it on every platform) is cargo's default; another
			// target's is the preset's, set in the platform's env.
			{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "cc"},
		} {
			env = set(env, kv[0], kv[1])
		}
		// CARGO_HOME is written by cargo even offline (it extracts crate
		// sources and takes a lock there): copy-on-write, so what a build
		// script writes reaches no other command.
		home, _ := lookup(env, "CARGO_HOME")
		for _, d := range writable {
			if d == home {
				copyOnWrite = append(copyOnWrite, d)
			} else {
				offWritable = append(offWritable, d)
			}
		}
		return env, offWritable, nil, copyOnWrite
	}
	return env, writable, nil, nil
}

func lookup(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// set replaces every entry of name with one name=value.
func set(env []string, name, value string) []string {
	return append(unset(env, name), name+"="+value)
}

func unset(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, k) {
			out = append(out, kv)
		}
	}
	return out
}

// Executor creates the named executor with its state under the cache.
func Executor(stateDir StateDir, name string) (executors.Executor, error) {
	dir, err := stateDir("executors", name)
	if err != nil {
		return nil, err
	}
	return executors.New(name, executors.Config{StateDir: dir})
}

// BaseEnv is the environment every command starts from: the PATH of
// HostPath and the host's settings for reaching the module proxy.
func BaseEnv() []string {
	env := []string{"PATH=" + HostPath()}
	for _, name := range []string{"GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOPRIVATE", "GOINSECURE", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"} {
		if v, ok := lookupHost(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// lookupHost reads a host environment variable. It is the one place a step
// reads the host environment, and only for how to reach the module proxy,
// which changes where bytes come from, never what they are.
func lookupHost(name string) (string, bool) { return os.LookupEnv(name) }

// HostPath is the PATH commands get: the directory of the host's go command
// first, then the standard system directories. It is not part of any key:
// the toolchain fingerprint is. osbench init looks for tools on it too, so
// it pins what the steps will find.
func HostPath() string {
	dirs := []string{}
	if goBin, err := exec.LookPath("go"); err == nil {
		dirs = append(dirs, filepath.Dir(goBin))
	} else if runtime.GOOS != "windows" {
		dirs = append(dirs, "/usr/local/go/bin")
	}
	dirs = append(dirs, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
	return strings.Join(dirs, string(filepath.ListSeparator))
}

// Merge lays a manifest's variables over the toolchain's environment.
// GOFLAGS is joined rather than replaced so the toolchain's own flags
// survive.
func Merge(base []string, extra map[string]string) []string {
	idx := map[string]int{}
	for i, kv := range base {
		idx[kv[:strings.IndexByte(kv, '=')]] = i
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := extra[k]
		if i, ok := idx[k]; ok {
			if k == "GOFLAGS" {
				v = strings.TrimPrefix(base[i], "GOFLAGS=") + " " + v
			}
			base[i] = k + "=" + v
			continue
		}
		base = append(base, k+"="+v)
	}
	return base
}

func orLocal(v string) string {
	if v == "" {
		return "local"
	}
	return v
}

func safe(s string) string {
	if s == "" {
		return "local"
	}
	return strings.NewReplacer("/", "_", "\\", "_", "..", "_").Replace(s)
}
