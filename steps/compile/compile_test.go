package compile

import (
	"context"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
	_ "github.com/osbench/osbench/plugins/executors"
)

func examples(t *testing.T) *manifests.Set {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "manifests", "examples")
	set, diags := manifests.Load([]string{dir}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return set
}

func TestCompileExamples(t *testing.T) {
	steps, err := Compile(context.Background(), examples(t), Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*engine.Step{}
	for _, s := range steps {
		byID[s.ID] = s
	}
	test := byID["pathsep/linux/test"]
	if test == nil {
		t.Fatalf("no pathsep/linux/test among %d steps", len(steps))
	}
	if len(test.Inputs) != 2 || test.Inputs[0].Step != "pathsep/checkout" || test.Inputs[1].Step != "pathsep/linux/toolchain" {
		t.Errorf("test inputs = %+v", test.Inputs)
	}
	if test.Exports[0].Path != "runs/pathsep/linux/tests.json" {
		t.Errorf("exports = %+v", test.Exports)
	}
	if test.Env["executor"] == "" || test.Env["platform"] != "linux" {
		t.Errorf("env = %v", test.Env)
	}
	loc := regexp.MustCompile(`^.+\.hcl:\d+:\d+$`)
	for _, f := range test.Config {
		if f.Name == "timeout" && !loc.MatchString(f.Source) {
			t.Errorf("timeout source = %q, want file:line:col", f.Source)
		}
	}
	co := byID["pathsep/checkout"]
	if co.Local["path"] == "" || len(co.Config) != 1 || co.Config[0].Name != "tree" {
		t.Errorf("local checkout = %+v", co)
	}
	if _, err := engine.NewGraph(steps); err != nil {
		t.Errorf("graph: %v", err)
	}
}
