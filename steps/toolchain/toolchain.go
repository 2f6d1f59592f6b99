// Package toolchain is the "toolchain" step kind: it resolves a pinned
// language toolchain on a platform and records its fingerprint (for Go, the
// output of `go version` under GOTOOLCHAIN=goX.Y.Z; for C and Rust, the
// versions of the installed compilers, build tools and Wine, see probes).
// The fingerprint is a result, so every step that consumes it is keyed by
// the exact toolchain.
//
// It also owns the environment a toolchain needs (Env), so the test step
// and this one agree on where tool caches live.
package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
)

// Kind is the step kind's name.
const Kind = "toolchain"

// Config is the toolchain step's configuration.
type Config struct {
	Language string `json:"language"` // "go", "c", "rust", "csharp"
	Version  string `json:"version"`  // "go1.25.0"; for other languages a version the compiler must report, or ""
	Platform string `json:"platform"`
	Executor string `json:"executor"`
	User     string `json:"user"`
}

var goVersion = regexp.MustCompile(`^go1\.\d+(\.\d+)?((rc|beta)\d+)?$`)

// Validate checks a version for a language.
func Validate(language, version string) error {
	if language == "go" && version != "" && !goVersion.MatchString(version) {
		return fmt.Errorf("toolchain %q is not a Go version like go1.25.0", version)
	}
	return nil
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string    { return Kind }
func (kind) Version() string { return "2" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	ps, probed := probesFor(cfg.Language, cfg.Platform)
	if cfg.Language != "go" && !probed {
		// A language osbench knows no tools of records what it was asked for.
		rc.SetLabel(cfg.Version)
		return rc.PutBytes("fingerprint", []byte(cfg.Language+" "+cfg.Version+"\n"))
	}
	ex, err := NewExecutor(rc, cfg.Executor)
	if err != nil {
		return err
	}
	env, writable, err := Env(rc, cfg.Language, cfg.Version, cfg.Platform)
	if err != nil {
		return err
	}
	if cfg.Language != "go" {
		versions, err := probeTools(ctx, ex, executors.Cmd{
			Env: env, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable,
		}, ps, cfg.Version, nil)
		if err != nil {
			return fmt.Errorf("%s toolchain on %s: %w", cfg.Language, cfg.Platform, err)
		}
		rc.SetLabel(versions.summary())
		return rc.PutBytes("fingerprint", []byte(versions.lines()))
	}
	var out, errb bytes.Buffer
	res, err := ex.Run(ctx, executors.Cmd{
		Argv: []string{"go", "version"}, Env: env, Stdout: &out, Stderr: &errb,
		Timeout: 10 * time.Minute, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable,
	})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("GOTOOLCHAIN=%s go version: exit %d: %s", cfg.Version, res.ExitCode, strings.TrimSpace(errb.String()))
	}
	fp := strings.TrimSpace(out.String())
	if cfg.Version != "" && !strings.Contains(fp, cfg.Version+" ") {
		return fmt.Errorf("asked for %s, got %q", cfg.Version, fp)
	}
	rc.SetLabel(cfg.Version)
	return rc.PutBytes("fingerprint", []byte(fp+"\n"))
}

// NewExecutor creates the named executor with its state under the cache.
func NewExecutor(rc *engine.RunContext, name string) (executors.Executor, error) {
	dir, err := rc.StateDir("executors", name)
	if err != nil {
		return nil, err
	}
	return executors.New(name, executors.Config{StateDir: dir})
}

// Env returns the environment for commands that use the toolchain, and the
// long-lived directories they write. For Rust: CARGO_HOME, shared. For Go: GOTOOLCHAIN pins the version
// (the go command fetches it from the module proxy once, into the shared
// module cache); GOCACHE is per toolchain and platform so builds stay
// incremental across runs without ever entering a key; GOPATH is private to
// the run; GOENV is off, so no user's go env file applies. Host settings for
// reaching the module proxy pass through.
func Env(rc *engine.RunContext, language, version, platform string) (env, writable []string, err error) {
	env = baseEnv()
	if language == "rust" {
		// One cargo home for every Rust run: cargo fetches a crate's
		// dependencies into it (at the versions and checksums its Cargo.lock
		// pins, so the bytes are those the lock names), and the test runs
		// read them offline from there. Like GOMODCACHE it is a download
		// cache, never a key component.
		home, err := rc.StateDir("cargo", "home")
		if err != nil {
			return nil, nil, err
		}
		return append(env, "CARGO_HOME="+home), []string{home}, nil
	}
	if language != "go" {
		return env, nil, nil
	}
	gocache, err := rc.StateDir("go", "build-cache", safe(version)+"-"+platform)
	if err != nil {
		return nil, nil, err
	}
	modcache, err := rc.StateDir("go", "mod-cache")
	if err != nil {
		return nil, nil, err
	}
	env = append(env,
		"GOTOOLCHAIN="+orLocal(version),
		"GOCACHE="+gocache,
		"GOMODCACHE="+modcache,
		"GOPATH="+filepath.Join(rc.WorkDir, "gopath"),
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

// baseEnv is the environment every command starts from: the PATH of
// hostPath and the host's settings for reaching the module proxy.
func baseEnv() []string {
	env := []string{"PATH=" + hostPath()}
	for _, name := range []string{"GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOPRIVATE", "GOINSECURE", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"} {
		if v, ok := lookupHost(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
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

// HostPath is the PATH the steps' commands get (see hostPath), for a
// caller that must find the same tools they do (osbench init pinning the
// host's rustc).
func HostPath() string { return hostPath() }

// hostPath is the PATH commands get: the directory of the host's go command
// first, then the standard system directories. It is not part of any key:
// the toolchain fingerprint is.
func hostPath() string {
	dirs := []string{}
	if goBin, err := exec.LookPath("go"); err == nil {
		dirs = append(dirs, filepath.Dir(goBin))
	} else if runtime.GOOS != "windows" {
		dirs = append(dirs, "/usr/local/go/bin")
	}
	dirs = append(dirs, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
	return strings.Join(dirs, string(filepath.ListSeparator))
}
