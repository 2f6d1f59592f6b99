package compile

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/plugins/lm"
	"github.com/osbench/osbench/steps/testrun"
)

func fixtureRepo(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "repos", name)
}

// TestMaskBuildCheck checks where each mask step's build check comes from:
// the target platform's build command when it has one (the c-cmake
// preset's configure and build, cross-compiling for Windows), the
// language's default otherwise.
func TestMaskBuildCheck(t *testing.T) {
	set := examples(t)
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	check := func(id string) *testrun.Command {
		t.Helper()
		for _, s := range steps {
			if s.ID != id {
				continue
			}
			for _, f := range s.Config {
				if f.Name == "check" {
					c, _ := f.Value.(*testrun.Command)
					return c
				}
			}
			t.Fatalf("%s has no check field", id)
		}
		t.Fatalf("no step %s", id)
		return nil
	}
	build := func(repo, platform string) *testrun.Command {
		t.Helper()
		for _, r := range set.Repositories {
			if r.Name != repo {
				continue
			}
			for _, p := range r.Platforms {
				if p.Name == platform && p.Build != nil {
					c := command(*p.Build)
					return &c
				}
			}
		}
		t.Fatalf("%s has no build command on %s", repo, platform)
		return nil
	}
	for _, tc := range []struct {
		mask string
		want *testrun.Command
	}{
		{"cpath/linux-to-windows/mask", build("cpath", "windows")},
		{"cpath/windows-to-linux/mask", build("cpath", "linux")},
		{"cppenc/linux-to-windows/mask", build("cppenc", "windows")},
		{"pathsep/linux-to-windows/mask", &testrun.Command{Argv: []string{"go", "build", "./..."}}},
		// The cargo preset measures coverage on both platforms, so the Rust
		// fixture gets both directions; cargo test builds, so no check.
		{"rsplat/linux-to-windows/mask", nil},
		{"rsplat/windows-to-linux/mask", nil},
	} {
		if got := check(tc.mask); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: check = %+v, want %+v", tc.mask, got, tc.want)
		}
	}
	if a, b := build("cpath", "windows"), build("cpath", "linux"); reflect.DeepEqual(a, b) {
		t.Errorf("the two platforms of c-cmake build alike: %+v", a)
	}
	// A language with no default and no build command gets no check; a
	// build script for a shell falls back to the language's default.
	if got := buildCheck("rust", &manifests.Platform{Name: "windows"}); got != nil {
		t.Errorf("rust without a build command: check = %+v", got)
	}
	script := &manifests.Platform{Name: "windows", Build: &manifests.Command{Shell: "bash", Argv: []string{"make"}}}
	if got := buildCheck("go", script); got == nil || !reflect.DeepEqual(got.Argv, []string{"go", "build", "./..."}) {
		t.Errorf("go with a bash build: check = %+v", got)
	}
	// C# compiles its non-test sources with mcs, defining the target's
	// platform symbol.
	if got := buildCheck("csharp", &manifests.Platform{Name: "windows"}); got == nil || got.Argv[0] != "bash" || got.Argv[len(got.Argv)-1] != "WINDOWS" {
		t.Errorf("csharp on windows: check = %+v", got)
	}
}

// A language-model verifier or masker gets its settings and its prompt's
// version in its configuration (so in its key); the rules get neither.
func TestLMSettingsReachTheKey(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "lm.hcl")
	src := `repository "lmrepo" {
  preset = "go"
  source { path = "` + filepath.ToSlash(fixtureRepo("pathsep")) + `" }
  migrate  = ["linux->windows"]
  verifier = "lm"
  masker   = "lm"
  lm = { provider = "openai", model = "model-a", api_key_env = "OSBENCH_TEST_KEY" }
}
`
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, diags := manifests.Load([]string{manifest}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	config := func(id string) map[string]any {
		for _, s := range steps {
			if s.ID == id {
				m := map[string]any{}
				for _, f := range s.Config {
					m[f.Name] = f.Value
				}
				return m
			}
		}
		t.Fatalf("no step %s", id)
		return nil
	}
	for id, prompt := range map[string]string{"lmrepo/linux-to-windows/verify": lm.PromptVersion, "lmrepo/linux-to-windows/mask": lm.MaskPromptVersion} {
		c := config(id)
		settings, _ := c["lm"].(map[string]string)
		if settings["model"] != "model-a" || c["lm_prompt"] != prompt {
			t.Errorf("%s: lm = %v, lm_prompt = %v; want the model and %s", id, c["lm"], c["lm_prompt"], prompt)
		}
	}
}

// The dotnet preset's mask steps: a Linux target is checked with Mono's
// mcs (the language's default, LINUX defined), a Windows target with the
// preset's `dotnet build` on the Windows worker, which has no bash or mcs.
func TestDotnetMaskBuildCheck(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "cs.hcl")
	src := `repository "csplat" {
  preset  = "dotnet"
  source { path = "` + filepath.ToSlash(fixtureRepo("csplat")) + `" }
  migrate = ["linux->windows", "windows->linux"]
}
`
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, diags := manifests.Load([]string{manifest}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	check := func(id string) []string {
		for _, s := range steps {
			if s.ID != id {
				continue
			}
			for _, f := range s.Config {
				if c, ok := f.Value.(*testrun.Command); ok && f.Name == "check" && c != nil {
					return c.Argv
				}
			}
		}
		t.Fatalf("no check on %s", id)
		return nil
	}
	if got := check("csplat/windows-to-linux/mask"); len(got) < 2 || got[0] != "bash" || got[len(got)-1] != "LINUX" {
		t.Errorf("windows-to-linux mask check = %q, want the mcs check for LINUX", got)
	}
	if got := check("csplat/linux-to-windows/mask"); !reflect.DeepEqual(got, []string{"dotnet", "build", "--nologo"}) {
		t.Errorf("linux-to-windows mask check = %q, want dotnet build", got)
	}
}
