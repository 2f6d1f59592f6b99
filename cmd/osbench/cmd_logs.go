package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
)

func newLogsCommand(g *globals) *cobra.Command {
	var which, name string
	var list, asJSON bool
	c := &cobra.Command{
		Use:   "logs STEP [--run N|RUN-ID] [--list] [--name LOG]",
		Short: "Print the raw log a step's run kept (the latest run, failed or not)",
		Long: "logs prints the raw log (a side artifact) of a recorded run of STEP, read from the cache:\n" +
			"by default the latest run, whether it passed or failed. STEP is a step ID as plan, explain and\n" +
			"the build print it (pathsep/linux/test; repeated runs are pathsep/linux/test#2 ...), or a unique\n" +
			"prefix or substring of one. No manifests are read. The log goes to stdout, one line about the\n" +
			"run to stderr. --list shows the recorded runs (newest first) and the logs each kept.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && !list {
				return usageError{errors.New("--json goes with --list (the log itself is printed raw)")}
			}
			e, err := g.newEngine(engine.Options{})
			if err != nil {
				return err
			}
			id, err := e.ResolveStep(args[0])
			if err != nil {
				var amb *engine.AmbiguousStepError
				if errors.As(err, &amb) && len(amb.Candidates) == 0 {
					return fmt.Errorf("%v (cache %s)", err, e.Cache().Dir())
				}
				return err
			}
			runs := e.StepRuns(id)
			if list {
				if which != "" {
					r, err := engine.SelectRun(runs, which)
					if err != nil {
						return usageError{err}
					}
					runs = []engine.StepRun{r}
				}
				return writeRunList(cmd.OutOrStdout(), id, runs, asJSON)
			}
			r, err := engine.SelectRun(runs, which)
			if err != nil {
				return usageError{err}
			}
			l, err := pickLog(r, name)
			if err != nil {
				return err
			}
			b, err := e.SideLogBytes(l)
			if errors.Is(err, engine.ErrLogGone) {
				return fmt.Errorf("the log %s of %s (run %s) is gone from the cache (trimmed by `osbench cache gc` or dropped by `osbench cache verify`); "+
					"`osbench build` reruns the step and keeps a new log", l.Name, id, r.Run)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "== %s: %s; log %s (%s)\n", id, runLine(r), l.Name, humanBytes(l.Size))
			_, err = cmd.OutOrStdout().Write(b)
			return err
		},
	}
	c.Flags().StringVar(&which, "run", "", "which recorded run: N-th latest (1 = latest, the default) or a run ID (see --list)")
	c.Flags().BoolVar(&list, "list", false, "list the step's recorded runs and the logs each kept")
	c.Flags().StringVar(&name, "name", "", "which log, when a run kept several (see --list)")
	c.Flags().BoolVar(&asJSON, "json", false, "with --list: print the runs as JSON")
	return c
}

// mainLog is the log a test run's readers want when they name none: the
// suite's own output (the dependency fetch keeps a fetch.log beside it).
const mainLog = "test.log"

// pickLog chooses the side artifact to print: the one named, the only
// one, or the test's own log when there are several.
func pickLog(r engine.StepRun, name string) (engine.SideLog, error) {
	if name == "" && len(r.Side) > 1 {
		for _, l := range r.Side {
			if l.Name == mainLog {
				return l, nil
			}
		}
	}
	names := make([]string, 0, len(r.Side))
	for _, l := range r.Side {
		if l.Name == name || name == "" && len(r.Side) == 1 {
			return l, nil
		}
		names = append(names, l.Name)
	}
	switch {
	case len(r.Side) == 0 && r.Status == engine.StatusFailed:
		return engine.SideLog{}, fmt.Errorf("%s failed in run %s before it kept a log: %s", r.Step, r.Run, r.Error)
	case len(r.Side) == 0:
		return engine.SideLog{}, fmt.Errorf("%s kept no log in run %s (steps of its kind keep none)", r.Step, r.Run)
	case name == "":
		return engine.SideLog{}, usageError{fmt.Errorf("run %s of %s kept %d logs; pick one with --name: %s", r.Run, r.Step, len(r.Side), strings.Join(names, ", "))}
	}
	return engine.SideLog{}, usageError{fmt.Errorf("run %s of %s kept no log %q; it kept: %s", r.Run, r.Step, name, strings.Join(names, ", "))}
}

// runLine describes a run in one line: "run ID (time), ran" or "..., failed: why".
func runLine(r engine.StepRun) string {
	s := fmt.Sprintf("run %s (%s), %s", r.Run, r.Time.UTC().Format(time.DateTime+" UTC"), r.Status)
	if r.Error != "" {
		first, _, _ := strings.Cut(r.Error, "\n")
		s += ": " + first
	}
	return s
}

func writeRunList(w io.Writer, id string, runs []engine.StepRun, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if runs == nil {
			runs = []engine.StepRun{}
		}
		return enc.Encode(runs)
	}
	noun := "runs"
	if len(runs) == 1 {
		noun = "run"
	}
	fmt.Fprintf(w, "%s: %d recorded %s, newest first (--run N picks one)\n", id, len(runs), noun)
	for i, r := range runs {
		fmt.Fprintf(w, "%3d  %s  key %s\n", i+1, runLine(r), r.Key.Short())
		if len(r.Side) == 0 {
			fmt.Fprintln(w, "       (no log)")
		}
		for _, l := range r.Side {
			state := humanBytes(l.Size)
			if !l.Present {
				state += ", gone from the cache"
			}
			fmt.Fprintf(w, "       %s  %s  %s\n", l.Name, state, l.Digest.Short())
		}
	}
	return nil
}
