// Package masktest is what the language packages' masker tests share:
// masking a file of a fixture repository (testdata/repos) through the rules
// masker as the mask step does, the golden form of a mask, and running the
// tools that build a masked copy.
package masktest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// Fixture is one file of a fixture repository and the regions chosen by
// hand as a verifier would pass them.
type Fixture struct {
	Repo, File string
	Regions    [][2]int
	// SourceCompiled is false for files the source platform never builds.
	SourceCompiled bool
	Coarse         bool
}

// Dir is the fixture repository repo.
func Dir(repo string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "repos", repo)
}

// Mask masks one fixture file through the rules masker, as the mask step
// does.
func Mask(t *testing.T, f Fixture) mask.Output {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(Dir(f.Repo), f.File))
	if err != nil {
		t.Fatal(err)
	}
	var regions []schemas.VerifiedRegion
	for _, r := range f.Regions {
		regions = append(regions, schemas.VerifiedRegion{
			Region:  schemas.Region{File: f.File, Start: r[0], End: r[1], SourceCompiled: f.SourceCompiled},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional, Verifier: "test"},
		})
	}
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: f.File, Source: src, Regions: regions, Coarse: f.Coarse})
	if err != nil {
		t.Fatalf("Mask(%s/%s): %v", f.Repo, f.File, err)
	}
	return out
}

// Render is the golden form of a mask: the actions, then the text.
func Render(out mask.Output) []byte {
	var b bytes.Buffer
	b.WriteString("# actions\n")
	for _, a := range out.Actions {
		fmt.Fprintf(&b, "%s %d-%d: %s\n", a.Kind, a.Region.Start, a.Region.End, a.Detail)
	}
	b.WriteString("# masked source\n")
	b.Write(out.Source)
	return b.Bytes()
}

// CheckGolden compares got with testdata/name.golden of the calling
// package, rewriting it when update is set.
func CheckGolden(t *testing.T, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if update {
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

// Region is a verified platform-API region of lines start..end.
func Region(start, end int) schemas.VerifiedRegion {
	return schemas.VerifiedRegion{Region: schemas.Region{Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}
}

// Shared is a region of code the source platform compiles too.
func Shared(start, end int) schemas.VerifiedRegion {
	r := Region(start, end)
	r.SourceCompiled = true
	return r
}

// Run runs a command in dir with env added, failing the test with its
// output when it fails.
func Run(t *testing.T, dir string, env []string, name string, args ...string) string {
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

// NeedTool skips the test when name is not installed, or under -short (the
// tests that use it build fixture repositories).
func NeedTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
	if testing.Short() {
		t.Skip("builds fixture repositories; skipped with -short")
	}
}

// MaskedCopy copies the fixture repository repo into a temporary directory
// and masks every file of it that fixtures lists for repo (coarse ones
// excluded).
func MaskedCopy(t *testing.T, repo string, fixtures map[string]Fixture) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), repo)
	if err := os.CopyFS(dir, os.DirFS(Dir(repo))); err != nil {
		t.Fatal(err)
	}
	masked := 0
	for _, f := range fixtures {
		if f.Repo != repo || f.Coarse {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, f.File), Mask(t, f).Source, 0o644); err != nil {
			t.Fatal(err)
		}
		masked++
	}
	if masked == 0 {
		t.Fatalf("no masks for %s", repo)
	}
	return dir
}
