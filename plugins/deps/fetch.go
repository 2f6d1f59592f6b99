package deps

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osbench/osbench/plugins/executors"
)

// Fetch runs the fetch of the skeleton at dir (FetchArgv) through ex with
// the network: cmd gives the toolchain's environment (toolenv.Env, before
// toolenv.Offline), the run user, the work dir, the caches it writes and
// the timeout. Its output goes to log. It returns the argv it ran (nil
// when there was nothing to fetch). A fetch that fails is an error: the
// lock files are osbench's input, not the code under test.
func Fetch(ctx context.Context, ex executors.Executor, language, dir string, cmd executors.Cmd, log io.Writer) ([]string, error) {
	argv := FetchArgv(language, dir)
	if argv == nil {
		return nil, nil
	}
	if language == Rust {
		if err := clearCargoHome(cmd.Env); err != nil {
			return nil, err
		}
	}
	tail := &tailBuffer{max: 2048}
	out := io.MultiWriter(log, tail)
	fmt.Fprintf(log, "$ %s\n", strings.Join(argv, " "))
	cmd.Argv, cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Network = argv, dir, out, out, true
	res, err := ex.Run(ctx, cmd)
	fmt.Fprintf(log, "[osbench: fetch exit %d, timed out %v, %s]\n", res.ExitCode, res.TimedOut, res.Duration.Round(time.Millisecond))
	if err != nil {
		return argv, fmt.Errorf("fetch of the locked dependencies: %w", err)
	}
	if res.ExitCode != 0 || res.TimedOut {
		return argv, fmt.Errorf("fetch of the locked dependencies (%s) failed: exit %d, timed out %v: %s",
			Short(argv), res.ExitCode, res.TimedOut, strings.TrimSpace(tail.String()))
	}
	return argv, nil
}

// Short names a fetch command without its paths.
func Short(argv []string) string { return strings.Join(argv[:min(len(argv), 3)], " ") }

// WriteSkeleton copies into dir what of the repository at repo the fetch
// needs (SkeletonFile).
func WriteSkeleton(language, repo, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(repo, p)
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		keep, empty := SkeletonFile(language, filepath.ToSlash(rel))
		if !keep && !empty {
			return nil
		}
		var b []byte
		if keep {
			if b, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

// cargoHomeConfigs are the files of a cargo home cargo reads for every
// command: osbench writes none of them, so any there was written by a
// build script of an earlier run (CARGO_HOME is writable for the cargo
// commands that run them) to steer this fetch ([source] replacement) or
// the builds after it (build.jobs = 0, a rustc wrapper).
var cargoHomeConfigs = []string{"config", "config.toml", "credentials", "credentials.toml"}

// clearCargoHome removes cargoHomeConfigs from the CARGO_HOME of env.
func clearCargoHome(env []string) error {
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "CARGO_HOME="); ok {
			home = v
		}
	}
	if home == "" {
		return nil
	}
	for _, name := range cargoHomeConfigs {
		if err := os.Remove(filepath.Join(home, name)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("cargo home: %w", err)
		}
	}
	return nil
}
