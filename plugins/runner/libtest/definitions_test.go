package libtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// readFile stands in for the step's untrusted reader.
func readFile(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }

// fixture is a repository of testdata/repos.
func fixture(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "repos", name)
}

// TestCargoDefinitions lists the fixture crate's targets with the real
// cargo: a harness = false on its test target changes the definitions, a
// comment does not.
func TestCargoDefinitions(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo")
	}
	list := func(edit string) *schemas.TestDefinitions {
		t.Helper()
		repo := filepath.Join(t.TempDir(), "rsplat")
		if out, err := exec.Command("cp", "-a", fixture("rsplat"), repo).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		toml := filepath.Join(repo, "Cargo.toml")
		b, err := os.ReadFile(toml)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(toml, append(b, edit...), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cargoMetadataArgv[0], cargoMetadataArgv[1:]...)
		cmd.Dir = repo
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("cargo metadata: %v", err)
		}
		defs, err := cargoDefinitions(out, repo, readFile)
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	plain := list("")
	if len(plain.Tests) != 2 || plain.Tests[1].Name != "rsplat/test/platform" || plain.Tests[1].Command[0] != "tests/platform.rs" || plain.Tests[1].Properties["harness"] != "true" {
		t.Fatalf("definitions = %+v", plain.Tests)
	}
	if c := list("\n# a comment\n"); c.Digest != plain.Digest {
		t.Errorf("a comment in Cargo.toml changed the definitions: %+v", c.Tests)
	}
	if h := list("\n[[test]]\nname = \"platform\"\nharness = false\n"); h.Digest == plain.Digest || h.Tests[1].Properties["harness"] != "false" {
		t.Errorf("harness = false kept the definitions: %+v", h.Tests)
	}
	// A .cargo/config is part of the definitions: its [env] reaches every
	// test program, and no variable beats it; harmless tables and
	// comments do not count.
	config := func(text string) *schemas.TestDefinitions {
		t.Helper()
		repo := t.TempDir()
		if err := os.MkdirAll(filepath.Join(repo, ".cargo"), 0o755); err != nil {
			t.Fatal(err)
		}
		if text != "" {
			if err := os.WriteFile(filepath.Join(repo, ".cargo", "config.toml"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		defs, err := runner.NewDefinitions("cargo", cargoConfigDefinitions(repo, readFile))
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	none, env := config(""), config("[env]\nLD_PRELOAD = \"./forge.so\"\n")
	if len(none.Tests) != 0 || env.Digest == none.Digest {
		t.Errorf("[env] kept the definitions: %+v / %+v", none.Tests, env.Tests)
	}
	if a, b := config("[alias]\nt = \"test\"\n"), config("# nothing\n[term]\nverbose = true\n"); a.Digest != b.Digest || a.Digest != none.Digest {
		t.Errorf("harmless tables changed the definitions: %+v / %+v", a.Tests, b.Tests)
	}
	if w := config("[build]\nrustc-wrapper = \"./w\"\n"); w.Digest == none.Digest {
		t.Errorf("a rustc wrapper kept the definitions: %+v", w.Tests)
	}
}
