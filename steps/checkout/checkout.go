// Package checkout is the "checkout" step kind: it turns a repository
// source into a content-addressed tree, plus a provenance record saying
// where the bytes came from and what pins them.
//
// Every remote kind is fetched once through a mirror kept under the cache's
// state dir (git: a bare mirror; Go modules: osbench's own GOMODCACHE;
// crates, Debian source packages and archives: the verified downloads), so
// reruns, later states and other repositories of the same upstream need no
// network. A fetch is refused, and nothing is cached, when the bytes do not
// match their pin; the error names the manifest line of the pin. A local
// directory is snapshotted, and its content digest (not its path) is what
// the key holds.
package checkout

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "checkout"

// The step's results.
const (
	// ResultSource is the repository's tree.
	ResultSource = "source"
	// ResultProvenance is a schemas.Provenance (JSON).
	ResultProvenance = schemas.ProvenanceResult
)

// LocalPath is the engine.Step.Local entry holding a local source's path.
const LocalPath = "path"

// OfflineEnv, set to 1, forbids every fetch: sources must come from the
// mirror. It is how a curator checks that a corpus rebuilds without a
// network, and never part of a key (it changes whether a run can happen,
// not what it makes).
const OfflineEnv = "OSBENCH_OFFLINE"

// Config is the checkout step's configuration: one source kind's fields.
type Config struct {
	Git    string `json:"git,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Tree is the digest of a local source directory, computed when the
	// graph is built; the step refuses to snapshot different content.
	Tree string `json:"tree,omitempty"`

	GoModule  string `json:"go_module,omitempty"`
	Sum       string `json:"sum,omitempty"`
	Crate     string `json:"crate,omitempty"`
	Debian    string `json:"debian,omitempty"`
	Packaging bool   `json:"packaging,omitempty"`
	Suite     string `json:"suite,omitempty"`
	Archive   string `json:"archive,omitempty"`
	SHA256    string `json:"sha256,omitempty"`

	// Extras are the extra_source trees placed inside this one (extras.go).
	Extras []Extra `json:"extras,omitempty"`
}

// SkipVCS leaves version-control metadata out of snapshots (cache.SkipVCS).
func SkipVCS(rel string, d fs.DirEntry) bool { return cache.SkipVCS(rel, d) }

// HashLocal is what the graph builder puts in Config.Tree for a local source.
func HashLocal(dir string) (string, error) {
	d, err := cache.HashTree(dir, SkipVCS)
	return string(d), err
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 2: the provenance result and the pinned registry kinds.
func (kind) Version() string { return "3" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Tree != "" {
		return snapshotLocal(rc, cfg)
	}
	dir := filepath.Join(rc.WorkDir, "src")
	var (
		prov schemas.Provenance
		err  error
	)
	switch {
	case cfg.Git != "":
		if err = os.MkdirAll(dir, 0o755); err == nil {
			prov, err = checkoutGit(ctx, rc, cfg, dir)
		}
	case cfg.GoModule != "":
		prov, err = checkoutGoModule(ctx, rc, cfg, dir)
	case cfg.Crate != "":
		prov, err = checkoutCrate(ctx, rc, cfg, dir)
	case cfg.Debian != "":
		prov, err = checkoutDebian(ctx, rc, cfg, dir)
	case cfg.Archive != "":
		prov, err = checkoutArchive(ctx, rc, cfg, dir)
	default:
		err = errors.New("checkout: the configuration names no source")
	}
	if err != nil {
		return err
	}
	if prov.Extras, err = placeExtras(rc, cfg, dir); err != nil {
		return err
	}
	return putTree(rc, dir, prov)
}

// putTree stores the tree and its provenance, which records the tree's
// digest so a task can be checked against the bytes it came from.
func putTree(rc *engine.RunContext, dir string, prov schemas.Provenance) error {
	if err := rc.PutTree(ResultSource, dir, SkipVCS); err != nil {
		return err
	}
	a, err := rc.OwnResult(ResultSource)
	if err != nil {
		return err
	}
	prov.Tree = string(a.Digest)
	return rc.PutJSON(ResultProvenance, prov)
}

func snapshotLocal(rc *engine.RunContext, cfg Config) error {
	path := rc.Step.Local[LocalPath]
	if path == "" {
		return errors.New("local source: no path given")
	}
	if len(cfg.Extras) > 0 {
		return localWithExtras(rc, cfg, path)
	}
	if err := putTree(rc, path, schemas.Provenance{Kind: "path"}); err != nil {
		return err
	}
	a, err := rc.OwnResult(ResultSource)
	if err != nil {
		return err
	}
	if string(a.Digest) != cfg.Tree {
		return fmt.Errorf("local source %s changed while osbench was running (tree %s, planned %s); run again", path, a.Digest.Short(), cache.Digest(cfg.Tree).Short())
	}
	rc.SetLabel("tree " + a.Digest.Short())
	return nil
}

// pinned prefixes an error with the manifest position of the config field
// that pins the bytes, so a refused fetch points at the line to fix.
func pinned(rc *engine.RunContext, field string, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	for _, f := range rc.Step.Config {
		if f.Name == field && f.Source != "" {
			return fmt.Errorf("%s: %s", f.Source, msg)
		}
	}
	return errors.New(msg)
}

func offline() bool { return os.Getenv(OfflineEnv) == "1" }

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
