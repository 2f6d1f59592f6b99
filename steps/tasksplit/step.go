package tasksplit

import (
	"context"
	"fmt"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "split"

// Inputs of a split step: the checkout (R+, for the functions of each
// file) and the direction's verify step.
const (
	InputSource = "source"
	InputVerify = "verify"
)

// Config is the split step's configuration: which group of how many.
type Config struct {
	Repository string `json:"repository"`
	Source     string `json:"source"`
	Target     string `json:"target"`
	Group      int    `json:"group"` // 1-based
	Of         int    `json:"of"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 1: units by function, clusters by feature group, directory,
// file; largest-first packing. Version 2: regions that span several
// functions are cut at their boundaries first, and a cluster over a fair
// share of the lines is divided further.
func (kind) Version() string { return "2" }

// Run puts two results: regions.json, the verify step's document with only
// this group's kept regions (what the group's mask step masks, read as it
// reads the verify step's), and group.json (schemas.SplitRecord). Only
// the group's own regions are in regions.json, so a change to another
// group leaves this one's digest, and every step below it, as it was.
func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Of < 1 || cfg.Group < 1 || cfg.Group > cfg.Of {
		return fmt.Errorf("split: group %d of %d is not a group", cfg.Group, cfg.Of)
	}
	vr, err := rc.Input(InputVerify)
	if err != nil {
		return err
	}
	var verified schemas.Verified
	if err := vr.DecodeJSON(schemas.RegionsFile, &verified); err != nil {
		return err
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	kept := verified.Kept()
	funcs := map[string][]verify.Function{}
	for _, r := range kept {
		if _, done := funcs[r.File]; done {
			continue
		}
		content, err := src.TreeFile("source", r.File)
		if err != nil {
			return fmt.Errorf("split: read %s: %w", r.File, err)
		}
		fs, err := verify.Functions(r.File, content)
		if err != nil {
			// Without its functions the file is one unit: a group then
			// takes all of its regions or none, never half a function.
			fs = []verify.Function{{Name: r.File, From: 1, To: strings.Count(string(content), "\n") + 1}}
			rc.Log.Info().Str("file", r.File).Err(err).Msg("no functions read; the file's regions stay together")
		}
		funcs[r.File] = fs
	}
	groups, units := Assign(kept, funcs, cfg.Of)
	g := groups[cfg.Group-1]
	rec := schemas.SplitRecord{Group: g.TaskGroup, Units: units, Sizes: make([]int, len(groups))}
	for i, other := range groups {
		rec.Sizes[i] = other.Lines
		if other.Regions > 0 {
			rec.Formed++
		}
	}
	out := schemas.Verified{Repository: verified.Repository, Source: verified.Source, Target: verified.Target,
		Verifier: verified.Verifier, Regions: []schemas.VerifiedRegion{}, ByLabel: map[string]int{}}
	for _, r := range g.Members {
		out.Regions = append(out.Regions, r)
		out.ByLabel[r.Label]++
	}
	if g.Regions == 0 {
		rc.SetLabel(fmt.Sprintf("group %d of %d: empty (the regions form %d groups)", cfg.Group, cfg.Of, rec.Formed))
	} else {
		rc.SetLabel(fmt.Sprintf("group %d of %d: %d regions, %d lines, %d files (%s)", cfg.Group, cfg.Of, g.Regions, g.Lines, len(g.Files), strings.Join(g.FeatureGroups, ", ")))
	}
	if err := rc.PutJSON(schemas.RegionsFile, out); err != nil {
		return err
	}
	return rc.PutJSON(schemas.GroupFile, rec)
}
