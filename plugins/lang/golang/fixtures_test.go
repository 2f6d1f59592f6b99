package golang_test

import (
	"bytes"
	"flag"
	"go/format"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureMasks are the masks of the fixture repositories, by golden name.
var fixtureMasks = map[string]masktest.Fixture{
	"pathsep-pathsep": {Repo: "pathsep", File: "pathsep.go", SourceCompiled: true,
		// IsSeparator, Normalize, Drive and SplitList branches; the helpers
		// only Windows calls.
		Regions: [][2]int{{20, 20}, {30, 39}, {49, 49}, {61, 61}, {76, 95}, {100, 104}, {108, 111}}},
	"pathsep-compare": {Repo: "pathsep", File: "compare.go", SourceCompiled: true, Regions: [][2]int{{34, 34}}},
	"pathsep-join":    {Repo: "pathsep", File: "join.go", SourceCompiled: true, Regions: [][2]int{{31, 33}, {41, 52}}},
	"lineend-lineend": {Repo: "lineend", File: "lineend.go", SourceCompiled: true, Regions: [][2]int{{30, 30}}},
	"lineend-config":  {Repo: "lineend", File: "config/config.go", SourceCompiled: true, Regions: [][2]int{{47, 50}}},
	"fsapi-attrs_windows": {Repo: "fsapi", File: "attrs_windows.go",
		Regions: [][2]int{{10, 18}, {24, 28}, {32, 48}, {55, 59}, {65, 73}}},
	"coarse-fsapi":  {Repo: "fsapi", File: "attrs_windows.go", Coarse: true, Regions: [][2]int{{25, 25}, {67, 68}}},
	"coarse-shared": {Repo: "pathsep", File: "compare.go", Coarse: true, SourceCompiled: true, Regions: [][2]int{{34, 34}}},
}

func TestFixtureGolden(t *testing.T) {
	for name, fm := range fixtureMasks {
		t.Run(name, func(t *testing.T) {
			out := masktest.Mask(t, fm)
			masktest.CheckGolden(t, name, masktest.Render(out), *update)
			for _, a := range out.Actions {
				if a.Kind == mask.KindUnmasked && !strings.HasPrefix(name, "coarse") {
					t.Errorf("region %d-%d left unmasked: %s", a.Region.Start, a.Region.End, a.Detail)
				}
			}
			if strings.HasSuffix(fm.File, ".go") {
				if formatted, err := format.Source(out.Source); err != nil || !bytes.Equal(formatted, out.Source) {
					t.Errorf("masked %s is not gofmt-clean (err %v)", fm.File, err)
				}
			}
		})
	}
}

// TestMaskedGoFixturesBuild proves the Go masks quiet: the masked copies
// build and vet for Windows (tests included) and the Linux suites, whose
// code masking never touches, still pass.
func TestMaskedGoFixturesBuild(t *testing.T) {
	masktest.NeedTool(t, "go")
	goEnv := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}
	for _, repo := range []string{"pathsep", "fsapi", "lineend"} {
		t.Run(repo, func(t *testing.T) {
			dir := masktest.MaskedCopy(t, repo, fixtureMasks)
			win := append([]string{"GOOS=windows"}, goEnv...)
			masktest.Run(t, dir, win, "go", "build", "./...")
			masktest.Run(t, dir, win, "go", "vet", "./...")
			masktest.Run(t, dir, append([]string{"GOOS=linux"}, goEnv...), "go", "test", "-count=1", "./...")
		})
	}
}
