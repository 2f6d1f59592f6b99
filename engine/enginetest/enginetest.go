// Package enginetest runs step kinds in tests through the real engine and
// a real cache: fixture steps stand in for a kind's upstream steps by
// recording, under the result names the real steps use, what their
// configuration holds, and Build runs a graph in a fresh cache and insists
// that every step ran.
package enginetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
)

// FixtureKind is the kind of the steps JSON, Files and Dir make.
const FixtureKind = "enginetest.fixture"

type fixtureConfig struct {
	Result string            `json:"result"`
	JSON   any               `json:"json,omitempty"`
	Files  map[string]string `json:"files,omitempty"`
	Dir    string            `json:"dir,omitempty"`
}

type fixtureKind struct{}

func (fixtureKind) Name() string    { return FixtureKind }
func (fixtureKind) Version() string { return "1" }
func (fixtureKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg fixtureConfig
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	switch {
	case cfg.JSON != nil:
		return rc.PutJSON(cfg.Result, cfg.JSON)
	case cfg.Dir != "":
		return rc.PutTree(cfg.Result, cfg.Dir, nil)
	case cfg.Files != nil:
		dir := filepath.Join(rc.WorkDir, "tree")
		for name, body := range cfg.Files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return err
			}
		}
		return rc.PutTree(cfg.Result, dir, nil)
	}
	return errors.New("enginetest fixture: nothing to record")
}

func init() { engine.RegisterKind(fixtureKind{}) }

func fixture(id string, cfg fixtureConfig) *engine.Step {
	return &engine.Step{ID: id, Kind: FixtureKind, Config: []engine.Field{
		{Name: "result", Value: cfg.Result}, {Name: "json", Value: cfg.JSON},
		{Name: "files", Value: cfg.Files}, {Name: "dir", Value: cfg.Dir},
	}}
}

// JSON is a step whose result name is v as JSON.
func JSON(id, name string, v any) *engine.Step {
	return fixture(id, fixtureConfig{Result: name, JSON: v})
}

// Files is a step whose result name is a tree of the given files (path →
// content).
func Files(id, name string, files map[string]string) *engine.Step {
	return fixture(id, fixtureConfig{Result: name, Files: files})
}

// Dir is a step whose result name is a snapshot of dir.
func Dir(id, name, dir string) *engine.Step {
	return fixture(id, fixtureConfig{Result: name, Dir: dir})
}

// Build runs steps in a fresh cache, exporting to a fresh out dir, and
// fails the test unless every step ran. It returns the report, the engine
// (to open results) and the out dir.
func Build(t testing.TB, steps ...*engine.Step) (*engine.Report, *engine.Engine, string) {
	t.Helper()
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{OutDir: out, Jobs: 2, KeepGoing: true})
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Steps {
		if s.Status != engine.StatusRan {
			t.Fatalf("step %s: %s %s", s.ID, s.Status, s.Error)
		}
	}
	return rep, e, out
}
