package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/executors/temporal"
)

// globals are the flags every command shares.
type globals struct {
	cacheDir  string
	logFormat string
	logLevel  string
	jobs      int
	pools     map[string]int // executor → at most this many of its steps at once
	platforms []string
	log       zerolog.Logger
	remote    remoteFlags
	split     splitFlags
	temporal  temporalFlags
	// dispatcher, set by startDispatch, sends steps to Temporal workers.
	dispatcher engine.Dispatcher
	// factsDispatcher asks the workers' facts for a command that
	// dispatches no step (plan).
	factsDispatcher *temporal.Dispatcher
}

type usageError struct{ error }

func isUsageError(err error) bool {
	_, ok := err.(usageError)
	return ok || strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.Contains(err.Error(), "accepts ") || strings.HasPrefix(err.Error(), "invalid argument")
}

func newRootCommand() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:           "osbench",
		Short:         "Build and evaluate cross-OS code-migration benchmarks",
		Long:          "osbench compiles repository manifests (HCL) into a DAG of cached, content-addressed steps:\ncheckout, toolchain, test and coverage on each platform. Only what changed reruns.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return g.setup(cmd.ErrOrStderr())
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.cacheDir, "cache-dir", defaultCacheDir(), "cache directory (env OSBENCH_CACHE)")
	pf.StringVar(&g.logFormat, "log-format", "console", "log format: console or json")
	pf.StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	pf.IntVarP(&g.jobs, "jobs", "j", runtime.NumCPU(), "steps run in parallel")
	pf.StringToIntVar(&g.pools, "pool", nil, "at most N steps of an executor at once, e.g. --pool wine=1 (Wine runs are heavy); repeatable")
	pf.StringSliceVar(&g.platforms, "platform", nil, "only these platforms' steps (linux, windows); default: all the manifests define")
	g.remote.register(pf)
	g.split.register(pf)
	pf.StringVar(&g.temporal.hostPort, "temporal", "", "run steps that run commands on osbench workers through the Temporal server at HOST:PORT")
	pf.StringVar(&g.temporal.namespace, "temporal-namespace", "default", "Temporal namespace")
	pf.DurationVar(&g.temporal.heartbeat, "temporal-heartbeat", 30*time.Second, "a worker silent this long is taken for dead and its step goes to another")
	pf.IntVar(&g.temporal.attempts, "temporal-attempts", 3, "attempts per step on workers (a step that fails is not retried; a worker that dies is)")
	pf.IntVar(&g.temporal.inFlight, "temporal-in-flight", 64, "steps of one build running on workers at once")
	pf.DurationVar(&g.temporal.noWorker, "temporal-no-worker-timeout", 2*time.Minute, "a step whose queue (platform and fingerprint) no live worker serves fails after this long, saying what differs")
	pf.StringToStringVar(&g.temporal.factsFrom, "fingerprints-from", nil, "key PLATFORM's steps with the executor and tools fingerprints of this machine (client) or of its live Temporal workers (workers), e.g. windows=workers; default: workers for a platform whose local executor would run on another OS (real Windows workers of a Linux client), client otherwise")
	root.AddCommand(
		newValidateCommand(g), newFmtCommand(g), newPlanCommand(g), newExplainCommand(g), newLogsCommand(g),
		newGraphCommand(g), newBuildCommand(g), newEvalCommand(g), newReportCommand(g), newSolveCommand(g),
		newCacheCommand(g), newSchemaCommand(g), newInitCommand(g), newCorpusCommand(g),
		newWorkerCommand(g),
	)
	return root
}

func defaultCacheDir() string {
	if d := os.Getenv("OSBENCH_CACHE"); d != "" {
		return d
	}
	// As root, /root is not reachable by the unprivileged user that runs
	// test commands, so a root osbench keeps its cache (and work dirs) in
	// /var/cache unless told otherwise.
	if os.Getenv("XDG_CACHE_HOME") == "" && os.Geteuid() == 0 && runtime.GOOS != "windows" {
		return "/var/cache/osbench"
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "osbench")
	}
	return ".osbench-cache"
}

func (g *globals) setup(stderr io.Writer) error {
	lvl, err := zerolog.ParseLevel(g.logLevel)
	if err != nil {
		return usageError{fmt.Errorf("--log-level: %v", err)}
	}
	switch g.logFormat {
	case "json":
		g.log = zerolog.New(stderr).With().Timestamp().Logger().Level(lvl)
	case "console":
		g.log = zerolog.New(zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.TimeOnly, NoColor: !isTerminal(stderr)}).
			With().Timestamp().Logger().Level(lvl)
	default:
		return usageError{fmt.Errorf("--log-format must be console or json, not %q", g.logFormat)}
	}
	if g.jobs < 1 {
		return usageError{fmt.Errorf("--jobs must be at least 1")}
	}
	if err := g.remote.check(); err != nil {
		return usageError{err}
	}
	if err := g.split.check(); err != nil {
		return usageError{err}
	}
	if err := checkFactsFrom(g.temporal.factsFrom, g.temporal.hostPort); err != nil {
		return usageError{err}
	}
	for name, n := range g.pools {
		if n < 1 {
			return usageError{fmt.Errorf("--pool %s=%d: a pool needs at least 1 step", name, n)}
		}
	}
	return nil
}

func (g *globals) openCache() (*cache.Cache, error) {
	c, err := cache.Open(g.cacheDir)
	if err != nil {
		return nil, err
	}
	if err := g.remote.attach(c, g.log); err != nil {
		return nil, err
	}
	return c, nil
}

// newEngine opens the cache and returns an engine over it.
func (g *globals) newEngine(opts engine.Options) (*engine.Engine, error) {
	c, err := g.openCache()
	if err != nil {
		return nil, err
	}
	opts.Jobs = g.jobs
	opts.Pools = g.pools
	opts.Log = g.log
	opts.Dispatcher = g.dispatcher
	return engine.New(c, opts), nil
}

// signalContext is cancelled on the first Ctrl-C or SIGTERM; running steps
// are then stopped (their process groups killed) and nothing half-done is
// recorded. A second signal exits at once.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			fmt.Fprintln(os.Stderr, "osbench: interrupted; stopping running steps (again to force)")
			cancel()
		case <-ctx.Done():
			return
		}
		<-ch
		os.Exit(130)
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
