package diffcov

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

func TestStepWritesDiffCoverage(t *testing.T) {
	steps := []*engine.Step{
		enginetest.Files("r/checkout", "source", map[string]string{
			"w.go":      "package r\n\nfunc f() {\n\twin()\n\t// why\n\tmore()\n}\n",
			"w_test.go": "package r\n",
		}),
		enginetest.JSON("r/linux/coverage", "coverage.json", cov("linux", file("w.go", []int{3}, []int{3, 4, 6}))),
		enginetest.JSON("r/windows/coverage", "coverage.json", cov("windows",
			file("w.go", []int{3, 4, 6}, []int{3, 4, 5, 6}), file("w_test.go", []int{1}, []int{1}), file("gen.go", []int{2}, []int{2}))),
		{
			ID: "r/linux-windows/diffcov", Kind: Kind, Group: "r",
			Config: []engine.Field{{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"}},
			Inputs: []engine.Input{
				{Name: InputSource, Step: "r/checkout"},
				{Name: InputSourceCoverage, Step: "r/linux/coverage"},
				{Name: InputTargetCoverage, Step: "r/windows/coverage"},
			},
			Exports: []engine.Export{{Output: Output, Path: "diffcov.json"}},
		},
	}
	// Line 5 of w.go is reported as instrumented, so only the comment rule,
	// which needs the checkout's text, can bridge it.
	rep, _, out := enginetest.Build(t, steps...)
	b, err := os.ReadFile(filepath.Join(out, "diffcov.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got schemas.DiffCoverage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := schemas.DiffCoverage{Repository: "r", Source: "linux", Target: "windows", Regions: []schemas.Region{
		{File: "gen.go", Start: 2, End: 2, Lines: []int{2}},
		{File: "w.go", Start: 4, End: 6, Lines: []int{4, 6}, SourceCompiled: true},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diffcov.json:\n got %+v\nwant %+v", got, want)
	}
	if last := rep.Steps[len(rep.Steps)-1]; last.Label != "2 regions, 3 lines in 2 files" {
		t.Errorf("label = %q", last.Label)
	}
}

func TestExcludedTrees(t *testing.T) {
	diff := []FileLines{{Path: "src/a.c"}, {Path: "third_party/gtest/src/gtest.cc"}, {Path: "third_party/gtest2/x.c"}, {Path: "third_party/gtest"}}
	var got []string
	for _, f := range excluded(diff, []string{"third_party/gtest"}) {
		got = append(got, f.Path)
	}
	want := []string{"src/a.c", "third_party/gtest2/x.c", "third_party/gtest"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("kept %v, want %v", got, want)
	}
	if got := excluded(diff, nil); len(got) != len(diff) {
		t.Errorf("no exclusion dropped files: %v", got)
	}
}
