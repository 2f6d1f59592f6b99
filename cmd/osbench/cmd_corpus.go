package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/corpusreport"
)

func newCorpusCommand(g *globals) *cobra.Command {
	var build, eval, write, note, partial string
	var wall time.Duration
	c := &cobra.Command{
		Use:   "corpus --build DIR [--eval DIR] [--write FILE] [PATH...]",
		Short: "Print the corpus table: per repository, candidates, tasks, rejections, gold and empty verdicts",
		Long: "corpus reads what `osbench build --out DIR` and `osbench eval --out DIR/eval` wrote for the\n" +
			"given manifests (default: the bundled examples) and prints one Markdown table: per repository\n" +
			"its language and source pin, candidate tasks, validated tasks, rejections with their reasons\n" +
			"and failed steps, and how many tasks the gold and the empty patch resolved; then totals per\n" +
			"language and per migration direction. A repository that gave nothing keeps its row.\n" +
			"--write also writes the table to FILE (docs/corpus.md for `make corpus`).\n" +
			"--partial-tasks FILE writes, instead of the table, the tasks of the task steps that succeeded,\n" +
			"for a build whose tasks.jsonl is missing because a failed step blocked the step that gathers them.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if build == "" {
				return usageError{errors.New("corpus needs --build DIR (the --out of osbench build)")}
			}
			if partial != "" {
				b, n, err := corpusreport.PartialTasks(build)
				if err != nil {
					return err
				}
				if err := os.WriteFile(partial, b, 0o644); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "corpus: %d tasks of the task steps that succeeded, in %s\n", n, partial)
				return nil
			}
			set, err := g.loadManifests(args, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			in, err := corpusreport.Load(build, eval)
			if err != nil {
				return err
			}
			in.WallTime, in.Note = wall, note
			for _, r := range set.Repositories {
				in.Repositories = append(in.Repositories, corpusRepository(r))
			}
			md := corpusreport.Make(in).Markdown()
			for _, v := range in.Preservation.Violations {
				fmt.Fprintf(cmd.ErrOrStderr(), "corpus: warning: a mask changed lines the source platform executed: %s\n", v)
			}
			if write != "" {
				if err := os.MkdirAll(filepath.Dir(write), 0o755); err != nil {
					return err
				}
				// The curated sections after the table (the curator's
				// first day) are the file's own, not the table's.
				old, err := os.ReadFile(write)
				if err != nil && !os.IsNotExist(err) {
					return err
				}
				if err := os.WriteFile(write, []byte(corpusreport.WithCurated(md, string(old))), 0o644); err != nil {
					return err
				}
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), md)
			return err
		},
	}
	f := c.Flags()
	f.StringVar(&build, "build", "", "output directory of `osbench build --out`")
	f.StringVar(&eval, "eval", "", "output directory of `osbench eval --out` (gold and empty predictions)")
	f.StringVar(&write, "write", "", "also write the table to this file")
	f.StringVar(&note, "note", "", "a sentence put under the title (e.g. why the figures are partial)")
	f.StringVar(&partial, "partial-tasks", "", "write the tasks of the task steps that succeeded to this file (no table)")
	f.DurationVar(&wall, "wall-time", 0, "how long the corpus run took, to state in the table")
	return c
}

func corpusRepository(r *manifests.Repository) corpusreport.Repository {
	out := corpusreport.Repository{Name: r.Name, Language: r.Language, Pin: sourcePin(r.Source)}
	for _, d := range r.Migrate {
		out.Directions = append(out.Directions, d.Source+"->"+d.Target)
	}
	return out
}

// sourcePin is how the table names a repository's upstream source: the
// version or commit it is pinned to (the digests that verify it are in the
// manifest and in each task's provenance).
func sourcePin(s manifests.Source) string {
	switch {
	case s.GoModule != "":
		return s.GoModule
	case s.Crate != "":
		return "crate " + s.Crate
	case s.Debian != "":
		return "debian " + s.Debian
	case s.Archive != "":
		return s.Archive + " sha256:" + short(s.SHA256)
	case s.Git != "":
		return s.Git + "@" + short(s.Commit)
	default:
		return "path " + filepath.Base(s.Path)
	}
}

func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}
