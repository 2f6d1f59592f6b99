package golang_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureMask is one file of a fixture repository (testdata/repos) and the
// regions chosen by hand as a verifier would pass them: the target
// (Windows) lines of each platform-specific construct.
type fixtureMask struct {
	repo, file string
	regions    [][2]int
	// sourceCompiled is false for files the source platform never builds.
	sourceCompiled bool
	coarse         bool
}

// fixtureMasks are the masks of the fixture repositories, by golden name.
var fixtureMasks = map[string]fixtureMask{
	"pathsep-pathsep": {repo: "pathsep", file: "pathsep.go", sourceCompiled: true,
		// IsSeparator, Normalize, Drive and SplitList branches; the helpers
		// only Windows calls.
		regions: [][2]int{{20, 20}, {30, 39}, {49, 49}, {61, 61}, {76, 95}, {100, 104}, {108, 111}}},
	"pathsep-compare": {repo: "pathsep", file: "compare.go", sourceCompiled: true, regions: [][2]int{{34, 34}}},
	"pathsep-join":    {repo: "pathsep", file: "join.go", sourceCompiled: true, regions: [][2]int{{31, 33}, {41, 52}}},
	"lineend-lineend": {repo: "lineend", file: "lineend.go", sourceCompiled: true, regions: [][2]int{{30, 30}}},
	"lineend-config":  {repo: "lineend", file: "config/config.go", sourceCompiled: true, regions: [][2]int{{47, 50}}},
	"fsapi-attrs_windows": {repo: "fsapi", file: "attrs_windows.go",
		regions: [][2]int{{10, 18}, {24, 28}, {32, 48}, {55, 59}, {65, 73}}},
	"coarse-fsapi":  {repo: "fsapi", file: "attrs_windows.go", coarse: true, regions: [][2]int{{25, 25}, {67, 68}}},
	"coarse-shared": {repo: "pathsep", file: "compare.go", coarse: true, sourceCompiled: true, regions: [][2]int{{34, 34}}},
}

func fixtureDir(repo string) string {
	return filepath.Join("..", "..", "..", "testdata", "repos", repo)
}

// runFixtureMask masks one fixture file as it is in the repository.
func runFixtureMask(t *testing.T, fm fixtureMask) mask.Output {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixtureDir(fm.repo), fm.file))
	if err != nil {
		t.Fatal(err)
	}
	var regions []schemas.VerifiedRegion
	for _, r := range fm.regions {
		regions = append(regions, schemas.VerifiedRegion{
			Region:  schemas.Region{File: fm.file, Start: r[0], End: r[1], SourceCompiled: fm.sourceCompiled},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional, Verifier: "test"},
		})
	}
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: fm.file, Source: src, Regions: regions, Coarse: fm.coarse})
	if err != nil {
		t.Fatalf("Mask(%s/%s): %v", fm.repo, fm.file, err)
	}
	return out
}

// render is the golden form of an mask.Output: the actions, then the text.
func render(out mask.Output) []byte {
	var b bytes.Buffer
	b.WriteString("# actions\n")
	for _, a := range out.Actions {
		fmt.Fprintf(&b, "%s %d-%d: %s\n", a.Kind, a.Region.Start, a.Region.End, a.Detail)
	}
	b.WriteString("# masked source\n")
	b.Write(out.Source)
	return b.Bytes()
}

// checkGolden compares got with testdata/name.golden, rewriting it under
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update if intended):\n%s", name, got)
	}
}

func TestFixtureGolden(t *testing.T) {
	for name, fm := range fixtureMasks {
		t.Run(name, func(t *testing.T) {
			out := runFixtureMask(t, fm)
			checkGolden(t, name, render(out))
			for _, a := range out.Actions {
				if a.Kind == mask.KindUnmasked && !strings.HasPrefix(name, "coarse") {
					t.Errorf("region %d-%d left unmasked: %s", a.Region.Start, a.Region.End, a.Detail)
				}
			}
			if strings.HasSuffix(fm.file, ".go") {
				if formatted, err := format.Source(out.Source); err != nil || !bytes.Equal(formatted, out.Source) {
					t.Errorf("masked %s is not gofmt-clean (err %v)", fm.file, err)
				}
			}
		})
	}
}

// maskedCopy copies a fixture repository into a temporary directory and
// masks every file of it that fixtureMasks lists (coarse ones excluded).
func maskedCopy(t *testing.T, repo string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), repo)
	if err := os.CopyFS(dir, os.DirFS(fixtureDir(repo))); err != nil {
		t.Fatal(err)
	}
	masked := 0
	for _, fm := range fixtureMasks {
		if fm.repo != repo || fm.coarse {
			continue
		}
		out := runFixtureMask(t, fm)
		if err := os.WriteFile(filepath.Join(dir, fm.file), out.Source, 0o644); err != nil {
			t.Fatal(err)
		}
		masked++
	}
	if masked == 0 {
		t.Fatalf("no masks for %s", repo)
	}
	return dir
}

// run runs a command in dir with extra environment and fails the test
// with its output when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s (env %v) in %s: %v\n%s", name, strings.Join(args, " "), env, dir, err, out)
	}
	return string(out)
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
	if testing.Short() {
		t.Skip("builds fixture repositories; skipped with -short")
	}
}

// TestMaskedGoFixturesBuild proves the Go masks quiet: the masked copies
// build and vet for Windows (tests included) and the Linux suites, whose
// code masking never touches, still pass.
func TestMaskedGoFixturesBuild(t *testing.T) {
	needTool(t, "go")
	goEnv := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}
	for _, repo := range []string{"pathsep", "fsapi", "lineend"} {
		t.Run(repo, func(t *testing.T) {
			dir := maskedCopy(t, repo)
			win := append([]string{"GOOS=windows"}, goEnv...)
			run(t, dir, win, "go", "build", "./...")
			run(t, dir, win, "go", "vet", "./...")
			run(t, dir, append([]string{"GOOS=linux"}, goEnv...), "go", "test", "-count=1", "./...")
		})
	}
}
