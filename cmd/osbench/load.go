package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/plugins/coverage"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/steps/maskrepo"
	"github.com/osbench/osbench/steps/verifyregions"
)

// defaultManifests is what commands use when given no PATH: the bundled
// examples, over the fixture repositories of this checkout.
const defaultManifests = "manifests/examples"

func manifestPaths(args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	if _, err := os.Stat(defaultManifests); err != nil {
		return nil, usageError{fmt.Errorf("no manifest given and %s not found here (run from the osbench checkout, or pass PATH...)", defaultManifests)}
	}
	return []string{defaultManifests}, nil
}

// knownPlugins tells the manifest loader which names the registries hold.
func knownPlugins() manifests.Known {
	in := func(names []string) func(string) bool {
		return func(n string) bool {
			for _, x := range names {
				if x == n {
					return true
				}
			}
			return false
		}
	}
	return manifests.Known{
		Parsers: in(parsers.Names()), Executors: in(executors.Names()),
		CoverageFormats: in(coverage.Names()), SkipStyles: in(manifests.SkipStyles()),
		Verifiers:   in(verifyregions.VerifierNames()),
		Maskers:     in(maskrepo.MaskerNames()),
		ParserNames: parsers.Names(), ExecutorNames: executors.Names(), CoverageFormatNames: coverage.Names(),
		VerifierNames: verifyregions.VerifierNames(),
		MaskerNames:   maskrepo.MaskerNames(),
	}
}

// loadManifests loads and validates; every diagnostic is printed to stderr
// with file:line:col and the source line. Errors yield errSilent. The
// platforms' executors are those of --executor where it names one, before
// anything that depends on them (skip_under) is resolved.
func (g *globals) loadManifests(args []string, stderr io.Writer) (*manifests.Set, error) {
	paths, err := manifestPaths(args)
	if err != nil {
		return nil, err
	}
	set, diags := manifests.Load(paths, manifests.LoadOptions{Known: knownPlugins(), Executors: g.split.executors})
	if len(diags) > 0 {
		var sources map[string][]byte
		if set != nil {
			sources = set.Sources
		}
		manifests.WriteDiagnostics(stderr, set, sources, diags)
	}
	if diags.HasErrors() {
		return nil, errSilent
	}
	return set, nil
}

// loadGraph loads manifests and compiles them into the step graph.
func (g *globals) loadGraph(ctx context.Context, args []string, stderr io.Writer) (*engine.Graph, error) {
	for _, p := range g.platforms {
		if p != "linux" && p != "windows" && p != "darwin" {
			return nil, usageError{fmt.Errorf("--platform %q: want linux, windows or darwin", p)}
		}
	}
	set, err := g.loadManifests(args, stderr)
	if err != nil {
		return nil, err
	}
	g.split.apply(set, stderr)
	// A command that dispatches nothing (plan) asks the workers' facts
	// over a connection of its own, closed once the keys are computed.
	defer g.closeFactsDispatcher()
	steps, err := compile.Compile(ctx, set, compile.Options{
		Platforms:     g.platforms,
		ExecutorState: g.executorState,
		Facts:         g.compileFacts(),
	})
	if err != nil {
		return nil, err
	}
	return engine.NewGraph(steps)
}

// prepare is what plan, explain and build share: the compiled graph and an
// engine over the cache.
func (g *globals) prepare(ctx context.Context, cmd *cobra.Command, paths []string, opts engine.Options) (*engine.Graph, *engine.Engine, error) {
	gr, err := g.loadGraph(ctx, paths, cmd.ErrOrStderr())
	if err != nil {
		return nil, nil, err
	}
	e, err := g.newEngine(opts)
	return gr, e, err
}
