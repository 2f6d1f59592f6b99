package cfamily_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
)

// fixtureMasks are the masks of the C and C++ fixture repositories (cpath,
// cppenc), by golden name: the regions a verifier would pass.
var fixtureMasks = map[string]fixtureMask{
	"cpath-pathrules": {repo: "cpath", file: "src/pathrules.c",
		regions: [][2]int{{9, 9}, {18, 18}, {24, 24}, {31, 32}, {43, 46}, {95, 107}}},
	"cpath-probe":     {repo: "cpath", file: "src/probe.c", regions: [][2]int{{17, 21}, {49, 53}}},
	"cppenc-eol":      {repo: "cppenc", file: "src/eol.cpp", regions: [][2]int{{8, 8}}},
	"cppenc-wide":     {repo: "cppenc", file: "src/wide.cpp", regions: [][2]int{{16, 28}, {33, 45}}},
	"cppenc-textfile": {repo: "cppenc", file: "src/textfile.cpp", regions: [][2]int{{24, 27}}},
	"coarse-cpath":    {repo: "cpath", file: "src/pathrules.c", coarse: true, regions: [][2]int{{95, 99}}},
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
			needTool(t, repo.winCC)
			needTool(t, repo.cc)
			flags := []string{repo.std, "-Wall", "-Iinclude"}
			check := func(dir, name, file string) {
				run(t, dir, nil, repo.winCC, append(flags, "-fsyntax-only", "-Werror=return-type", file)...)
				run(t, dir, nil, repo.cc, append(flags, "-fsyntax-only", file)...)
				after := run(t, dir, nil, repo.cc, append(flags, "-E", "-P", file)...)
				before := run(t, fixtureDir(repo.name), nil, repo.cc, append(flags, "-E", "-P", file)...)
				if after != before {
					t.Errorf("%s: masking changed what the Linux compiler sees in %s", name, file)
				}
			}
			dir := maskedCopy(t, repo.name)
			for name, fm := range fixtureMasks {
				if fm.repo != repo.name {
					continue
				}
				if fm.coarse {
					coarse := filepath.Join(t.TempDir(), repo.name)
					if err := os.CopyFS(coarse, os.DirFS(fixtureDir(repo.name))); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(coarse, fm.file), runFixtureMask(t, fm).Source, 0o644); err != nil {
						t.Fatal(err)
					}
					check(coarse, name, fm.file)
					continue
				}
				check(dir, name, fm.file)
			}
		})
	}
}
