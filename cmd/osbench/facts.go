package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/executors/temporal"
)

// Where the facts of a platform's keys (executor and tools fingerprints)
// come from, by --fingerprints-from PLATFORM=SOURCE.
const (
	factsFromClient  = "client"  // this machine's own executors and probes
	factsFromWorkers = "workers" // the live Temporal workers of the platform and executor
)

func checkFactsFrom(from map[string]string, temporalHostPort string) error {
	for p, src := range from {
		if p != "linux" && p != "windows" && p != "darwin" {
			return fmt.Errorf("--fingerprints-from %s=%s: want linux, windows or darwin before the =", p, src)
		}
		switch src {
		case factsFromClient:
		case factsFromWorkers:
			if temporalHostPort == "" {
				return fmt.Errorf("--fingerprints-from %s=workers needs --temporal HOST:PORT: the facts come from the workers there", p)
			}
		default:
			return fmt.Errorf("--fingerprints-from %s=%s: want client or workers after the =", p, src)
		}
	}
	return nil
}

// factsFromWorkersFor reports whether the steps of platform run with
// executor are keyed with the workers' facts: when --fingerprints-from
// says so, or by default through Temporal for a platform the local
// executor would run on another OS than this one (a Linux client keying
// steps for real Windows workers, which it cannot fingerprint).
func (g *globals) factsFromWorkersFor(platform, executor string) bool {
	switch g.temporal.factsFrom[platform] {
	case factsFromWorkers:
		return true
	case factsFromClient:
		return false
	}
	return g.temporal.hostPort != "" && executor == executors.LocalName && platform != runtime.GOOS
}

// compileFacts is compile.Options.Facts for this run: the facts of each
// platform and executor that the workers supply, asked once.
func (g *globals) compileFacts() func(ctx context.Context, platform, executor string) (compile.Facts, bool, error) {
	var mu sync.Mutex
	known := map[string]*temporal.PlatformFacts{}
	failed := map[string]error{}
	return func(ctx context.Context, platform, executor string) (compile.Facts, bool, error) {
		if !g.factsFromWorkersFor(platform, executor) {
			return nil, false, nil
		}
		mu.Lock()
		defer mu.Unlock()
		k := platform + "/" + executor
		if f, ok := known[k]; ok {
			return f, true, nil
		}
		if _, ok := failed[k]; ok {
			// Said in full once, for the first repository that asked.
			return nil, false, fmt.Errorf("no facts of platform %s (executor %s) from the workers (why: above)", platform, executor)
		}
		d, err := g.temporalDispatcher(ctx)
		if err == nil {
			var f *temporal.PlatformFacts
			if f, err = d.WorkerFacts(ctx, platform, executor); err == nil {
				g.log.Info().Str("platform", platform).Str("executor", executor).Str("from", f.String()).
					Msg("keying the platform's steps with its workers' facts")
				known[k] = f
				return f, true, nil
			}
		}
		err = fmt.Errorf("facts of platform %s (executor %s) from the workers: %w", platform, executor, err)
		failed[k] = err
		return nil, false, err
	}
}

// temporalDispatcher is the build's dispatcher, or for a command that
// dispatches nothing (plan) one connected only to ask the workers for
// their facts, closed by closeFactsDispatcher.
func (g *globals) temporalDispatcher(ctx context.Context) (*temporal.Dispatcher, error) {
	if d, ok := g.dispatcher.(*temporal.Dispatcher); ok {
		return d, nil
	}
	if g.factsDispatcher != nil {
		return g.factsDispatcher, nil
	}
	d, err := temporal.NewDispatcher(ctx, g.dispatcherOptions(nil))
	if err != nil {
		return nil, err
	}
	g.factsDispatcher = d
	return d, nil
}

func (g *globals) closeFactsDispatcher() {
	if g.factsDispatcher == nil {
		return
	}
	if err := g.factsDispatcher.Close(); err != nil {
		g.log.Warn().Err(err).Msg("temporal: closing the connection that asked the workers' facts")
	}
	g.factsDispatcher = nil
}
