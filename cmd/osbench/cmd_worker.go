package main

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/executors/temporal"
)

// temporalFlags are the flags of the client side (build, eval) and of
// workers.
type temporalFlags struct {
	hostPort  string
	namespace string
	heartbeat time.Duration
	attempts  int
	inFlight  int
	noWorker  time.Duration
	// factsFrom says, per platform, where its keys' facts come from
	// (--fingerprints-from: client or workers; facts.go).
	factsFrom map[string]string
}

func newWorkerCommand(g *globals) *cobra.Command {
	var executor string
	c := &cobra.Command{
		Use:   "worker --platform linux|windows --temporal HOST:PORT [--remote-cache URL]",
		Short: "Run the steps an osbench client sends through Temporal",
		Long: "worker polls the Temporal task queue of its platform and executor fingerprint\n" +
			"(osbench-<platform>-<fp>) and runs the steps clients send there (`osbench build\n" +
			"--temporal HOST:PORT`), with the local executor (linux, or windows on a Windows\n" +
			"host) or wine (windows on a Linux host). Only steps keyed with this worker's own\n" +
			"executor fingerprint reach it. Blobs come from and go to the remote cache\n" +
			"(--remote-cache, the clients' too); without one the worker's --cache-dir must be\n" +
			"the clients' cache directory. -j bounds its steps at once. Clients that cannot\n" +
			"fingerprint its platform themselves (a Linux client of real Windows workers:\n" +
			"--fingerprints-from windows=workers) key their steps with the facts it publishes.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.temporal.hostPort == "" {
				return usageError{errors.New("worker needs --temporal HOST:PORT")}
			}
			if len(g.platforms) != 1 || g.platforms[0] != "linux" && g.platforms[0] != "windows" {
				return usageError{errors.New("worker needs one --platform: linux or windows")}
			}
			platform := g.platforms[0]
			if executor == "" {
				executor = executors.LocalName
				if platform == "windows" && runtime.GOOS != "windows" {
					executor = executors.WineName
				}
			}
			if executor == executors.LocalName && platform != runtime.GOOS {
				// Its facts would be this host's, published as the
				// platform's: clients would key real Windows steps with
				// a Linux machine's fingerprint.
				return usageError{fmt.Errorf("worker --platform %s --executor local runs %s steps natively, which this %s host cannot (use --executor wine for windows here)", platform, platform, runtime.GOOS)}
			}
			ctx, stop := signalContext()
			defer stop()
			c, err := g.openCache()
			if err != nil {
				return err
			}
			unlock, err := c.SharedLock()
			if err != nil {
				return err
			}
			defer unlock()
			state, err := g.executorState(executor)
			if err != nil {
				return err
			}
			e := engine.New(c, engine.Options{Jobs: g.jobs, Log: g.log})
			fmt.Fprintf(cmd.ErrOrStderr(), "osbench worker: platform %s, executor %s, %d at once, temporal %s\n", platform, executor, g.jobs, g.temporal.hostPort)
			return temporal.RunWorker(ctx, temporal.WorkerOptions{
				HostPort: g.temporal.hostPort, Namespace: g.temporal.namespace,
				Platform: platform, Executor: executor, ExecutorState: state,
				Engine: e, Jobs: g.jobs, Log: g.log,
			})
		},
	}
	c.Flags().StringVar(&executor, "executor", "", "executor to run steps with (default: local; wine for windows on a Linux host)")
	return c
}

// startDispatch connects build and eval to Temporal when --temporal is
// given: the engine then sends the steps that run commands to workers.
// The returned function ends the build's workflows.
func (g *globals) startDispatch(cmd *cobra.Command) (func(), error) {
	if g.temporal.hostPort == "" {
		return func() {}, nil
	}
	c, err := g.openCache()
	if err != nil {
		return nil, err
	}
	d, err := temporal.NewDispatcher(cmd.Context(), g.dispatcherOptions(c))
	if err != nil {
		return nil, err
	}
	g.dispatcher = d
	if !cmd.Root().PersistentFlags().Changed("jobs") {
		// -j bounds the steps in flight, and a step on a worker holds
		// one slot of it while it waits: the cluster, not this machine's
		// cores, is the limit.
		g.jobs = g.temporal.inFlight
	}
	return func() {
		if err := d.Close(); err != nil {
			g.log.Warn().Err(err).Msg("temporal: ending the build's workflows")
		}
	}, nil
}

// dispatcherOptions configure the client side from the flags; c is the
// client engine's cache (nil for a dispatcher that only asks the workers'
// facts).
func (g *globals) dispatcherOptions(c *cache.Cache) temporal.DispatcherOptions {
	return temporal.DispatcherOptions{
		HostPort: g.temporal.hostPort, Namespace: g.temporal.namespace, Cache: c,
		Heartbeat: g.temporal.heartbeat, Attempts: int32(g.temporal.attempts), MaxInFlight: g.temporal.inFlight,
		NoWorkerTimeout: g.temporal.noWorker, Log: g.log,
	}
}
