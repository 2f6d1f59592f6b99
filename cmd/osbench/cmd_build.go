package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/steps/corpusreport"
)

func newBuildCommand(g *globals) *cobra.Command {
	var out string
	var keepGoing bool
	c := &cobra.Command{
		Use:   "build [PATH...] [--out DIR]",
		Short: "Run every step that is not already in the cache",
		Long: "build runs the step graph of the given manifests (default: the bundled examples).\n" +
			"With --out it exports DIR/runs/<repository>/<platform>/{tests,coverage}.json.\n" +
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
			if out != "" {
				// Which steps of this run succeeded, failed and why: what
				// `osbench corpus` reads beside build-report.json.
				if werr := writeJSON(filepath.Join(out, corpusreport.StepsFile), rep); werr != nil {
					return werr
				}
			}
			for _, f := range rep.Failures() {
				fmt.Fprintf(cmd.ErrOrStderr(), "FAILED %s: %s\n", f.ID, f.Error)
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

// writeJSON writes v as indented JSON, through a temporary file so a reader
// never sees half of it.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
