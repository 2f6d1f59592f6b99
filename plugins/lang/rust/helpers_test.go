package rust_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
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
// regions chosen by hand as a verifier would pass them.
type fixtureMask struct {
	repo, file string
	regions    [][2]int
	// sourceCompiled is false for files the source platform never builds.
	sourceCompiled bool
	coarse         bool
}

func fixtureDir(repo string) string {
	return filepath.Join("..", "..", "..", "testdata", "repos", repo)
}

// runFixtureMask masks one fixture file through the rules masker, as the
// mask step does.
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

// render is the golden form of an Output: the actions, then the text.
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

func region(start, end int) schemas.VerifiedRegion {
	return schemas.VerifiedRegion{Region: schemas.Region{Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}
}

// shared is a region of a function the source platform compiles too.
func shared(start, end int) schemas.VerifiedRegion {
	r := region(start, end)
	r.SourceCompiled = true
	return r
}

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
