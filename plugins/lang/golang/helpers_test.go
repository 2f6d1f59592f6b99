package golang_test

import (
	"flag"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureMask is one file of a fixture repository and the regions chosen by
// hand as a verifier would pass them: the target (Windows) lines of each
// platform-specific construct (masktest.Fixture, in this package's
// literals' spelling).
type fixtureMask struct {
	repo, file string
	regions    [][2]int
	// sourceCompiled is false for files the source platform never builds.
	sourceCompiled bool
	coarse         bool
}

func (fm fixtureMask) fixture() masktest.Fixture {
	return masktest.Fixture{Repo: fm.repo, File: fm.file, Regions: fm.regions, SourceCompiled: fm.sourceCompiled, Coarse: fm.coarse}
}

func runFixtureMask(t *testing.T, fm fixtureMask) mask.Output {
	t.Helper()
	return masktest.Mask(t, fm.fixture())
}

func render(out mask.Output) []byte { return masktest.Render(out) }

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	masktest.CheckGolden(t, name, got, *update)
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	return masktest.Run(t, dir, env, name, args...)
}

func needTool(t *testing.T, name string) {
	t.Helper()
	masktest.NeedTool(t, name)
}

func maskedCopy(t *testing.T, repo string) string {
	t.Helper()
	var fixtures []masktest.Fixture
	for _, fm := range fixtureMasks {
		fixtures = append(fixtures, fm.fixture())
	}
	return masktest.MaskedCopy(t, repo, fixtures)
}
