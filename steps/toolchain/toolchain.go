// Package toolchain is the "toolchain" step kind: it resolves a pinned
// language toolchain on a platform and records its fingerprint (for Go, the
// output of `go version` under GOTOOLCHAIN=goX.Y.Z; for C and Rust, the
// versions of the installed compilers, build tools and Wine: plugins/toolprobe).
// The fingerprint is a result, so every step that consumes it is keyed by
// the exact toolchain.
//
// Its commands run in the toolchain's environment (plugins/toolenv), the
// one the test and mask steps use too.
package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolenv"
	"github.com/osbench/osbench/plugins/toolprobe"
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
	ps, probed := toolprobe.For(cfg.Language, cfg.Platform, cfg.Executor)
	if cfg.Language != "go" && !probed {
		// A language osbench knows no tools of records what it was asked for.
		rc.SetLabel(cfg.Version)
		return rc.PutBytes("fingerprint", []byte(cfg.Language+" "+cfg.Version+"\n"))
	}
	ex, err := toolenv.Executor(rc.StateDir, cfg.Executor)
	if err != nil {
		return err
	}
	env, writable, err := toolenv.Env(rc.StateDir, rc.WorkDir, cfg.Language, cfg.Version, cfg.Platform)
	if err != nil {
		return err
	}
	if cfg.Language != "go" {
		versions, err := toolprobe.Run(ctx, ex, executors.Cmd{
			Env: env, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable,
		}, ps, cfg.Version, nil)
		if err != nil {
			return fmt.Errorf("%s toolchain on %s: %w", cfg.Language, cfg.Platform, err)
		}
		rc.SetLabel(versions.Summary())
		return rc.PutBytes("fingerprint", []byte(versions.Lines()))
	}
	var out, errb bytes.Buffer
	res, err := ex.Run(ctx, executors.Cmd{
		Argv: []string{"go", "version"}, Env: env, Stdout: &out, Stderr: &errb,
		Timeout: 10 * time.Minute, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable,
		// The go command downloads the pinned toolchain (a module of
		// the proxy, checked against the checksum database); it runs no
		// code of a repository.
		Network: true,
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
