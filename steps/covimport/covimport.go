// Package covimport is the "coverage" step kind: it imports the raw
// coverage file a test run left (in any registered format) and normalises
// it to repo-relative, "/"-separated paths with sorted line sets. It runs
// in-process and is cheap, and because its output is normalised it is where
// early cutoff catches reruns whose raw files differ only in noise.
package covimport

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"testing/fstest"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/coverage"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "coverage"

// Inputs of a coverage import.
const (
	InputTest   = "test"   // the test step whose coverage.raw is read
	InputSource = "source" // the checkout, for file paths
)

// Config is the coverage import's configuration.
type Config struct {
	Repository string `json:"repository"`
	Platform   string `json:"platform"`
	Format     string `json:"format"`
	// ImporterVersion is the importer's version (coverage.VersionOf) when
	// it is not "1".
	ImporterVersion string `json:"importer_version,omitempty"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version: an importer's changes reach the key through
// Config.ImporterVersion, so they rerun only that format's imports.
func (kind) Version() string { return "1" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	imp, ok := coverage.Lookup(cfg.Format)
	if !ok {
		return fmt.Errorf("unknown coverage format %q", cfg.Format)
	}
	run, err := rc.Input(InputTest)
	if err != nil {
		return err
	}
	raw, err := run.Bytes("coverage.raw")
	if err != nil {
		return err
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	modules, err := goModules(src)
	if err != nil {
		return err
	}
	files, err := imp.Import(bytes.NewReader(raw), coverage.Options{Root: schemas.WorkToken, Modules: modules})
	if err != nil {
		return fmt.Errorf("import %s coverage: %w", cfg.Format, err)
	}
	if files == nil {
		files = []schemas.FileCoverage{}
	}
	executed := 0
	for _, f := range files {
		executed += len(f.Executed)
	}
	rc.SetLabel(fmt.Sprintf("%d files, %d lines executed", len(files), executed))
	return rc.PutJSON("coverage.json", schemas.Coverage{Repository: cfg.Repository, Platform: cfg.Platform, Format: cfg.Format, Files: files})
}

// goModules maps module paths to repo directories from the checkout's go.mod
// files, read straight from the cached tree (nothing is materialized).
func goModules(src *engine.Artifacts) (map[string]string, error) {
	tree, err := src.Tree("source")
	if err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{}
	for _, e := range tree.Entries {
		if path.Base(e.Path) != "go.mod" {
			continue
		}
		b, err := src.TreeFile("source", e.Path)
		if err != nil {
			return nil, err
		}
		fsys[e.Path] = &fstest.MapFile{Data: b}
	}
	return coverage.ModulesFromGoMod(fsys)
}
