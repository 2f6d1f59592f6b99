package compile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/plugins/coverage"
	_ "github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
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
	// The deps input reads the skeleton only: the complete, masked and
	// patched trees' runs key alike.
	if len(test.Inputs) != 3 || test.Inputs[0].Step != "pathsep/checkout" || test.Inputs[1].Step != "pathsep/linux/toolchain" ||
		test.Inputs[2] != (engine.Input{Name: "deps", Step: "pathsep/deps", Result: "lock"}) {
		t.Errorf("test inputs = %+v", test.Inputs)
	}
	if c := byID["cpath/linux/test"]; c == nil || len(c.Inputs) != 2 || byID["cpath/deps"] != nil {
		t.Errorf("a C repository has no deps step and its runs no deps input: %+v", c)
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

// TestToolchainKeyedByInstalledTools checks that a C or Rust toolchain step
// carries the installed tools in its key, so an upgrade reruns it, while Go
// (pinned by version) and the test steps do not.
func TestToolchainKeyedByInstalledTools(t *testing.T) {
	for _, tool := range []string{"gcc", "cmake", "rustc", "cargo", "x86_64-w64-mingw32-gcc", "wine"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	steps, err := Compile(context.Background(), examples(t), Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*engine.Step{}
	for _, s := range steps {
		byID[s.ID] = s
	}
	for _, tc := range []struct {
		step, want string // want: a substring of Env["tools"], or "" for none
	}{
		{"cpath/linux/toolchain", "gcc -dumpfullversion: "},
		{"cpath/windows/toolchain", "x86_64-w64-mingw32-gcc -dumpversion: "},
		{"rsplat/linux/toolchain", "rustc --version: rustc "},
		{"rsplat/windows/toolchain", "wine --version: wine-"},
		{"pathsep/linux/toolchain", ""},
		{"cpath/linux/test", ""},
	} {
		s := byID[tc.step]
		if s == nil {
			t.Errorf("no step %s", tc.step)
			continue
		}
		got, ok := s.Env["tools"]
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: env.tools = %q, want none", tc.step, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: env.tools = %q, want it to contain %q", tc.step, got, tc.want)
		case strings.Contains(got, "\n"):
			t.Errorf("%s: env.tools spans lines: %q", tc.step, got)
		}
	}
}

// TestMissingToolsFailOnlyTheirRepository compiles a repository whose
// language needs a tool this machine lacks: the compilation succeeds, and
// the toolchain step's key records why the tools are unavailable.
func TestMissingToolsFailOnlyTheirRepository(t *testing.T) {
	if _, err := exec.LookPath("dotnet"); err == nil {
		t.Skip("dotnet is installed")
	}
	dir := t.TempDir()
	manifest := `repository "dn" {
  preset = "dotnet"
  source {
    path = "` + dir + `"
  }
  migrate = ["windows->linux"]
}
`
	if err := os.WriteFile(filepath.Join(dir, "dn.hcl"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	set, diags := manifests.Load([]string{filepath.Join(dir, "dn.hcl")}, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	for _, s := range steps {
		if s.ID == "dn/linux/toolchain" {
			if got := s.Env["tools"]; !strings.HasPrefix(got, "unavailable: dotnet --version: ") {
				t.Errorf("env.tools = %q, want the probe's error", got)
			}
			return
		}
	}
	t.Fatal("no dn/linux/toolchain step")
}

func TestRepeatedRunsFeedTheTaskStep(t *testing.T) {
	set := examples(t)
	for _, r := range set.Repositories {
		r.FlakyRuns = 3
	}
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.NewGraph(steps); err != nil {
		t.Fatalf("graph: %v", err)
	}
	var task *engine.Step
	for _, s := range steps {
		if s.ID == "pathsep/linux-to-windows/task" {
			task = s
		}
	}
	if task == nil {
		t.Fatal("no task step")
	}
	want := map[string]string{"target_run_1": "pathsep/windows/test", "target_run_3": "pathsep/windows/test#3", "source_run_2": "pathsep/linux/test#2"}
	for _, in := range task.Inputs {
		if w, ok := want[in.Name]; ok && in.Step != w {
			t.Errorf("input %s = %s, want %s", in.Name, in.Step, w)
		}
		delete(want, in.Name)
	}
	if len(want) != 0 {
		t.Errorf("missing inputs: %v", want)
	}
}

// TestRunLogExports: every run of a platform's suite exports its raw log
// beside tests.json under a name that says which run it is, and no two
// runs share a file.
func TestRunLogExports(t *testing.T) {
	for _, tt := range []struct {
		run  int
		want string
	}{{1, "test.log"}, {2, "test-run2.log"}, {3, "test-run3.log"}, {10, "test-run10.log"}} {
		if got := RunLogName(tt.run); got != tt.want {
			t.Errorf("RunLogName(%d) = %q, want %q", tt.run, got, tt.want)
		}
	}

	set := examples(t)
	for _, r := range set.Repositories {
		r.FlakyRuns = 3
	}
	steps, err := Compile(context.Background(), set, Options{Platforms: []string{"linux"}, ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"pathsep/linux/test":   "runs/pathsep/linux/test.log",
		"pathsep/linux/test#2": "runs/pathsep/linux/test-run2.log",
		"pathsep/linux/test#3": "runs/pathsep/linux/test-run3.log",
	}
	paths := map[string]string{} // export path → step
	for _, s := range steps {
		for _, x := range s.Exports {
			if other, dup := paths[x.Path]; dup {
				t.Errorf("%s and %s both export %s", other, s.ID, x.Path)
			}
			paths[x.Path] = s.ID
			if x.Side && x.Output != "test.log" {
				t.Errorf("%s exports side artifact %q; the test step keeps test.log", s.ID, x.Output)
			}
		}
		if w, ok := want[s.ID]; ok {
			found := false
			for _, x := range s.Exports {
				found = found || x.Side && x.Path == w
			}
			if !found {
				t.Errorf("%s exports %+v, want its log at %s", s.ID, s.Exports, w)
			}
			delete(want, s.ID)
		}
	}
	if len(want) != 0 {
		t.Errorf("no steps %v", want)
	}
}

// A parser's or importer's version is in the key of the steps that use it,
// and only of those: version 1 adds no field, so the runs of parsers that
// never changed keep their keys.
func TestPluginVersionsReachTheKey(t *testing.T) {
	steps, err := Compile(context.Background(), examples(t), Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	field := func(id, name string) any {
		for _, s := range steps {
			if s.ID == id {
				for _, f := range s.Config {
					if f.Name == name {
						return f.Value
					}
				}
				return nil
			}
		}
		t.Fatalf("no step %s", id)
		return nil
	}
	if v := field("pathsep/linux/test", "parser_version"); v != nil {
		t.Errorf("go-test-json is at version 1, yet its runs carry parser_version %v", v)
	}
	if v := field("cpath/linux/coverage", "importer_version"); v != coverage.VersionOf("gcov") || v == "1" {
		t.Errorf("gcov coverage: importer_version %v, want %s", v, coverage.VersionOf("gcov"))
	}
	if v := field("pathsep/linux/coverage", "importer_version"); v != coverage.VersionOf("go-coverprofile") {
		t.Errorf("go coverage: importer_version %v, want %s", v, coverage.VersionOf("go-coverprofile"))
	}
	if parsers.VersionOf("junit") == "1" || parsers.VersionOf("go-test-json") != "1" || parsers.VersionOf("no-such-parser") != "1" {
		t.Errorf("parser versions: junit %s, go-test-json %s", parsers.VersionOf("junit"), parsers.VersionOf("go-test-json"))
	}
}

// TestMaskRetryWiring: the target's run on the first mask feeds the retry
// step, and the task reads the retry's tree and the target's run on it —
// a test step equal to the first run but for the step its tree comes from,
// so a retry that keeps the first tree gives that run's key again.
func TestMaskRetryWiring(t *testing.T) {
	steps, err := Compile(context.Background(), examples(t), Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*engine.Step{}
	for _, s := range steps {
		byID[s.ID] = s
	}
	const dir = "pathsep/linux-to-windows/"
	first, final, retry := byID[dir+"masked/windows/test"], byID[dir+"retried/windows/test"], byID[dir+"mask-retry"]
	if first == nil || final == nil || retry == nil {
		t.Fatalf("first run %v, final run %v, retry %v", first != nil, final != nil, retry != nil)
	}
	inputs := map[string]string{}
	for _, in := range retry.Inputs {
		inputs[in.Name] = in.Step
	}
	if inputs["first_mask"] != dir+"mask" || inputs["first_masked_run"] != first.ID || inputs["target_run_1"] != "pathsep/windows/test" {
		t.Errorf("retry inputs = %v", inputs)
	}
	source := func(s *engine.Step) string {
		for _, in := range s.Inputs {
			if in.Name == "source" {
				return in.Step + "#" + in.Result
			}
		}
		return ""
	}
	if source(first) != dir+"mask#source" || source(final) != dir+"mask-retry#source" {
		t.Errorf("sources: first %s, final %s", source(first), source(final))
	}
	if len(first.Config) != len(final.Config) || len(first.Inputs) != len(final.Inputs) || first.Kind != final.Kind {
		t.Errorf("the final run differs from the first beyond its tree: %+v vs %+v", first, final)
	}
	for i := range first.Config {
		if first.Config[i].Name != final.Config[i].Name || !reflect.DeepEqual(first.Config[i].Value, final.Config[i].Value) {
			t.Errorf("config %s differs", first.Config[i].Name)
		}
	}
	if source(byID[dir+"masked/linux/test"]) != dir+"mask-retry#source" {
		t.Errorf("the source's masked run does not read the retry's tree")
	}
	for _, in := range byID[dir+"task"].Inputs {
		if (in.Name == "mask" && in.Step != retry.ID) || (in.Name == "target_masked" && in.Step != final.ID) {
			t.Errorf("task input %s = %s", in.Name, in.Step)
		}
	}
}
