package compile

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/steps/taskbuild"
)

// compileManifest compiles one manifest for the pathsep fixture with extra
// repository attributes.
func compileManifest(t *testing.T, extra string) map[string]*stepView {
	t.Helper()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "m.hcl")
	src := `repository "sp" {
  preset = "go"
  source { path = "` + filepath.ToSlash(fixtureRepo("pathsep")) + `" }
  migrate    = ["windows->linux"]
  flaky_runs = 1
` + extra + `}
`
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, diags := manifests.Load([]string{manifest}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*stepView{}
	for _, s := range steps {
		v := &stepView{kind: s.Kind, config: map[string]any{}, inputs: map[string]string{}}
		for _, f := range s.Config {
			v.config[f.Name] = f.Value
		}
		for _, in := range s.Inputs {
			v.inputs[in.Name] = in.Step
		}
		for _, e := range s.Exports {
			v.exports = append(v.exports, e.Path)
		}
		out[s.ID] = v
	}
	return out
}

type stepView struct {
	kind    string
	config  map[string]any
	inputs  map[string]string
	exports []string
}

func ids(steps map[string]*stepView, prefix string) []string {
	var out []string
	for id := range steps {
		if strings.HasPrefix(id, prefix) {
			out = append(out, strings.TrimPrefix(id, prefix))
		}
	}
	sort.Strings(out)
	return out
}

// TestSplitSteps: split = 2 gives a split step and a whole task chain per
// group, each group's mask reading its split step's regions; without
// split the direction's steps are those it always had, with no group in
// any configuration (so their keys do not change).
func TestSplitSteps(t *testing.T) {
	unsplit := compileManifest(t, "")
	wantUnsplit := []string{"diffcov", "mask", "mask-retry", "masked/linux/test", "masked/windows/test", "retried/linux/test", "task", "verify"}
	if got := ids(unsplit, "sp/windows-to-linux/"); !reflect.DeepEqual(got, wantUnsplit) {
		t.Errorf("unsplit direction's steps = %v, want %v", got, wantUnsplit)
	}
	for id, s := range unsplit {
		if _, ok := s.config["group"]; ok {
			t.Errorf("%s of an unsplit manifest has a group in its configuration", id)
		}
	}
	if got := unsplit["sp/windows-to-linux/mask"].inputs["verify"]; got != "sp/windows-to-linux/verify" {
		t.Errorf("unsplit mask reads regions from %s", got)
	}
	if got := unsplit["sp/windows-to-linux/task"].exports; !reflect.DeepEqual(got, []string{"tasks/sp__windows-to-linux/outcome.json", "tasks/sp__windows-to-linux/repo"}) {
		t.Errorf("unsplit task exports %v", got)
	}

	split := compileManifest(t, "  split = 2\n")
	var want []string
	for _, g := range []string{"group1of2/", "group2of2/"} {
		for _, s := range []string{"mask", "mask-retry", "masked/linux/test", "masked/windows/test", "retried/linux/test", "split", "task"} {
			want = append(want, g+s)
		}
	}
	want = append([]string{"diffcov"}, append(want, "verify")...)
	if got := ids(split, "sp/windows-to-linux/"); !reflect.DeepEqual(got, want) {
		t.Errorf("split direction's steps = %v, want %v", got, want)
	}
	for k, g := range []string{"group1of2", "group2of2"} {
		dir := "sp/windows-to-linux/" + g + "/"
		sp := split[dir+"split"]
		if sp.config["group"] != k+1 || sp.config["of"] != 2 || sp.inputs["verify"] != "sp/windows-to-linux/verify" {
			t.Errorf("%ssplit: config %v, inputs %v", dir, sp.config, sp.inputs)
		}
		for _, s := range []string{"mask", "mask-retry"} {
			if got := split[dir+s].inputs["verify"]; got != dir+"split" {
				t.Errorf("%s%s reads regions from %s, want its group's split step", dir, s, got)
			}
		}
		if got := split[dir+"masked/linux/test"].inputs["source"]; got != dir+"mask" {
			t.Errorf("%smasked/linux/test runs the tree of %s", dir, got)
		}
		task := split[dir+"task"]
		if task.inputs[taskbuild.InputGroup] != dir+"split" || task.inputs[taskbuild.InputVerify] != "sp/windows-to-linux/verify" || task.inputs[taskbuild.InputMask] != dir+"mask-retry" {
			t.Errorf("%stask inputs = %v", dir, task.inputs)
		}
		if got, want := task.config["group"], (&taskbuild.GroupRef{Index: k + 1, Of: 2}); !reflect.DeepEqual(got, want) {
			t.Errorf("%stask group = %v, want %v", dir, got, want)
		}
		id := "sp__windows-to-linux__" + g
		if got := task.exports; !reflect.DeepEqual(got, []string{"tasks/" + id + "/outcome.json", "tasks/" + id + "/repo"}) {
			t.Errorf("%stask exports %v", dir, got)
		}
	}
	// The complete runs and verification are shared by the groups: the
	// split changes nothing above the split steps.
	for _, id := range []string{"sp/windows-to-linux/verify", "sp/windows-to-linux/diffcov", "sp/linux/test", "sp/windows/test"} {
		if !reflect.DeepEqual(split[id].config, unsplit[id].config) || !reflect.DeepEqual(split[id].inputs, unsplit[id].inputs) {
			t.Errorf("%s differs between the split and the unsplit manifest", id)
		}
	}
	var instances []taskbuild.Instance
	for id, s := range split {
		if id == "tasks" {
			instances, _ = s.config["instances"].([]taskbuild.Instance)
		}
	}
	if len(instances) != 2 || instances[0].Group == nil || instances[1].Group.Index != 2 || instances[1].InstanceID != "sp__windows-to-linux__group2of2" {
		t.Errorf("tasks step instances = %+v", instances)
	}
}
