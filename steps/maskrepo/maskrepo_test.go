package maskrepo

import (
	"bytes"
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
	return runMaskWith(t, dir, regions, schemas.Coverage{Repository: "r", Platform: "linux"}, "c", cmakeBuild(t, "windows"))
}

// runMaskWith runs the mask step with the source platform's coverage and a
// language and check of the caller's (check nil: no build check).
func runMaskWith(t *testing.T, dir string, regions windowsRegions, sourceCoverage schemas.Coverage, language string, check *testrun.Command) (Record, string) {
	t.Helper()
	fields := []engine.Field{
		{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"},
		{Name: "masker", Value: "rules"}, {Name: "language", Value: language},
		// The local executor: the check only compiles, and the
		// cross compilers need no Wine for that. User root: the test
		// directories are private to whoever runs the tests.
		{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
		{Name: "env", Value: map[string]string{}},
	}
	if check != nil {
		fields = append(fields, engine.Field{Name: "check", Value: check})
	}
	steps := []*engine.Step{
		enginetest.Dir("r/checkout", "source", dir),
		enginetest.JSON("r/verify", verifyregions.Output, regions.verified()),
		enginetest.JSON("r/linux/coverage", "coverage.json", sourceCoverage),
		{
			ID: "r/linux-to-windows/mask", Kind: Kind, Group: "r",
			Config: fields,
			Inputs: []engine.Input{{Name: "source", Step: "r/checkout"}, {Name: "verify", Step: "r/verify"},
				{Name: InputSourceCoverage, Step: "r/linux/coverage"}},
			Exports: []engine.Export{{Output: "mask.json", Path: "mask.json"}, {Output: "source", Path: "masked"}},
		},
	}
	rep, e, out := enginetest.Build(t, steps...)
	b, err := os.ReadFile(filepath.Join(out, "mask.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("build_log")) {
		t.Errorf("mask.json holds a build log; logs are side artifacts")
	}
	a, err := e.Artifacts(rep.Step("r/linux-to-windows/mask"))
	if err != nil {
		t.Fatal(err)
	}
	if log, err := a.Side(SideBuildLog); err == nil {
		rec.Log = string(log)
	}
	if log, err := a.Side(SideFineBuildLog); err == nil {
		rec.FineLog = string(log)
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

// TestSourcePreservation: a region whose placeholder would delete a line
// the source platform executed (a false positive in a shared function, as
// `return syscall.EPERM` once was) is rejected, a region whose placeholder
// is the code itself is rejected as a no-op, and the real Windows branch is
// still masked.
func TestSourcePreservation(t *testing.T) {
	ran := schemas.Coverage{Repository: "r", Platform: "linux", Format: "go-coverprofile", Files: []schemas.FileCoverage{
		{Path: "shared.go", Executed: []int{15, 18, 23, 28}, Instrumented: []int{15, 16, 18, 23, 28}},
	}}
	// A region in a test file is one the masker refuses: that costs its
	// own file's regions, not the step.
	rec, masked := runMaskWith(t, filepath.Join("testdata", "shared"), windowsRegions{"shared.go": {{16, 16}, {23, 23}, {28, 28}}, "shared_test.go": {{7, 7}}}, ran, "go", nil)
	if len(rec.Regions) != 1 || rec.Regions[0].Start != 16 {
		t.Errorf("masked regions = %+v, want only 16-16", rec.Regions)
	}
	reasons := map[int]string{}
	for _, r := range rec.Rejected {
		reasons[r.Region.Start] = r.Reason
	}
	if !strings.Contains(reasons[23], "line 23, which the source platform executed") {
		t.Errorf("region 23 rejection: %q", reasons[23])
	}
	if !strings.Contains(reasons[28], "no-op") {
		t.Errorf("region 28 rejection: %q", reasons[28])
	}
	if !strings.Contains(reasons[7], "the masker could not mask this file: test files are never masked") {
		t.Errorf("region in the test file: %q", reasons[7])
	}
	src, err := os.ReadFile(filepath.Join(masked, "shared.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), "return `\\`") || !strings.Contains(string(src), "return errReadOnly") {
		t.Errorf("masked shared.go:\n%s", src)
	}
}

// deletedLines agrees with a plain LCS on every pair of small texts.
func TestDeletedLines(t *testing.T) {
	texts := [][]string{
		{}, {"a"}, {"a", "b", "c"}, {"a", "x", "c"}, {"c", "b", "a"}, {"a", "a", "b"},
		{"a", "b", "c", "d", "e"}, {"b", "d"}, {"x", "a", "b", "y", "c"},
	}
	for _, a := range texts {
		for _, b := range texts {
			got := deletedLines(a, b)
			if want := len(a) - lcs(a, b); len(got) != want {
				t.Errorf("deletedLines(%q, %q) = %v: %d deletions, want %d", a, b, got, len(got), want)
			}
			// Deleting those lines of a leaves a subsequence of b.
			del := map[int]bool{}
			for _, l := range got {
				del[l] = true
			}
			var rest []string
			for i, l := range a {
				if !del[i+1] {
					rest = append(rest, l)
				}
			}
			if lcs(rest, b) != len(rest) {
				t.Errorf("deletedLines(%q, %q) = %v leaves %q, not a subsequence of b", a, b, got, rest)
			}
		}
	}
}

func lcs(a, b []string) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}
