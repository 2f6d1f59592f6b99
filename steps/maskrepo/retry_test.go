package maskrepo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/verifyregions"
)

// TestRetry: the retry step keeps the first mask's tree when the target's
// run on it was quiet (the same tree, so the run of it has the same key),
// and masks whole function bodies when that run crashed or hung. The
// fixture's region lies inside a statement: the fine mask leaves it, the
// coarse one takes the body.
func TestRetry(t *testing.T) {
	const test = "retry/TestJoined"
	for _, tc := range []struct {
		name     string
		first    *schemas.TestResults // nil: the first run failed (an absent input)
		remasked bool
		class    string
	}{
		{"quiet", &schemas.TestResults{Tests: []schemas.TestResult{{ID: test, Status: schemas.StatusFail}}}, false, schemas.MaskQuiet},
		{"crash", &schemas.TestResults{Tests: []schemas.TestResult{{ID: "retry/TestOther", Status: schemas.StatusFail}}}, true, schemas.MaskCrash},
		{"hang", &schemas.TestResults{Tests: []schemas.TestResult{{ID: test, Status: schemas.StatusTimeout}}}, true, schemas.MaskHang},
		{"no first run", nil, true, schemas.MaskCrash},
	} {
		t.Run(tc.name, func(t *testing.T) {
			regions := windowsRegions{"sep_windows.go": {{8, 8}}}
			v := regions.verified()
			for i := range v.Regions {
				v.Regions[i].SourceCompiled = false
			}
			cfg := []engine.Field{
				{Name: "repository", Value: "r"}, {Name: "source", Value: "linux"}, {Name: "target", Value: "windows"},
				{Name: "masker", Value: "rules"}, {Name: "language", Value: "go"},
				{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
				{Name: "env", Value: map[string]string{}},
			}
			inputs := []engine.Input{{Name: "source", Step: "r/checkout"}, {Name: "verify", Step: "r/verify"},
				{Name: InputSourceCoverage, Step: "r/linux/coverage"}}
			// A fixture with nothing to record fails: the first run
			// that produced no result.
			var first *engine.Step
			if tc.first != nil {
				first = enginetest.JSON("r/masked/windows/test", "tests.json", tc.first)
			} else {
				first = enginetest.JSON("r/masked/windows/test", "tests.json", nil)
			}
			steps := []*engine.Step{
				enginetest.Dir("r/checkout", "source", filepath.Join("testdata", "retry")),
				enginetest.JSON("r/verify", verifyregions.Output, v),
				enginetest.JSON("r/linux/coverage", "coverage.json", schemas.Coverage{Repository: "r", Platform: "linux"}),
				enginetest.JSON("r/windows/test", "tests.json", schemas.TestResults{Tests: []schemas.TestResult{{ID: test, Status: schemas.StatusPass}}}),
				{ID: "r/mask", Kind: Kind, Group: "r", Config: cfg, Inputs: inputs,
					Exports: []engine.Export{{Output: "source", Path: "first"}}},
				first,
				{ID: "r/mask-retry", Kind: RetryKind, Group: "r",
					Config: append(append([]engine.Field(nil), cfg...), engine.Field{Name: "runs", Value: 1}),
					Inputs: append(append([]engine.Input(nil), inputs...),
						engine.Input{Name: InputFirstMask, Step: "r/mask"},
						engine.Input{Name: InputFirstRun, Step: "r/masked/windows/test", Optional: true},
						engine.Input{Name: RetryTargetRun(1), Step: "r/windows/test"}),
					Exports: []engine.Export{{Output: "mask.json", Path: "retry.json"}, {Output: "source", Path: "retried"}}},
			}
			rep, e, out := buildKeepGoing(t, steps)
			if s := rep.Step("r/mask-retry"); s == nil || s.Status == engine.StatusFailed {
				t.Fatalf("retry step: %+v", s)
			}
			b, err := os.ReadFile(filepath.Join(out, "retry.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rec Record
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Retry == nil || rec.Retry.Remasked != tc.remasked || rec.Retry.First.Class != tc.class || rec.Coarse != tc.remasked {
				t.Fatalf("retry record = %+v, coarse %v; want remasked %v after a %s run", rec.Retry, rec.Coarse, tc.remasked, tc.class)
			}
			firstTree := tree(t, e, rep, "r/mask")
			retriedTree := tree(t, e, rep, "r/mask-retry")
			if same := reflect.DeepEqual(firstTree, retriedTree); same == tc.remasked {
				t.Errorf("retried tree equal to the first: %v, want %v", same, !tc.remasked)
			}
			masked, err := os.ReadFile(filepath.Join(out, "retried", "sep_windows.go"))
			if err != nil {
				t.Fatal(err)
			}
			if coarse := strings.Contains(string(masked), "\treturn \"\"\n"); coarse != tc.remasked {
				t.Errorf("retried sep_windows.go (want coarse %v):\n%s", tc.remasked, masked)
			}
		})
	}
}

// buildKeepGoing runs steps in a fresh cache like enginetest.Build, but
// lets steps fail (the first run of the "no first run" case).
func buildKeepGoing(t *testing.T, steps []*engine.Step) (*engine.Report, *engine.Engine, string) {
	t.Helper()
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{OutDir: out, Jobs: 2, KeepGoing: true})
	rep, err := e.Build(context.Background(), g)
	if err != nil && rep == nil {
		t.Fatal(err)
	}
	return rep, e, out
}

func tree(t *testing.T, e *engine.Engine, rep *engine.Report, id string) any {
	t.Helper()
	a, err := e.Artifacts(rep.Step(id))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := a.Tree("source")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
