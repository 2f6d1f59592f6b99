package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/corpusreport"
	"github.com/osbench/osbench/pipeline/evalreport"
)

func newBuildCommand(g *globals) *cobra.Command {
	var out string
	var keepGoing bool
	var verifyCache float64
	c := &cobra.Command{
		Use:   "build [PATH...] [--out DIR]",
		Short: "Run every step that is not already in the cache",
		Long: "build runs the step graph of the given manifests (default: the bundled examples).\n" +
			"With --out it exports DIR/runs/<repository>/<platform>/{tests,coverage}.json and each run's\n" +
			"raw log beside them (test.log; test-run2.log ... for the repeated runs of flaky_runs).\n" +
			"--verify-cache runs cache hits again (all, or a sample: --verify-cache=0.1) and reports\n" +
			"every step whose results differ from the cached ones (nondeterminism, exit status 1);\n" +
			"the cached results are kept. The summary line comes before the verify-cache line.",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signalContext()
			defer stop()
			// Connected first: the keys of a platform this machine cannot
			// fingerprint take the facts of its workers.
			endDispatch, err := g.startDispatch(cmd)
			if err != nil {
				return err
			}
			defer endDispatch()
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
			if verifyCache < 0 || verifyCache > 1 {
				return usageError{fmt.Errorf("--verify-cache takes a fraction of hits from 0 to 1, not %v", verifyCache)}
			}
			e, err := g.newEngine(engine.Options{OutDir: out, KeepGoing: keepGoing, Observer: progress, VerifyCache: verifyCache})
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
			if fs := rep.Failures(); len(fs) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "a failed step's log: osbench logs %s\n", fs[0].ID)
			}
			fmt.Fprintln(cmd.OutOrStdout(), rep.Summary().Line())
			nondeterministic := rep.Nondeterministic()
			if verifyCache > 0 {
				verified := 0
				for _, st := range rep.Steps {
					if st.Verify != "" {
						verified++
					}
					if strings.HasPrefix(st.Verify, engine.VerifyRerunFailed) {
						fmt.Fprintf(cmd.ErrOrStderr(), "verify-cache: %s: %s\n", st.ID, st.Verify)
					}
				}
				for _, st := range nondeterministic {
					fmt.Fprintf(cmd.ErrOrStderr(), "NONDETERMINISTIC %s: %s; the cached result is kept\n", st.ID, strings.TrimPrefix(st.Verify, engine.VerifyDiffers+": "))
				}
				fmt.Fprintf(cmd.OutOrStdout(), "verify-cache: %d hits run again, %d gave other results\n", verified, len(nondeterministic))
			}
			if errors.Is(err, context.Canceled) {
				return errSilent
			}
			if err != nil {
				return err
			}
			if len(rep.Failures()) > 0 || len(nondeterministic) > 0 {
				return errSilent
			}
			return nil
		},
	}
	c.Flags().Float64Var(&verifyCache, "verify-cache", 0, "run this fraction of cache hits again (bare flag: all) and report any whose results differ")
	c.Flags().Lookup("verify-cache").NoOptDefVal = "1"
	c.Flags().StringVar(&out, "out", "", "export results to this directory")
	c.Flags().BoolVar(&keepGoing, "keep-going", true, "a failing repository does not stop the others")
	return c
}

// writeJSON writes v as indented JSON through a temporary file of its own
// in path's directory, renamed into place: a reader never sees half of it,
// and two builds exporting to one --out never write through each other's
// temporary (a fixed name made one of them fail).
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return evalreport.WriteFile(path, append(b, '\n'))
}
