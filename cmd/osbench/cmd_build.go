package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
)

func newBuildCommand(g *globals) *cobra.Command {
	var out string
	var keepGoing bool
	c := &cobra.Command{
		Use:   "build [PATH...] [--out DIR]",
		Short: "Run every step that is not already in the cache",
		Long: "build runs the step graph of the given manifests (default: the bundled examples).\n" +
			"With --out it exports DIR/runs/<repository>/<platform>/{tests,coverage}.json and each run's\n" +
			"raw log beside them (test.log; test-run2.log ... for the repeated runs of flaky_runs).\n" +
			"The last line of output is the summary.",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signalContext()
			defer stop()
			gr, err := g.loadGraph(ctx, args, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if out != "" {
				if out, err = filepath.Abs(out); err != nil {
					return err
				}
			}
			progress := newProgress(cmd.ErrOrStderr(), g.log, gr.Len())
			e, err := g.newEngine(engine.Options{OutDir: out, KeepGoing: keepGoing, Observer: progress})
			if err != nil {
				return err
			}
			rep, err := e.Build(ctx, gr)
			progress.Done()
			if rep == nil {
				return err
			}
			for _, f := range rep.Failures() {
				fmt.Fprintf(cmd.ErrOrStderr(), "FAILED %s: %s\n", f.ID, f.Error)
			}
			if fs := rep.Failures(); len(fs) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "a failed step's log: osbench logs %s\n", fs[0].ID)
			}
			fmt.Fprintln(cmd.OutOrStdout(), rep.Summary().Line())
			if errors.Is(err, context.Canceled) {
				return errSilent
			}
			if err != nil {
				return err
			}
			if len(rep.Failures()) > 0 {
				return errSilent
			}
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "export results to this directory")
	c.Flags().BoolVar(&keepGoing, "keep-going", true, "a failing repository does not stop the others")
	return c
}
