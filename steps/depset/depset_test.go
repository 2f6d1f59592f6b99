package depset

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
)

// TestSkeletonDigestFollowsTheLockFilesOnly runs the deps step on trees
// that differ in code only (a complete and a masked repository) and on
// one whose lock file differs: the first two give the same results, the
// digest the test runs are keyed by, and the skeleton holds no code.
func TestSkeletonDigestFollowsTheLockFilesOnly(t *testing.T) {
	root := t.TempDir()
	c, err := cache.Open(filepath.Join(root, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	lock := "version = 3\n\n[[package]]\nname = \"r\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"libc\"\nversion = \"0.2.150\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
	trees := map[string]map[string]string{
		"complete": {"Cargo.toml": "[package]\nname = \"r\"\nversion = \"0.1.0\"\n", "Cargo.lock": lock, "src/lib.rs": "pub fn f() -> u8 { 1 }\n", "build.rs": "fn main() {}\n"},
		"masked":   {"Cargo.toml": "[package]\nname = \"r\"\nversion = \"0.1.0\"\n", "Cargo.lock": lock, "src/lib.rs": "pub fn f() -> u8 { 0 }\n", "build.rs": "fn main() {}\n"},
		"relocked": {"Cargo.toml": "[package]\nname = \"r\"\nversion = \"0.1.0\"\n", "Cargo.lock": lock + "\n[[package]]\nname = \"x\"\nversion = \"1.0.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n", "src/lib.rs": "pub fn f() -> u8 { 1 }\n", "build.rs": "fn main() {}\n"},
	}
	var steps []*engine.Step
	for name, files := range trees {
		dir := filepath.Join(root, name)
		for f, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tree, err := checkout.HashLocal(dir)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, &engine.Step{
			ID: name + "/checkout", Kind: checkout.Kind, Group: name,
			Config: []engine.Field{{Name: "tree", Value: tree}},
			Local:  map[string]string{checkout.LocalPath: dir},
		}, &engine.Step{
			ID: name + "/deps", Kind: Kind, Group: name,
			Config: engine.Fields(Config{Language: deps.Rust, Rules: deps.Version}, nil),
			Inputs: []engine.Input{{Name: InputSource, Step: name + "/checkout"}},
		})
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(c, engine.Options{Jobs: 2, KeepGoing: true})
	rep, err := eng.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	digest := map[string]cache.Digest{}
	for name := range trees {
		res := rep.Step(name + "/deps")
		if res.Status != engine.StatusRan {
			t.Fatalf("%s: %s %s", name, res.Status, res.Error)
		}
		arts, err := eng.Artifacts(res)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := arts.Tree(OutputLock)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tree.Entries {
			if e.Path == "src/lib.rs" || e.Path == "build.rs" {
				if e.Size != 0 {
					t.Errorf("%s: %s in the skeleton has %d bytes; code never enters it", name, e.Path, e.Size)
				}
			}
		}
		var set *schemas.LockedDeps
		if err := arts.DecodeJSON(OutputSet, &set); err != nil || set == nil {
			t.Fatalf("%s: deps.json %v %v", name, set, err)
		}
		b, _ := arts.Bytes(OutputSet)
		manifest, err := json.Marshal(tree) // the Merkle manifest: paths, modes, digests
		if err != nil {
			t.Fatal(err)
		}
		digest[name] = cache.Sum(append(b, manifest...))
		if name == "complete" && (len(set.Dependencies) != 1 || set.Dependencies[0] != "libc@0.2.150 registry+https://github.com/rust-lang/crates.io-index") {
			t.Errorf("locked set = %+v", set)
		}
	}
	if digest["complete"] != digest["masked"] {
		t.Error("a change of code changed the deps step's results: the masked and patched trees' runs would key apart from the complete one's")
	}
	if digest["complete"] == digest["relocked"] {
		t.Error("a changed Cargo.lock left the deps step's results alone")
	}
}
