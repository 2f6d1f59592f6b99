package tasksplit

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

// splitSteps is a checkout of the splitbackend fixture, a verify step
// holding verified, and the split steps of groups 1..of.
func splitSteps(verified schemas.Verified, of int) []*engine.Step {
	steps := []*engine.Step{
		enginetest.Dir("co", "source", filepath.Join("..", "..", "testdata", "repos", "splitbackend")),
		enginetest.JSON("vr", schemas.RegionsFile, verified),
	}
	for k := 1; k <= of; k++ {
		steps = append(steps, &engine.Step{
			ID: "group" + string(rune('0'+k)), Kind: Kind,
			Config: []engine.Field{{Name: "repository", Value: "sb"}, {Name: "source", Value: "windows"}, {Name: "target", Value: "linux"},
				{Name: "group", Value: k}, {Name: "of", Value: of}},
			Inputs: []engine.Input{{Name: InputSource, Step: "co"}, {Name: InputVerify, Step: "vr"}},
		})
	}
	return steps
}

type groupOut struct {
	regions schemas.Verified
	record  schemas.SplitRecord
	raw     []byte
}

func runSplit(t *testing.T, verified schemas.Verified, of int) []groupOut {
	t.Helper()
	rep, e, _ := enginetest.Build(t, splitSteps(verified, of)...)
	var out []groupOut
	for k := 1; k <= of; k++ {
		a, err := e.Artifacts(rep.Step("group" + string(rune('0'+k))))
		if err != nil {
			t.Fatal(err)
		}
		var g groupOut
		if err := a.DecodeJSON(schemas.RegionsFile, &g.regions); err != nil {
			t.Fatal(err)
		}
		if err := a.DecodeJSON(schemas.GroupFile, &g.record); err != nil {
			t.Fatal(err)
		}
		g.raw, _ = a.Bytes(schemas.RegionsFile)
		out = append(out, g)
	}
	return out
}

// The fixture's Unix backend as the verifier sees it for windows->linux:
// two regions in configBase (lines 14-25), one in quoteArg (30-43), and a
// false positive, which no group masks.
func backendRegions(quoteEnd int) schemas.Verified {
	r := func(start, end int, label, fg string) schemas.VerifiedRegion {
		return schemas.VerifiedRegion{Region: schemas.Region{File: "backend_unix.go", Start: start, End: end, Lines: []int{start}},
			Verdict: schemas.Verdict{Label: label, FeatureGroup: fg, Verifier: "rules"}}
	}
	return schemas.Verified{Repository: "sb", Source: "windows", Target: "linux", Verifier: "rules",
		Regions: []schemas.VerifiedRegion{
			r(17, 19, schemas.LabelPath, "config_dir"), r(20, 23, schemas.LabelConditional, "config_base"),
			r(31, quoteEnd, schemas.LabelPath, "path_separators"), r(8, 8, schemas.LabelFalsePositive, "empty_arg"),
		},
		ByLabel: map[string]int{schemas.LabelPath: 2, schemas.LabelConditional: 1, schemas.LabelFalsePositive: 1}}
}

func TestSplitStep(t *testing.T) {
	two := runSplit(t, backendRegions(40), 2)
	starts := func(v schemas.Verified) []int {
		var s []int
		for _, r := range v.Regions {
			s = append(s, r.Start)
		}
		return s
	}
	if got := starts(two[0].regions); !reflect.DeepEqual(got, []int{17, 20}) {
		t.Errorf("group 1 regions start at %v, want configBase's 17, 20", got)
	}
	if got := starts(two[1].regions); !reflect.DeepEqual(got, []int{31}) {
		t.Errorf("group 2 regions start at %v, want quoteArg's 31", got)
	}
	if want := map[string]int{schemas.LabelPath: 1, schemas.LabelConditional: 1}; !reflect.DeepEqual(two[0].regions.ByLabel, want) {
		t.Errorf("group 1 by_label = %v, want %v", two[0].regions.ByLabel, want)
	}
	if r := two[1].record; r.Formed != 2 || r.Units != 2 || !reflect.DeepEqual(r.Sizes, []int{7, 10}) || r.Group.Lines != 10 || r.Group.Index != 2 {
		t.Errorf("group 2 record = %+v", r)
	}

	// A change to group 2's regions leaves group 1's result byte for
	// byte as it was, so nothing below group 1's split step reruns.
	changed := runSplit(t, backendRegions(42), 2)
	if string(changed[0].raw) != string(two[0].raw) {
		t.Errorf("group 1's regions changed with group 2's:\n%s\n%s", two[0].raw, changed[0].raw)
	}
	if string(changed[1].raw) == string(two[1].raw) {
		t.Errorf("group 2's regions did not change")
	}

	// Three groups of two functions: the third is empty and says why.
	three := runSplit(t, backendRegions(40), 3)
	if r := three[2]; len(r.regions.Regions) != 0 || r.record.Formed != 2 || r.record.Group.Regions != 0 {
		t.Errorf("group 3 of 3 = %d regions, record %+v", len(r.regions.Regions), r.record)
	}
}
