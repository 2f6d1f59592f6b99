// Package depset is the "deps" step kind: from a repository tree it takes
// the locked dependency set (plugins/deps) and the skeleton the fetch
// needs — the lock files and, for cargo, the Cargo.toml files and empty
// Rust sources — and runs nothing.
//
// The step is pure on purpose. Its results depend on the lock files only,
// so the complete repository, its masked tree and a task's repository give
// the same digests, and the test runs keyed by them agree: the gold
// patch's evaluation still hits the build's runs. The download itself is a
// phase of each test run (steps/testrun), through the skeleton this step
// made, because the caches it fills (GOMODCACHE, CARGO_HOME) are shared
// directories outside the cache: a cached "fetched" record could outlive
// the files it stands for (a trimmed cache, another machine), and then an
// offline build would fail for a reason that has nothing to do with the
// tree. A fetch of what is already there downloads nothing.
package depset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "deps"

// InputSource is the tree whose lock files are read: a tree result named
// "source" (a checkout, or a task's repository in an evaluation — never a
// patched tree).
const InputSource = "source"

// Results: the skeleton tree the fetch runs in, and the locked set
// (schemas.LockedDeps, or JSON null when the tree locks nothing).
const (
	OutputLock = "lock"
	OutputSet  = schemas.LockedDepsResult
)

// Config is the step's configuration.
type Config struct {
	Language string `json:"language"`
	// Rules is deps.Version: what a set holds and what the skeleton
	// copies.
	Rules string `json:"rules"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string    { return Kind }
func (kind) Version() string { return "1" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Rules != deps.Version {
		return fmt.Errorf("deps step configured for rules %q, but this osbench has %q", cfg.Rules, deps.Version)
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	tree, err := src.Tree("source")
	if err != nil {
		return err
	}
	skel := filepath.Join(rc.WorkDir, "lock")
	if err := os.MkdirAll(skel, 0o755); err != nil {
		return err
	}
	for _, e := range tree.Entries {
		if !e.Mode.IsRegular() {
			continue
		}
		keep, empty := deps.SkeletonFile(cfg.Language, e.Path)
		if !keep && !empty {
			continue
		}
		var b []byte
		if keep {
			if b, err = src.TreeFile("source", e.Path); err != nil {
				return fmt.Errorf("lock file %s: %w", e.Path, err)
			}
		}
		dst := filepath.Join(skel, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	set, err := deps.Read(cfg.Language, skel)
	if err != nil {
		return fmt.Errorf("locked dependencies: %w", err)
	}
	if err := rc.PutTree(OutputLock, skel, nil); err != nil {
		return err
	}
	rc.SetLabel(label(set))
	return rc.PutJSON(OutputSet, set)
}

func label(set *schemas.LockedDeps) string {
	if set == nil {
		return "no lock files"
	}
	return fmt.Sprintf("%d locked", len(set.Dependencies))
}
