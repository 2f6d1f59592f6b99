package tasksplit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// TestAssignFixture runs the rules verifier and Assign on the Unix backend
// of the splitbackend fixture, one region per function body as
// differential coverage finds them for windows->linux: split = 2 gives one
// group per feature.
func TestAssignFixture(t *testing.T) {
	const file = "backend_unix.go"
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "repos", "splitbackend", file))
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := verify.Functions(file, src)
	if err != nil {
		t.Fatal(err)
	}
	var regions []schemas.Region
	for _, f := range funcs {
		regions = append(regions, schemas.Region{File: file, Start: f.From + 1, End: f.To - 1})
	}
	verdicts, err := verify.Rules{}.Verify(context.Background(), verify.Input{Path: file, Source: src, Regions: regions, SourceOS: "windows", TargetOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	var kept []schemas.VerifiedRegion
	for i, r := range regions {
		kept = append(kept, schemas.VerifiedRegion{Region: r, Verdict: verdicts[i]})
	}
	groups, units := Assign(kept, map[string][]verify.Function{file: funcs}, 2)
	var features [][]string
	for _, g := range groups {
		features = append(features, g.FeatureGroups)
	}
	if want := [][]string{{"config_dir"}, {"path_separators"}}; !reflect.DeepEqual(features, want) || units != 2 {
		t.Errorf("groups' feature groups = %v (%d units), want %v (2 units); verdicts %+v", features, units, want, verdicts)
	}
}
