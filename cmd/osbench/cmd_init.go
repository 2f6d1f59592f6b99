package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/pipeline/initmanifest"
)

func newInitCommand(g *globals) *cobra.Command {
	var out, sha256, toolchain, timeout, buildTimeout, runner string
	var params []string
	var force, rerun bool
	c := &cobra.Command{
		Use:   "init SOURCE [--out FILE]",
		Short: "Write a first manifest for a repository from one run per platform",
		Long: "init checks SOURCE out, picks the preset from its tree, pins the source, runs the suite once per\n" +
			"platform through the same cached steps a build uses, proposes a skip list per platform (tests\n" +
			"that fail, hang or crash on one platform only, each with the reason) and the migration\n" +
			"directions that have lines on the target only. The manifest goes to --out or stdout, the\n" +
			"summary to stderr. SOURCE is " + initmanifest.Forms + ".",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := initmanifest.ParseSource(args[0], sha256)
			if err != nil {
				return usageError{err}
			}
			c, err := g.openCache()
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			stderr := cmd.ErrOrStderr()
			res, err := initmanifest.Run(ctx, initmanifest.Options{
				Source: src, Out: out, Toolchain: toolchain, Rerun: rerun, Force: force,
				Params: initmanifest.ParamArgs{Params: params, Runner: runner}, Timeout: timeout, BuildTimeout: buildTimeout,
				Cache:   c,
				Engine:  g.initEngineOptions(),
				Compile: compile.Options{Platforms: g.platforms, ExecutorState: g.executorState},
				Known:   knownPlugins(),
				Observe: func(total int) (engine.Observer, func()) {
					p := newProgress(stderr, g.log, total)
					return p, p.Done
				},
			})
			if err != nil {
				return err
			}
			res.WriteSummary(stderr)
			if res.Text == nil {
				return errSilent
			}
			if out == "" {
				_, err = cmd.OutOrStdout().Write(res.Text)
				return err
			}
			if err := writeFileAtomic(out, res.Text); err != nil {
				return err
			}
			fmt.Fprintln(stderr, "wrote", out)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&out, "out", "", "write the manifest to this file (default: stdout)")
	f.StringVar(&sha256, "sha256", "", "the archive's (or crate's, or .dsc's) SHA-256")
	f.StringVar(&toolchain, "toolchain", "", "the toolchain to pin (default: the host's go or rustc version)")
	f.BoolVar(&force, "force", false, "write the manifest even when no direction has one-sided lines")
	f.StringArrayVar(&params, "param", nil, "a preset parameter KEY=VALUE written into the manifest's params (repeatable; a list parameter takes one element per --param, or an HCL list)")
	f.StringVar(&runner, "runner", "", "the preset's runner parameter (c-cmake: ctest, gtest or each), instead of the preset's default")
	f.StringVar(&timeout, "timeout", "", "every platform's test timeout and eval_timeout (a Go duration), instead of the preset's and the proposed one")
	f.StringVar(&buildTimeout, "build-timeout", "", "every platform's build.timeout (a Go duration), instead of the preset's")
	f.BoolVar(&rerun, "rerun", true, "run once more with the proposed skips, so a build of the manifest finds its runs cached")
	return c
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it over path, so an interrupted init never leaves half a manifest.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// initEngineOptions are the engine options of init's runs.
func (g *globals) initEngineOptions() engine.Options {
	opts := engine.Options{Jobs: g.jobs, Pools: g.pools, Log: g.log}
	g.infraOptions(&opts)
	return opts
}
