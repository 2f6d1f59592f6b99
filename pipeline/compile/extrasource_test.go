package compile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
	"github.com/osbench/osbench/steps/diffcov"
)

// TestExtraSourceTree: an extra_source is checked out by a step of its
// own, placed at its directory inside the main tree (whose key holds its
// digest), recorded in the provenance, and left out of differential
// coverage; a main tree that already has files there is refused, naming
// the block.
func TestExtraSourceTree(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/lib.go", "package lib\n")
	write("lib/test/gtest/.keep", "")
	write("gtest/gtest.h", "// the framework\n")
	manifest := func(at string) string {
		return `repository "lib" {
  preset = "go"
  source {
    path = "lib"
  }
  extra_source "gtest" {
    path = "gtest"
    at   = "` + at + `"
  }
  migrate = ["windows->linux"]
}
`
	}
	build := func(at string) (string, *engine.Report, []*engine.Step) {
		write("lib.hcl", manifest(at))
		set, diags := manifests.Load([]string{filepath.Join(dir, "lib.hcl")}, manifests.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
		if err != nil {
			t.Fatal(err)
		}
		var checkouts []*engine.Step
		sawDiffcov := false
		for _, s := range steps {
			switch {
			case s.Kind == checkout.Kind:
				s.Exports = []engine.Export{{Output: checkout.ResultSource, Path: s.ID + "/tree"}, {Output: checkout.ResultProvenance, Path: s.ID + "/provenance.json"}}
				checkouts = append(checkouts, s)
			case s.Kind == diffcov.Kind:
				sawDiffcov = true
				var exclude any
				for _, f := range s.Config {
					if f.Name == "exclude" {
						exclude = f.Value
					}
				}
				if got, _ := json.Marshal(exclude); string(got) != `["`+at+`"]` {
					t.Errorf("%s excludes %s, want [%s]", s.ID, got, at)
				}
			}
		}
		if !sawDiffcov {
			t.Fatal("no diffcov step compiled")
		}
		if len(checkouts) != 2 {
			t.Fatalf("checkout steps %v, want lib/checkout and lib/checkout/gtest", checkouts)
		}
		c, err := cache.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		g, err := engine.NewGraph(checkouts)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := engine.New(c, engine.Options{OutDir: out, Jobs: 2, KeepGoing: true}).Build(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		return out, rep, checkouts
	}

	out, rep, _ := build("third_party/gtest")
	for _, s := range rep.Steps {
		if s.Status != engine.StatusRan {
			t.Fatalf("%s: %s %s", s.ID, s.Status, s.Error)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "lib/checkout/tree/third_party/gtest/gtest.h")); err != nil || string(b) != "// the framework\n" {
		t.Errorf("extra tree not placed: %q %v", b, err)
	}
	var prov schemas.Provenance
	b, err := os.ReadFile(filepath.Join(out, "lib/checkout/provenance.json"))
	if err != nil || json.Unmarshal(b, &prov) != nil {
		t.Fatalf("provenance: %v", err)
	}
	if len(prov.Extras) != 1 || prov.Extras[0].Name != "gtest" || prov.Extras[0].At != "third_party/gtest" || prov.Extras[0].Provenance.Kind != "path" || prov.Extras[0].Provenance.Tree == "" {
		t.Errorf("provenance extras %+v", prov.Extras)
	}

	// test/gtest holds a file of the main tree: refused.
	_, rep, _ = build("lib/../test/gtest"[len("lib/../"):])
	failed := ""
	for _, s := range rep.Steps {
		if s.ID == "lib/checkout" {
			failed = s.Error
		}
	}
	if !strings.Contains(failed, `extra_source "gtest"`) || !strings.Contains(failed, "already has files under test/gtest") || !strings.Contains(failed, "lib.hcl:") {
		t.Errorf("main checkout error %q, want the block, the place and the manifest line named", failed)
	}
}
