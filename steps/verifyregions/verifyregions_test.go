package verifyregions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

// TestRegionOfAGeneratedFile: a differential region in a file the
// checkout does not hold (a header the build generated into its build
// directory, as jansson's CMake does) is a false positive with its reason;
// the step does not fail on it, and the repository's own regions are
// verified as before.
func TestRegionOfAGeneratedFile(t *testing.T) {
	diff := schemas.DiffCoverage{Repository: "r", Source: "linux", Target: "windows", Regions: []schemas.Region{
		{File: "_osbench_build/include/gen.h", Start: 3, End: 4, Lines: []int{3, 4}},
		{File: "src/w.c", Start: 4, End: 4, Lines: []int{4}},
	}}
	steps := []*engine.Step{
		enginetest.Files("r/checkout", "source", map[string]string{
			"src/w.c": "#include <stdio.h>\nint f(void) {\n#ifdef _WIN32\n\treturn GetTickCount();\n#else\n\treturn 0;\n#endif\n}\n",
		}),
		enginetest.JSON("r/diffcov", schemas.DiffCoverageFile, diff),
		{
			ID: "r/verify", Kind: Kind, Group: "r",
			Config:  []engine.Field{{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"}, {Name: "verifier", Value: "rules"}},
			Inputs:  []engine.Input{{Name: InputSource, Step: "r/checkout"}, {Name: InputDiffcov, Step: "r/diffcov"}},
			Exports: []engine.Export{{Output: Output, Path: "regions.json"}},
		},
	}
	_, _, out := enginetest.Build(t, steps...)
	b, err := os.ReadFile(filepath.Join(out, "regions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got Verified
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Regions) != 2 {
		t.Fatalf("regions %+v, want both", got.Regions)
	}
	gen := got.Regions[0]
	if gen.File != "_osbench_build/include/gen.h" || gen.Verdict.Label != schemas.LabelFalsePositive {
		t.Errorf("generated file's region = %+v, want a false positive", gen)
	}
	if w := got.Regions[1]; w.File != "src/w.c" || w.Verdict.Label == schemas.LabelFalsePositive {
		t.Errorf("the repository's region = %+v, want it verified as platform code", w)
	}
}
