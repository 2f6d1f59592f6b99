package cfamily_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureMasks are the masks of the C and C++ fixture repositories (cpath,
// cppenc), by golden name: the regions a verifier would pass.
var fixtureMasks = map[string]masktest.Fixture{
	"cpath-pathrules": {Repo: "cpath", File: "src/pathrules.c",
		Regions: [][2]int{{9, 9}, {18, 18}, {24, 24}, {31, 32}, {43, 46}, {95, 107}}},
	"cpath-probe":     {Repo: "cpath", File: "src/probe.c", Regions: [][2]int{{17, 21}, {49, 53}}},
	"cppenc-eol":      {Repo: "cppenc", File: "src/eol.cpp", Regions: [][2]int{{8, 8}}},
	"cppenc-wide":     {Repo: "cppenc", File: "src/wide.cpp", Regions: [][2]int{{16, 28}, {33, 45}}},
	"cppenc-textfile": {Repo: "cppenc", File: "src/textfile.cpp", Regions: [][2]int{{24, 27}}},
	"coarse-cpath":    {Repo: "cpath", File: "src/pathrules.c", Coarse: true, Regions: [][2]int{{95, 99}}},
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
		})
	}
}

// TestMaskedCFixturesCompile compiles the masked C and C++ sources for
// Windows with mingw-w64, and checks that the Linux compiler sees exactly
// the code it saw before masking (identical preprocessed output). Coarse
// masks are checked the same way, each on its own copy.
func TestMaskedCFixturesCompile(t *testing.T) {
	for _, repo := range []struct{ name, winCC, cc, std string }{
		{"cpath", "x86_64-w64-mingw32-gcc", "gcc", "-std=c99"},
		{"cppenc", "x86_64-w64-mingw32-g++", "g++", "-std=c++17"},
	} {
		t.Run(repo.name, func(t *testing.T) {
			masktest.NeedTool(t, repo.winCC)
			masktest.NeedTool(t, repo.cc)
			flags := []string{repo.std, "-Wall", "-Iinclude"}
			check := func(dir, name, file string) {
				masktest.Run(t, dir, nil, repo.winCC, append(flags, "-fsyntax-only", "-Werror=return-type", file)...)
				masktest.Run(t, dir, nil, repo.cc, append(flags, "-fsyntax-only", file)...)
				after := masktest.Run(t, dir, nil, repo.cc, append(flags, "-E", "-P", file)...)
				before := masktest.Run(t, masktest.Dir(repo.name), nil, repo.cc, append(flags, "-E", "-P", file)...)
				if after != before {
					t.Errorf("%s: masking changed what the Linux compiler sees in %s", name, file)
				}
			}
			dir := masktest.MaskedCopy(t, repo.name, fixtureMasks)
			for name, fm := range fixtureMasks {
				if fm.Repo != repo.name {
					continue
				}
				if fm.Coarse {
					coarse := filepath.Join(t.TempDir(), repo.name)
					if err := os.CopyFS(coarse, os.DirFS(masktest.Dir(repo.name))); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(coarse, fm.File), masktest.Mask(t, fm).Source, 0o644); err != nil {
						t.Fatal(err)
					}
					check(coarse, name, fm.File)
					continue
				}
				check(dir, name, fm.File)
			}
		})
	}
}
