package golang_test

import (
	"bytes"
	"go/format"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
)

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
