package testrun

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolenv"
)

// fetchRun is what the fetch of a run's locked dependencies needs.
type fetchRun struct {
	language, repo string
	// env and writable are the toolchain's environment and caches
	// (toolenv.Env), before the run goes offline: the fetch reaches the
	// registries as the host does and writes the shared caches.
	env, writable []string
	user          string
	timeout       time.Duration
	// log gets one line saying what was fetched; the fetch's own output,
	// which differs between a first run (downloads) and later ones
	// (nothing), goes to the side artifact fetch.log.
	log io.Writer
}

// fetch downloads the run's locked dependencies into the shared caches
// before its build and test commands run offline: osbench's own command
// (deps.FetchArgv), with the network, in the skeleton of the deps input
// (the lock files and, for cargo, Cargo.toml files and empty sources: no
// code of the repository, no .cargo/config). It runs in every run, not
// once in a cached step: the caches live outside the cache, and a fetch
// of what is there downloads nothing. A failed fetch is an error of the
// step, never a result of the tree: the lock files are the task's, the
// same for every patch.
func fetch(ctx context.Context, rc *engine.RunContext, ex executors.Executor, r fetchRun) error {
	if !deps.Locks(r.language) {
		return nil
	}
	dir := filepath.Join(rc.WorkDir, "lock")
	if hasInput(rc, InputDeps) {
		in, err := rc.Input(InputDeps)
		if err != nil {
			return err
		}
		if err := in.Materialize("lock", dir); err != nil {
			return err
		}
	} else if err := deps.WriteSkeleton(r.language, r.repo, dir); err != nil {
		return fmt.Errorf("lock files: %w", err)
	}
	flog, err := rc.SideWriter("fetch.log")
	if err != nil {
		return err
	}
	argv, err := deps.Fetch(ctx, ex, r.language, dir, executors.Cmd{
		Env: r.env, Timeout: r.timeout, User: r.user, WorkDir: rc.WorkDir, WritableDirs: r.writable,
	}, flog)
	if cerr := flog.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if argv != nil {
		fmt.Fprintf(r.log, "[osbench: locked dependencies fetched (%s); the commands below run offline]\n", deps.Short(argv))
	}
	return nil
}

// hasInput reports whether the running step declares an input by name.
func hasInput(rc *engine.RunContext, name string) bool {
	for _, in := range rc.Step.Inputs {
		if in.Name == name {
			return true
		}
	}
	return false
}

// fetchExecutor is the executor the fetch runs with: the step's, except
// under Wine, where the fetch is the host's go or cargo all the same and a
// Wine prefix would only cost time.
func fetchExecutor(rc *engine.RunContext, ex executors.Executor, name string) (executors.Executor, error) {
	if name != executors.WineName {
		return ex, nil
	}
	return toolenv.Executor(rc.StateDir, executors.LocalName)
}
