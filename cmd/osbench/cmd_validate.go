package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/manifests"
)

func newValidateCommand(g *globals) *cobra.Command {
	var skips bool
	c := &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Check manifests and report every problem with file:line:col",
		Long:  "validate loads manifests (files or directories of *.hcl; default: the bundled examples),\napplies presets and reports every error at once. Exit 1 on any error. With --skips it\nlists what each platform's runs leave out under its executor (after --executor):\na test block's skip, plus its skip_under entries for that executor.",
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := g.loadManifests(args, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if skips {
				writeSkips(cmd.OutOrStdout(), set)
			}
			if len(set.Agents) > 0 {
				// Agent files (osbench solve --agent) validate like manifests.
				fmt.Fprintf(cmd.OutOrStdout(), "%d agents: %s\n", len(set.Agents), agentNames(set))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d repositories, no problems\n", len(set.Repositories))
			return nil
		},
	}
	c.Flags().BoolVar(&skips, "skips", false, "also list each platform's skipped tests under the executor that runs it (see --executor) and the skip_under entries of other executors")
	return c
}

func agentNames(set *manifests.Set) string {
	names := make([]string, len(set.Agents))
	for i, a := range set.Agents {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

func newFmtCommand(g *globals) *cobra.Command {
	var check bool
	c := &cobra.Command{
		Use:   "fmt [-check] [PATH...]",
		Short: "Rewrite manifests in canonical HCL style",
		RunE: func(cmd *cobra.Command, args []string) error {
			paths, err := manifestPaths(args)
			if err != nil {
				return err
			}
			files, err := hclFiles(paths)
			if err != nil {
				return err
			}
			var unformatted []string
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				if bytes.Equal(src, manifests.Format(src)) {
					continue
				}
				unformatted = append(unformatted, f)
				if !check {
					if _, err := manifests.FormatFile(f); err != nil {
						return err
					}
				}
				fmt.Fprintln(cmd.OutOrStdout(), f)
			}
			if check && len(unformatted) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%d file(s) not formatted; run osbench fmt\n", len(unformatted))
				return errSilent
			}
			return nil
		},
	}
	c.Flags().BoolVar(&check, "check", false, "list unformatted files and exit 1 instead of rewriting")
	return c
}

// hclFiles expands directories into their *.hcl files.
func hclFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.hcl"))
		if err != nil {
			return nil, err
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}
