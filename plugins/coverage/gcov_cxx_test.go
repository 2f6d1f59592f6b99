package coverage

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// The C++ recording: testdata/cxxstub built with g++ --coverage and
// reported by `gcov -a -b -m`, whose "function" and template specialisation
// lines carry demangled names full of "::" (and an ABI tag's lone ':').
// Recorded with Debian 12's gcc 12.2. Only the stub's own .gcov files are
// kept (not the libstdc++ headers gcov also reports), and the build
// directory is written as cxxstubRoot.
const (
	cxxstubRoot      = "/tmp/w/cxxstub"
	cxxstubRecording = "cxxstub-gcc.gcov"
)

func TestGcovCxxGolden(t *testing.T) {
	if *update {
		recordCxxStub(t)
	}
	got := importFile(t, &Gcov{}, cxxstubRecording, Options{Root: cxxstubRoot})
	checkCoverage(t, got)
	checkCoverageGolden(t, got, cxxstubRecording+".golden.json")

	// Pin what the stub was written to show.
	byPath := map[string]schemas.FileCoverage{}
	for _, fc := range got {
		byPath[fc.Path] = fc
	}
	if len(byPath) != 3 {
		t.Errorf("got %d files, want geo/shapes.cc, geo/shapes.h and shapes_test.cc", len(byPath))
	}
	shapes := byPath["geo/shapes.cc"]
	for _, line := range []int{10, 15, 21, 24, 28, 29} { // clamp, scaled, label, perimeter and its lambda
		if !slices.Contains(shapes.Executed, line) {
			t.Errorf("geo/shapes.cc:%d did not run; executed = %v", line, shapes.Executed)
		}
	}
	for _, line := range []int{8, 22} { // clamp's "return 0", label's "large"
		if slices.Contains(shapes.Executed, line) || !slices.Contains(shapes.Instrumented, line) {
			t.Errorf("geo/shapes.cc:%d should be instrumented and not executed", line)
		}
	}
	if header := byPath["geo/shapes.h"]; !slices.Contains(header.Executed, 10) { // Polygon's constructor
		t.Errorf("geo/shapes.h:10 did not run; executed = %v", header.Executed)
	}
}

// recordCxxStub rebuilds the stub with g++ and reruns gcov.
func recordCxxStub(t *testing.T) {
	t.Helper()
	if !have(t, "g++", "gcov") {
		return
	}
	src, err := filepath.Abs(filepath.Join("testdata", "cxxstub"))
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "cxxstub")
	copyDir(t, src, work)
	build := filepath.Join(work, "build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	objects := []string{}
	for _, source := range []string{"geo/shapes.cc", "shapes_test.cc"} {
		object := filepath.Join(build, filepath.Base(source)+".o")
		run(t, build, nil, "g++", "--coverage", "-O0", "-c", filepath.Join(work, source), "-o", object)
		objects = append(objects, object)
	}
	exe := filepath.Join(build, "shapes_test")
	run(t, build, nil, "g++", append([]string{"--coverage", "-o", exe}, objects...)...)
	run(t, build, nil, exe)
	run(t, build, nil, "gcov", "-a", "-b", "-m", "shapes.cc.gcda", "shapes_test.cc.gcda")
	data := concatFiles(t, build, "shapes*.gcov")
	data = bytes.ReplaceAll(data, []byte(work), []byte(cxxstubRoot))
	if err := os.WriteFile(filepath.Join("testdata", cxxstubRecording), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
