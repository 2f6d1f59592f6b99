package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/pipeline/evalreport"
	"github.com/osbench/osbench/pipeline/evalrun"
)

func newEvalCommand(g *globals) *cobra.Command {
	var o evalrun.Options
	c := &cobra.Command{
		Use:   "eval --tasks DIR/tasks.jsonl --predictions P.jsonl [--predictions …] --out OUT",
		Short: "Evaluate agents' patches on both platforms of each task",
		Long: "eval applies each prediction's patch to its task's masked repository and runs\n" +
			"Stage I (the target's FAIL_TO_PASS and PASS_TO_PASS tests) and Stage II (the source's\n" +
			"PASS_ON_SOURCE tests); resolved means both pass. Predictions are SWE-bench's\n" +
			"(instance_id, model_name_or_path, model_patch) as JSONL or a JSON list, or a directory\n" +
			"of <instance_id>.diff files with --model. It writes OUT/<model>/<instance_id>/report.json,\n" +
			"OUT/summary.json, OUT/summary.md and OUT/report.html. Every step is cached: evaluating\n" +
			"the same predictions again runs nothing. Bad entries are reported and the rest evaluated\n" +
			"(the exit status is then 1); so are predictions whose runs failed for reasons not the\n" +
			"patch's (infra-failure, exit status 1 too: rerun eval to retry them).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Tasks == "" || len(o.Predictions) == 0 || o.Out == "" {
				return usageError{errors.New("eval needs --tasks, --predictions and --out")}
			}
			ctx, stop := signalContext()
			defer stop()
			var err error
			if o.Out, err = filepath.Abs(o.Out); err != nil {
				return err
			}
			if o.Cache, err = g.openCache(); err != nil {
				return err
			}
			endDispatch, err := g.startDispatch(cmd)
			if err != nil {
				return err
			}
			defer endDispatch()
			o.Compile = compile.Options{Platforms: g.platforms, ExecutorState: g.executorState, Facts: g.compileFacts()}
			o.Shard = g.split.shard
			o.Phase = func(phase string, steps int) (engine.Options, func()) {
				p := newProgress(cmd.ErrOrStderr(), g.log.With().Str("phase", phase).Logger(), steps)
				return engine.Options{Jobs: g.jobs, Pools: g.pools, Log: g.log, Observer: p, Dispatcher: g.dispatcher}, p.Done
			}
			res, err := evalrun.Run(ctx, o)
			if errors.Is(err, context.Canceled) {
				return errSilent
			}
			if err != nil {
				return err
			}
			for _, p := range res.Problems {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s\n", p.Error())
			}
			out := cmd.OutOrStdout()
			if err := evalreport.Table(out, res.Summary); err != nil {
				return err
			}
			fmt.Fprintf(out, "eval: %d predictions; %s", len(res.Reports), res.Steps.Line())
			if res.Retried > 0 {
				fmt.Fprintf(out, "; %d retried after an infrastructure failure", res.Retried)
			}
			fmt.Fprintf(out, "\nreports: %s\n", filepath.Join(o.Out, "report.html"))
			infra, suspected := 0, 0
			for _, m := range res.Summary.Models {
				infra += m.InfraFailures
				suspected += m.TamperSuspected
			}
			if suspected > 0 {
				// Evidence for people, not a verdict: the exit status
				// stays what the verdicts make it.
				fmt.Fprintf(cmd.ErrOrStderr(), "eval: %d predictions are tamper-suspected (their patches imitate or bypass a test runner; see tamper_findings in their report.json)\n", suspected)
			}
			if infra > 0 {
				// Not a verdict on any patch: a CI run must not pass on it.
				fmt.Fprintf(cmd.ErrOrStderr(), "eval: %d predictions could not be judged (infra-failure, see their report.json); run eval again to retry them\n", infra)
			}
			if len(res.Problems) > 0 || infra > 0 {
				return errSilent
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&o.Tasks, "tasks", "", "tasks.jsonl written by `osbench build --out DIR`")
	f.StringArrayVar(&o.Predictions, "predictions", nil, "predictions: JSONL, a JSON list, or a directory of <instance_id>.diff (repeatable)")
	f.StringVar(&o.Model, "model", "", "model of a directory's patches, or of entries that name none")
	f.StringVar(&o.Out, "out", "", "output directory")
	return c
}

func newReportCommand(g *globals) *cobra.Command {
	var compare []string
	c := &cobra.Command{
		Use:   "report OUT [SHARD_OUT...]",
		Short: "Render summary.json, summary.md and report.html again from OUT's per-instance reports",
		Long: "report renders OUT's summary again from its per-instance reports. Given the output\n" +
			"directories of `eval --shard I/N` runs, it first copies their reports into OUT: the summary\n" +
			"is then byte for byte the one a single eval of all the predictions writes.\n\n" +
			"--compare A,B prints a paired comparison of models A and B on the tasks both were evaluated\n" +
			"on instead: the tasks only one resolved and McNemar's exact two-sided p-value.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(compare) > 0 {
				if len(compare) != 2 || len(args) != 1 {
					return fmt.Errorf("report --compare takes two models (--compare A,B) and one OUT")
				}
				reports, err := evalreport.Load(args[0])
				if err != nil {
					return err
				}
				c, err := evalreport.Compare(reports, compare[0], compare[1])
				if err != nil {
					return err
				}
				return evalreport.WriteComparison(cmd.OutOrStdout(), c)
			}
			if len(args) > 1 {
				n, err := evalreport.MergeShards(args[0], args[1:])
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "report: %d reports from %d shards\n", n, len(args)-1)
			}
			reports, err := evalreport.Load(args[0])
			if err != nil {
				return err
			}
			if len(reports) == 0 {
				return fmt.Errorf("%s: no <model>/<instance_id>/report.json here", args[0])
			}
			s, err := evalreport.Write(args[0], reports)
			if err != nil {
				return err
			}
			return evalreport.Table(cmd.OutOrStdout(), s)
		},
	}
	c.Flags().StringSliceVar(&compare, "compare", nil, "two models to compare on their common tasks: A,B")
	return c
}

// executorState is where an executor keeps its state (Wine prefixes…):
// under the cache, shared by every command.
func (g *globals) executorState(name string) (string, error) {
	dir := filepath.Join(g.cacheDir, "state", "executors", name)
	return dir, os.MkdirAll(dir, 0o755)
}
