package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
)

func newPlanCommand(g *globals) *cobra.Command {
	var asJSON, skips bool
	c := &cobra.Command{
		Use:   "plan [PATH...]",
		Short: "Say what a build would do, without running anything",
		Long:  "plan computes every step's key and reports hit, miss (with the reason) or blocked\n(downstream of a miss, so its key is not known yet). It shares its code path with build.",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signalContext()
			defer stop()
			gr, e, err := g.prepare(ctx, cmd, args, engine.Options{})
			if err != nil {
				return err
			}
			rep, err := e.Plan(ctx, gr)
			if err != nil {
				return err
			}
			if asJSON {
				return writePlanJSON(cmd, rep)
			}
			if skips {
				// The graph was compiled from this same set.
				set, err := g.loadManifests(args, io.Discard)
				if err != nil {
					return err
				}
				writeSkips(cmd.OutOrStdout(), set)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, s := range rep.Steps {
				fmt.Fprintf(w, "%s\t%s\t%s\n", s.Status, s.ID, s.Reason)
			}
			w.Flush()
			sum := rep.Summary()
			fmt.Fprintf(cmd.OutOrStdout(), "%d steps: %d hit, %d miss, %d blocked\n", sum.Total, sum.Hit, sum.Miss, sum.Blocked)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: summary and steps")
	c.Flags().BoolVar(&skips, "skips", false, "first list each platform's skipped tests under the executor that runs it (as validate --skips)")
	return c
}

type planJSON struct {
	Summary planSummary `json:"summary"`
	Steps   []planStep  `json:"steps"`
}

type planSummary struct {
	Total   int `json:"total"`
	Hit     int `json:"hit"`
	Miss    int `json:"miss"`
	Blocked int `json:"blocked"`
}

type planStep struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Status  engine.Status   `json:"status"`
	Reason  string          `json:"reason,omitempty"`
	Key     string          `json:"key,omitempty"`
	Changes []engine.Change `json:"changes,omitempty"`
}

func writePlanJSON(cmd *cobra.Command, rep *engine.Report) error {
	sum := rep.Summary()
	out := planJSON{Summary: planSummary{Total: sum.Total, Hit: sum.Hit, Miss: sum.Miss, Blocked: sum.Blocked}, Steps: []planStep{}}
	for _, s := range rep.Steps {
		out.Steps = append(out.Steps, planStep{ID: s.ID, Kind: s.Kind, Status: s.Status, Reason: s.Reason, Key: string(s.Key), Changes: s.Changes})
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func newExplainCommand(g *globals) *cobra.Command {
	var asJSON bool
	var paths []string
	c := &cobra.Command{
		Use:   "explain STEP [--manifests PATH...]",
		Short: "Say why a step ran or will run: which key component changed, old → new, and where",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signalContext()
			defer stop()
			gr, e, err := g.prepare(ctx, cmd, paths, engine.Options{})
			if err != nil {
				return err
			}
			x, err := e.Explain(ctx, gr, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(x)
			}
			fmt.Fprintln(cmd.OutOrStdout(), strings.Join(x.Lines(), "\n"))
			return nil
		},
	}
	c.Flags().StringSliceVar(&paths, "manifests", nil, "manifest files or directories (default: the bundled examples)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the explanation as JSON")
	return c
}

func newGraphCommand(g *globals) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "graph [PATH...]",
		Short: "Print the step graph (dot or mermaid)",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signalContext()
			defer stop()
			gr, err := g.loadGraph(ctx, args, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			switch format {
			case "dot":
				fmt.Fprint(cmd.OutOrStdout(), gr.Dot())
			case "mermaid":
				fmt.Fprint(cmd.OutOrStdout(), gr.Mermaid())
			default:
				return usageError{fmt.Errorf("--format must be dot or mermaid, not %q", format)}
			}
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "dot", "dot or mermaid")
	return c
}
