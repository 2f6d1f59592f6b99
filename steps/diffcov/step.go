package diffcov

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "diffcov"

// Step inputs and output, by the names the graph uses.
const (
	InputSource         = "source"          // the checkout: a tree result named "source"
	InputTargetCoverage = "target_coverage" // a coverage step: coverage.json
	InputSourceCoverage = "source_coverage" // a coverage step: coverage.json
	Output              = schemas.DiffCoverageFile
)

// Config is the diffcov step's configuration.
type Config struct {
	Repository string `json:"repository"`
	Source     string `json:"source"` // platform the code was written for
	Target     string `json:"target"` // platform whose code is to be found
	MaxGap     int    `json:"max_gap,omitempty"`
	// Exclude are directories of trees that are not task code (the
	// manifest's extra_source trees): no region is found below them, so
	// they are never masked.
	Exclude []string `json:"exclude,omitempty"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version "2": the line classifier that bridges gaps is lang.Lex's, which
// reads a C string continued by a backslash-newline, and a C++ digit
// separator before a block comment on its line, as the language does.
func (kind) Version() string { return "2" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	source, err := readCoverage(rc, InputSourceCoverage)
	if err != nil {
		return err
	}
	target, err := readCoverage(rc, InputTargetCoverage)
	if err != nil {
		return err
	}
	diff, err := Lines(source, target)
	if err != nil {
		return err
	}
	diff = excluded(diff, cfg.Exclude)
	checkout, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	src, err := differentialFiles(checkout, diff)
	if err != nil {
		return err
	}
	regions, err := Regions(src, diff, Options{MaxGap: cfg.MaxGap})
	if err != nil {
		return err
	}
	if regions == nil {
		regions = []schemas.Region{}
	}
	lines := 0
	for _, r := range regions {
		lines += len(r.Lines)
	}
	rc.SetLabel(fmt.Sprintf("%d regions, %d lines in %d files", len(regions), lines, len(diff)))
	return rc.PutJSON(Output, schemas.DiffCoverage{
		Repository: cfg.Repository, Source: cfg.Source, Target: cfg.Target, Regions: regions,
	})
}

func readCoverage(rc *engine.RunContext, input string) (schemas.Coverage, error) {
	var c schemas.Coverage
	a, err := rc.Input(input)
	if err != nil {
		return c, err
	}
	if err := a.DecodeJSON("coverage.json", &c); err != nil {
		return c, fmt.Errorf("input %s: coverage.json: %w", input, err)
	}
	return c, nil
}

// differentialFiles reads from the checkout only the files that have
// differential lines, straight from the cached tree (nothing is
// materialized). A file the tree lacks is left out, which Regions allows.
func differentialFiles(checkout *engine.Artifacts, diff []FileLines) (fs.FS, error) {
	fsys := fstest.MapFS{}
	for _, f := range diff {
		b, err := checkout.TreeFile("source", f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", InputSource, err)
		}
		fsys[f.Path] = &fstest.MapFile{Data: b}
	}
	return fsys, nil
}

// excluded drops the files below any of dirs.
func excluded(diff []FileLines, dirs []string) []FileLines {
	if len(dirs) == 0 {
		return diff
	}
	kept := diff[:0:0]
	for _, f := range diff {
		if !underAny(f.Path, dirs) {
			kept = append(kept, f)
		}
	}
	return kept
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
