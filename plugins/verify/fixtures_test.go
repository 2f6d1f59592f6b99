package verify

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureCase is a region of a fixture repository (testdata/repos) with the
// labels the fixture's README gives it; the first is what the rules should
// say, the others are acceptable readings.
type fixtureCase struct {
	file           string
	start, end     int
	sourceCompiled bool
	source, target string
	want           []string
}

var fixtureCases = []fixtureCase{
	{"pathsep/pathsep.go", 20, 20, true, "linux", "windows", []string{schemas.LabelPath}},
	{"pathsep/pathsep.go", 30, 39, true, "linux", "windows", []string{schemas.LabelPath}},
	{"pathsep/pathsep.go", 49, 49, true, "linux", "windows", []string{schemas.LabelPath}},
	{"pathsep/pathsep.go", 61, 61, true, "linux", "windows", []string{schemas.LabelPath, schemas.LabelConditional}},
	{"pathsep/pathsep.go", 76, 95, true, "linux", "windows", []string{schemas.LabelPath, schemas.LabelConditional}},
	{"pathsep/pathsep.go", 100, 104, true, "linux", "windows", []string{schemas.LabelPath}},
	{"pathsep/compare.go", 34, 34, true, "linux", "windows", []string{schemas.LabelPath}},
	{"pathsep/join.go", 41, 52, true, "linux", "windows", []string{schemas.LabelPath}},
	{"fsapi/attrs_windows.go", 23, 28, false, "linux", "windows", []string{schemas.LabelAPI}},
	{"fsapi/attrs_windows.go", 62, 73, false, "linux", "windows", []string{schemas.LabelPath}},
	{"fsapi/attrs_unix.go", 18, 23, false, "windows", "linux", []string{schemas.LabelAPI}},
	{"fsapi/attrs_unix.go", 27, 27, false, "windows", "linux", []string{schemas.LabelOtherFeature}},
	{"fsapi/attrs_unix.go", 31, 40, false, "windows", "linux", []string{schemas.LabelAPI}},
	{"fsapi/attrs_unix.go", 59, 62, false, "windows", "linux", []string{schemas.LabelPath}},
	{"lineend/lineend.go", 30, 30, true, "linux", "windows", []string{schemas.LabelEncoding}},
	{"lineend/config/config.go", 47, 50, true, "linux", "windows", []string{schemas.LabelPath}},
	{"lineend/config/config.go", 58, 65, true, "windows", "linux", []string{schemas.LabelPath}},
	{"cpath/src/pathrules.c", 9, 9, false, "linux", "windows", []string{schemas.LabelPath}},
	{"cpath/src/pathrules.c", 18, 18, false, "linux", "windows", []string{schemas.LabelConditional, schemas.LabelPath}},
	{"cpath/src/pathrules.c", 31, 32, false, "linux", "windows", []string{schemas.LabelPath}},
	{"cpath/src/pathrules.c", 42, 46, false, "linux", "windows", []string{schemas.LabelPath}},
	{"cpath/src/pathrules.c", 48, 48, false, "windows", "linux", []string{schemas.LabelConditional, schemas.LabelPath}},
	{"cpath/src/probe.c", 17, 21, false, "linux", "windows", []string{schemas.LabelAPI}},
	{"cpath/src/probe.c", 23, 27, false, "windows", "linux", []string{schemas.LabelAPI}},
	{"cpath/src/probe.c", 46, 53, false, "linux", "windows", []string{schemas.LabelPath, schemas.LabelAPI}},
	{"cpath/src/probe.c", 55, 59, false, "windows", "linux", []string{schemas.LabelPath}},
	{"cppenc/src/eol.cpp", 8, 8, false, "linux", "windows", []string{schemas.LabelEncoding}},
	{"cppenc/src/wide.cpp", 16, 28, false, "linux", "windows", []string{schemas.LabelEncoding}},
	{"cppenc/src/wide.cpp", 96, 107, false, "windows", "linux", []string{schemas.LabelEncoding, schemas.LabelConditional}},
	{"cppenc/src/textfile.cpp", 24, 27, false, "linux", "windows", []string{schemas.LabelAPI, schemas.LabelEncoding}},
	{"cppenc/src/eol.cpp", 37, 39, true, "linux", "windows", []string{schemas.LabelFalsePositive}},
	{"rsplat/src/paths.rs", 5, 5, false, "linux", "windows", []string{schemas.LabelPath}},
	{"rsplat/src/paths.rs", 22, 22, false, "linux", "windows", []string{schemas.LabelPath}},
	{"rsplat/src/paths.rs", 35, 41, false, "linux", "windows", []string{schemas.LabelPath}},
	{"rsplat/src/paths.rs", 95, 112, false, "linux", "windows", []string{schemas.LabelPath, schemas.LabelConditional}},
	{"rsplat/src/attrs.rs", 17, 19, false, "linux", "windows", []string{schemas.LabelAPI}},
	{"rsplat/src/attrs.rs", 41, 43, false, "windows", "linux", []string{schemas.LabelAPI}},
	{"rsplat/src/units.rs", 18, 19, false, "linux", "windows", []string{schemas.LabelEncoding}},
	{"rsplat/src/units.rs", 37, 38, false, "windows", "linux", []string{schemas.LabelEncoding}},
	{"lineend/lineend.go", 73, 75, true, "linux", "windows", []string{schemas.LabelFalsePositive}},
}

// fixtureVerdict is one line of the golden file.
type fixtureVerdict struct {
	Region  string          `json:"region"`
	Verdict schemas.Verdict `json:"verdict"`
}

func TestFixtureRepositories(t *testing.T) {
	var got []fixtureVerdict
	for _, c := range fixtureCases {
		src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "repos", filepath.FromSlash(c.file)))
		if err != nil {
			t.Fatal(err)
		}
		in := Input{Path: c.file, Source: src, SourceOS: c.source, TargetOS: c.target,
			Regions: []schemas.Region{{File: c.file, Start: c.start, End: c.end, SourceCompiled: c.sourceCompiled}}}
		vs, err := Rules{}.Verify(context.Background(), in)
		if err != nil {
			t.Fatalf("%s:%d-%d: %v", c.file, c.start, c.end, err)
		}
		if len(vs) != 1 {
			t.Fatalf("%s:%d-%d: %d verdicts, want 1", c.file, c.start, c.end, len(vs))
		}
		v := vs[0]
		if !contains(c.want, v.Label) {
			t.Errorf("%s:%d-%d: label %s, want one of %v (%s)", c.file, c.start, c.end, v.Label, c.want, v.Explanation)
		}
		got = append(got, fixtureVerdict{Region: c.file + ":" + itoa(c.start) + "-" + itoa(c.end), Verdict: v})
	}
	checkGolden(t, "fixtures.golden.json", got)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("verdicts differ from %s (run go test -update and review the diff)\n%s", file, got)
	}
}
