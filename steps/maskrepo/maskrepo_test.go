package maskrepo

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/testrun"
	"github.com/osbench/osbench/steps/verifyregions"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// cmakeBuild returns the c-cmake preset's build command for a platform, as
// the cpath example resolves it.
func cmakeBuild(t *testing.T, platform string) *testrun.Command {
	t.Helper()
	set, diags := manifests.Load([]string{filepath.Join(repoRoot(), "manifests", "examples", "cpath.hcl")}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, p := range set.Repositories[0].Platforms {
		if p.Name == platform && p.Build != nil {
			return &testrun.Command{Argv: p.Build.Argv, Shell: p.Build.Shell, Dir: p.Build.Dir}
		}
	}
	t.Fatalf("c-cmake has no build command on %s", platform)
	return nil
}

// windowsRegions are the Windows regions of a fixture, by file.
type windowsRegions map[string][][2]int

func (w windowsRegions) verified() *verifyregions.Verified {
	v := &verifyregions.Verified{Source: "linux", Target: "windows", Verifier: "test"}
	for file, spans := range w {
		for _, s := range spans {
			v.Regions = append(v.Regions, schemas.VerifiedRegion{
				Region:  schemas.Region{File: file, Start: s[0], End: s[1], SourceCompiled: true},
				Verdict: schemas.Verdict{Label: schemas.LabelConditional, Verifier: "test"},
			})
		}
	}
	return v
}

// runMask runs the mask step for linux→windows on dir with the c-cmake
// preset's Windows build (mingw-w64) as its check, and returns mask.json
// and the directory the masked tree was exported to.
func runMask(t *testing.T, dir string, regions windowsRegions) (Record, string) {
	t.Helper()
	steps := []*engine.Step{
		enginetest.Dir("r/checkout", "source", dir),
		enginetest.JSON("r/verify", verifyregions.Output, regions.verified()),
		{
			ID: "r/linux-to-windows/mask", Kind: Kind, Group: "r",
			Config: []engine.Field{
				{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"},
				{Name: "masker", Value: "rules"}, {Name: "language", Value: "c"},
				// The local executor: the check only compiles, and the
				// cross compilers need no Wine for that. User root: the test
				// directories are private to whoever runs the tests.
				{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
				{Name: "env", Value: map[string]string{}},
				{Name: "check", Value: cmakeBuild(t, "windows")},
			},
			Inputs:  []engine.Input{{Name: "source", Step: "r/checkout"}, {Name: "verify", Step: "r/verify"}},
			Exports: []engine.Export{{Output: "mask.json", Path: "mask.json"}, {Output: "source", Path: "masked"}},
		},
	}
	_, _, out := enginetest.Build(t, steps...)
	b, err := os.ReadFile(filepath.Join(out, "mask.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return rec, filepath.Join(out, "masked")
}

func needCrossBuild(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds fixture repositories with CMake; skipped with -short")
	}
	for _, tool := range []string{"cmake", "x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

// TestCoarseRetryFixesTheTargetBuild: removing the Windows declaration of
// csep's separator breaks the mingw-w64 build; the coarse retry guards the
// whole function body instead, which builds, and the record says so.
func TestCoarseRetryFixesTheTargetBuild(t *testing.T) {
	needCrossBuild(t)
	rec, masked := runMask(t, filepath.Join("testdata", "csep"), windowsRegions{"src/csep.c": {{7, 7}}})
	if !rec.Coarse || rec.Builds == nil || !*rec.Builds {
		t.Fatalf("coarse = %v, builds = %v; want a coarse mask that builds\n%s", rec.Coarse, rec.Builds, rec.Log)
	}
	if !strings.Contains(rec.FineLog, "$WORK/src/csep.c") || strings.Contains(rec.FineLog, "check-false") {
		t.Errorf("the fine mask's failed build is not recorded, its directory made $WORK: %q", rec.FineLog)
	}
	if len(rec.Actions) != 1 || rec.Actions[0].Kind != "function-body" {
		t.Errorf("actions = %+v, want one function-body", rec.Actions)
	}
	src, err := os.ReadFile(filepath.Join(masked, "src", "csep.c"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "#if defined(_WIN32)\n    (void)p;\n    return 0;\n#else\n") || strings.Contains(string(src), `'\\'`) {
		t.Errorf("masked csep.c:\n%s", src)
	}
	if _, err := os.Stat(filepath.Join(masked, "_osbench_build")); !os.IsNotExist(err) {
		t.Errorf("the check's build directory reached the masked tree (stat: %v)", err)
	}
}

// TestFixtureMasksBuild: the fine-grained masks of the C and C++ fixtures
// (the Windows regions plugins/mask's golden tests use) pass the check as
// they are.
func TestFixtureMasksBuild(t *testing.T) {
	needCrossBuild(t)
	for _, tc := range []struct {
		repo    string
		regions windowsRegions
	}{
		{"cpath", windowsRegions{
			"src/pathrules.c": {{9, 9}, {18, 18}, {24, 24}, {31, 32}, {43, 46}, {95, 107}},
			"src/probe.c":     {{17, 21}, {49, 53}},
		}},
		{"cppenc", windowsRegions{
			"src/eol.cpp":      {{8, 8}},
			"src/wide.cpp":     {{16, 28}, {33, 45}},
			"src/textfile.cpp": {{24, 27}},
		}},
	} {
		t.Run(tc.repo, func(t *testing.T) {
			rec, _ := runMask(t, filepath.Join(repoRoot(), "testdata", "repos", tc.repo), tc.regions)
			if rec.Coarse || rec.Builds == nil || !*rec.Builds {
				t.Errorf("coarse = %v, builds = %v; want the fine mask to build\n%s", rec.Coarse, rec.Builds, rec.Log)
			}
			if len(rec.Files) != len(tc.regions) {
				t.Errorf("files = %v", rec.Files)
			}
		})
	}
}
