package initmanifest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/pipeline/compile"
	"github.com/osbench/osbench/steps/checkout"
)

// TestPinFromProvenance runs the checkout step of a composed manifest
// against the real Go module proxy and checksum database, and checks that
// init pins the module's published h1: hash and the preset its tree asks
// for, and that the pinned manifest's checkout gives the same tree.
func TestPinFromProvenance(t *testing.T) {
	dir := t.TempDir()
	c, err := cache.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := ParseSource("go:github.com/gofrs/flock@v0.12.1", "")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{
		opts: Options{Source: src, Cache: c, Engine: engine.Options{Jobs: 1}, Compile: compile.Options{
			ExecutorState: func(name string) (string, error) {
				d := filepath.Join(dir, "state", name)
				return d, os.MkdirAll(d, 0o755)
			},
		}},
		file: filepath.Join(dir, "flock.hcl"),
		res:  &Result{},
	}
	m := &Manifest{Name: src.Name(), Preset: "go", Source: src, Migrate: []string{"windows->linux"}}
	co, err := r.checkout(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if err := pin(&m.Source, co); err != nil {
		t.Fatal(err)
	}
	// The hash the checksum database publishes for this version.
	if want := "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="; m.Source.Sum != want {
		t.Errorf("sum = %q, want %q", m.Source.Sum, want)
	}
	tree, err := co.Tree(checkout.ResultSource)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := DetectPreset(tree); p != "go" {
		t.Errorf("preset %q, %v; want go", p, err)
	}
	pinned, err := r.checkout(context.Background(), m)
	if err != nil {
		t.Fatalf("the pinned manifest's checkout: %v", err)
	}
	again, _ := pinned.Tree(checkout.ResultSource)
	if len(again.Entries) != len(tree.Entries) || r.res.Steps.Ran != 2 {
		t.Errorf("pinned checkout: %d files (want %d), %d ran (want 2: the pin is in the key)", len(again.Entries), len(tree.Entries), r.res.Steps.Ran)
	}
}
