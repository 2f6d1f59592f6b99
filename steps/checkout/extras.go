package checkout

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// Extra is one extra_source tree: the checkout of another source (the
// step's input ExtraInput(Name)) placed at At inside the main tree. It
// is not task code (diffcov leaves it out), but it is part of the tree
// every run builds, so its output digest is in this step's key.
type Extra struct {
	Name string `json:"name"`
	At   string `json:"at"`
}

// ExtraInput is the name of the input holding extra source name's tree,
// and ExtraProvenanceInput the one holding its provenance: two inputs, each
// with its one result, so the key holds exactly those two digests.
func ExtraInput(name string) string { return "extra/" + name }

// ExtraProvenanceInput: see ExtraInput.
func ExtraProvenanceInput(name string) string { return "extra/" + name + "/provenance" }

// placeExtras puts every extra tree into dir and returns their
// provenance, in cfg.Extras' order. A tree's place must not hold files of
// the main tree: an extra source fills what the main one lacks (a test
// framework a repack stripped), it never overwrites.
func placeExtras(rc *engine.RunContext, cfg Config, dir string) ([]schemas.ExtraProvenance, error) {
	var out []schemas.ExtraProvenance
	for _, e := range cfg.Extras {
		in, err := rc.Input(ExtraInput(e.Name))
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(dir, filepath.FromSlash(e.At))
		if err := emptyPlace(dir, e.At); err != nil {
			return nil, pinned(rc, "extras", "extra_source %q: %v", e.Name, err)
		}
		if err := in.Materialize(ResultSource, dst); err != nil {
			return nil, err
		}
		provIn, err := rc.Input(ExtraProvenanceInput(e.Name))
		if err != nil {
			return nil, err
		}
		var prov schemas.Provenance
		if err := provIn.DecodeJSON(ResultProvenance, &prov); err != nil {
			return nil, err
		}
		out = append(out, schemas.ExtraProvenance{Name: e.Name, At: e.At, Provenance: prov})
	}
	return out, nil
}

// emptyPlace checks that at, inside dir, is absent or an empty directory,
// and that no parent on the way is a link or a file.
func emptyPlace(dir, at string) error {
	p := dir
	for _, part := range splitPath(at) {
		p = filepath.Join(p, part)
		info, err := os.Lstat(p)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return fmt.Errorf("the main tree has a file or link at %s", at)
		}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("the main tree already has files under %s (%s, …); an extra source may only fill an absent or empty directory", at, entries[0].Name())
	}
	return nil
}

func splitPath(p string) []string {
	var parts []string
	for p != "." && p != "/" && p != "" {
		parts = append([]string{path.Base(p)}, parts...)
		p = path.Dir(p)
	}
	return parts
}

// localWithExtras snapshots a local source with extra trees in it: the
// local tree must still be the one planned (cfg.Tree), then it is copied
// and the extras are placed in the copy.
func localWithExtras(rc *engine.RunContext, cfg Config, src string) error {
	d, err := cache.HashTree(src, SkipVCS)
	if err != nil {
		return err
	}
	if string(d) != cfg.Tree {
		return fmt.Errorf("local source %s changed while osbench was running (tree %s, planned %s); run again", src, d.Short(), cache.Digest(cfg.Tree).Short())
	}
	dir := filepath.Join(rc.WorkDir, "src")
	// A plain copy (links as links, .git too: the tree put below leaves it
	// out), so the extras can be added to it.
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		return err
	}
	extras, err := placeExtras(rc, cfg, dir)
	if err != nil {
		return err
	}
	if err := putTree(rc, dir, schemas.Provenance{Kind: "path", Extras: extras}); err != nil {
		return err
	}
	a, err := rc.OwnResult(ResultSource)
	if err != nil {
		return err
	}
	rc.SetLabel(fmt.Sprintf("tree %s (%d extra)", a.Digest.Short(), len(extras)))
	return nil
}
