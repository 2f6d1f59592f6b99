package diffcov

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// fixtureKind stands in for the checkout and coverage steps: it records the
// tree and the coverage its configuration holds, under the result names the
// real steps use.
type fixtureKind struct{}

func (fixtureKind) Name() string    { return "diffcov_test.fixture" }
func (fixtureKind) Version() string { return "1" }
func (fixtureKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg struct {
		Files    map[string]string `json:"files"`
		Coverage *schemas.Coverage `json:"coverage"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Coverage != nil {
		return rc.PutJSON("coverage.json", cfg.Coverage)
	}
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
	return rc.PutTree("source", dir, nil)
}

func init() { engine.RegisterKind(fixtureKind{}) }

func TestStepWritesDiffCoverage(t *testing.T) {
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	fixture := func(id, name string, value any) *engine.Step {
		return &engine.Step{ID: id, Kind: "diffcov_test.fixture", Group: "r", Config: []engine.Field{{Name: name, Value: value}}}
	}
	steps := []*engine.Step{
		fixture("r/checkout", "files", map[string]string{
			"w.go":      "package r\n\nfunc f() {\n\twin()\n\t// why\n\tmore()\n}\n",
			"w_test.go": "package r\n",
		}),
		fixture("r/linux/coverage", "coverage", cov("linux", file("w.go", []int{3}, []int{3, 4, 6}))),
		fixture("r/windows/coverage", "coverage", cov("windows",
			file("w.go", []int{3, 4, 6}, []int{3, 4, 5, 6}), file("w_test.go", []int{1}, []int{1}), file("gen.go", []int{2}, []int{2}))),
		{
			ID: "r/linux-windows/diffcov", Kind: Kind, Group: "r",
			Config: []engine.Field{{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"}},
			Inputs: []engine.Input{
				{Name: InputSource, Step: "r/checkout"},
				{Name: InputSourceCoverage, Step: "r/linux/coverage"},
				{Name: InputTargetCoverage, Step: "r/windows/coverage"},
			},
			Exports: []engine.Export{{Output: Output, Path: "diffcov.json"}},
		},
	}
	// Line 5 of w.go is reported as instrumented, so only the comment rule,
	// which needs the checkout's text, can bridge it.
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.New(c, engine.Options{OutDir: out, Jobs: 1}).Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Steps {
		if s.Status != engine.StatusRan {
			t.Fatalf("step %s: %s %s", s.ID, s.Status, s.Error)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "diffcov.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got schemas.DiffCoverage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := schemas.DiffCoverage{Repository: "r", Source: "linux", Target: "windows", Regions: []schemas.Region{
		{File: "gen.go", Start: 2, End: 2, Lines: []int{2}},
		{File: "w.go", Start: 4, End: 6, Lines: []int{4, 6}, SourceCompiled: true},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diffcov.json:\n got %+v\nwant %+v", got, want)
	}
	if last := rep.Steps[len(rep.Steps)-1]; last.Label != "2 regions, 3 lines in 2 files" {
		t.Errorf("label = %q", last.Label)
	}
}
