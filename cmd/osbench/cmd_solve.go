package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/solverun"
	"github.com/osbench/osbench/steps/agentsolve"
)

func newSolveCommand(g *globals) *cobra.Command {
	var (
		o         solverun.Options
		agentFile string
		agentName string
	)
	c := &cobra.Command{
		Use:   "solve --agent FILE --tasks DIR/tasks.jsonl [--attempts K] --out OUT",
		Short: "Run a declared agent on every task and write its patches as predictions",
		Long: "solve runs the agent declared in FILE (an agent \"NAME\" block, docs/agents.md) in a copy of\n" +
			"each task's masked repository, K times, and takes each attempt's patch by diffing what the\n" +
			"agent left against the masked tree: test-file edits are dropped and listed, oversized files\n" +
			"refused. It writes OUT/predictions.jsonl (model_name_or_path NAME@attempt-K), which\n" +
			"`osbench eval --predictions` takes as it is, and OUT/solves.jsonl. Every attempt is a\n" +
			"cached step keyed by the task, the agent's declaration and files, the instruction\n" +
			"template and the attempt: solving again runs nothing; an interrupted solve resumes.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if agentFile == "" || o.Tasks == "" || o.Out == "" {
				return usageError{errors.New("solve needs --agent, --tasks and --out")}
			}
			set, err := g.loadManifests([]string{agentFile}, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			agent, err := pickAgent(set, agentName, agentFile)
			if err != nil {
				return err
			}
			o.Agent = agent
			o.Where = fmt.Sprintf("%s:%d,%d", agent.DeclRange.Filename, agent.DeclRange.Start.Line, agent.DeclRange.Start.Column)
			ctx, stop := signalContext()
			defer stop()
			if o.Out, err = filepath.Abs(o.Out); err != nil {
				return err
			}
			if o.Cache, err = g.openCache(); err != nil {
				return err
			}
			o.Executor, o.ExecutorState = "local", g.executorState
			o.Engine = func(steps int) (engine.Options, func()) {
				p := newProgress(cmd.ErrOrStderr(), g.log.With().Str("phase", "solve").Logger(), steps)
				return engine.Options{Jobs: g.jobs, Pools: g.pools, Log: g.log, Observer: p}, p.Done
			}
			res, err := solverun.Run(ctx, o)
			if errors.Is(err, context.Canceled) {
				return errSilent
			}
			if err != nil {
				return err
			}
			for _, p := range res.Problems {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s\n", p.Error())
			}
			for _, f := range res.Failed {
				fmt.Fprintf(cmd.ErrOrStderr(), "failed: %s\n", f)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "solve: %d predictions by %s; %s\nbudget: %s\n",
				res.Predictions, agent.Name, res.Steps.Line(), res.Spent.Line())
			for _, over := range res.Spent.OverBudget {
				fmt.Fprintf(cmd.OutOrStdout(), "  %s\n", over)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "predictions: %s\n", filepath.Join(o.Out, solverun.PredictionsFile))
			if len(res.Problems) > 0 || len(res.Failed) > 0 {
				return errSilent
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&agentFile, "agent", "", "HCL file declaring the agent")
	f.StringVar(&agentName, "name", "", "the agent to run when the file declares several")
	f.StringVar(&o.Tasks, "tasks", "", "tasks.jsonl written by `osbench build --out`")
	f.IntVar(&o.Attempts, "attempts", 1, "attempts per task (pass@k and pass^k need more than one)")
	f.StringVar(&o.Out, "out", "", "output directory")
	f.Int64Var(&o.MaxFileBytes, "max-file-bytes", agentsolve.DefaultMaxFileBytes, "files the agent writes larger than this are refused")
	return c
}

func pickAgent(set *manifests.Set, name, file string) (*manifests.Agent, error) {
	var names []string
	for _, a := range set.Agents {
		if a.Name == name || (name == "" && len(set.Agents) == 1) {
			return a, nil
		}
		names = append(names, a.Name)
	}
	switch {
	case len(set.Agents) == 0:
		return nil, fmt.Errorf("%s declares no agent", file)
	case name == "":
		return nil, usageError{fmt.Errorf("%s declares %d agents (%s); pick one with --name", file, len(names), strings.Join(names, ", "))}
	}
	return nil, fmt.Errorf("%s declares no agent %q (it has %s)", file, name, strings.Join(names, ", "))
}
