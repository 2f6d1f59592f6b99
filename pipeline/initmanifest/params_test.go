package initmanifest

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestParamArgs(t *testing.T) {
	for _, c := range []struct {
		name   string
		preset string
		args   ParamArgs
		want   map[string]cty.Value
		err    string
	}{
		{name: "none", preset: "c-cmake"},
		{name: "string and number", preset: "c-cmake",
			args: ParamArgs{Params: []string{"source_dir=expat", "skip_exit_code=77"}},
			want: map[string]cty.Value{"source_dir": cty.StringVal("expat"), "skip_exit_code": cty.NumberIntVal(77)}},
		{name: "a list element per --param keeps its = and ,", preset: "c-cmake",
			args: ParamArgs{Params: []string{"cmake_options=-DBUILD_TESTING=ON", "cmake_options=-DX=a,b"}},
			want: map[string]cty.Value{"cmake_options": cty.ListVal([]cty.Value{cty.StringVal("-DBUILD_TESTING=ON"), cty.StringVal("-DX=a,b")})}},
		{name: "an HCL list", preset: "c-cmake",
			args: ParamArgs{Params: []string{`targets=["uv_run_tests_a", "uv"]`}},
			want: map[string]cty.Value{"targets": cty.ListVal([]cty.Value{cty.StringVal("uv_run_tests_a"), cty.StringVal("uv")})}},
		{name: "an empty list", preset: "c-cmake",
			args: ParamArgs{Params: []string{`targets=[]`}},
			want: map[string]cty.Value{"targets": cty.ListValEmpty(cty.String)}},
		{name: "--runner with its programs", preset: "c-cmake",
			args: ParamArgs{Params: []string{"programs=uv_run_tests_a", "list_args=--list"}, Runner: "each"},
			want: map[string]cty.Value{"runner": cty.StringVal("each"), "programs": cty.ListVal([]cty.Value{cty.StringVal("uv_run_tests_a")}),
				"list_args": cty.ListVal([]cty.Value{cty.StringVal("--list")})}},
		{name: "unknown parameter names what exists", preset: "c-cmake",
			args: ParamArgs{Params: []string{"cmake_option=-DX=1"}},
			err:  `--param cmake_option=-DX=1: the c-cmake preset has no parameter "cmake_option"; it has cmake_options, list_args, mingw_threads, programs, run_args, runner, skip_exit_code, source_dir, targets, working_dir`},
		{name: "no =", preset: "c-cmake", args: ParamArgs{Params: []string{"runner"}}, err: `--param "runner": want KEY=VALUE`},
		{name: "wrong kind", preset: "c-cmake", args: ParamArgs{Params: []string{"skip_exit_code=seventy"}},
			err: `skip_exit_code must be a number like the c-cmake preset's default: "seventy" is not a whole number`},
		{name: "list of non-strings", preset: "c-cmake", args: ParamArgs{Params: []string{"targets=[[1]]"}}, err: "is not a list of strings"},
		{name: "unknown runner", preset: "c-cmake", args: ParamArgs{Runner: "tap"}, err: `runner "tap": the c-cmake preset's runners are ctest, each, gtest`},
		{name: "each without programs", preset: "c-cmake", args: ParamArgs{Runner: "each"}, err: `runner "each" needs the programs parameter`},
		{name: "a preset without a runner", preset: "go", args: ParamArgs{Runner: "each"}, err: "--runner each: the go preset has no runner parameter (it has none)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.args.For(c.preset)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want it to contain %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
			for k, v := range c.want {
				if g, ok := got[k]; !ok || !g.RawEquals(v) {
					t.Errorf("%s = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

// The params are written as the repository's, in osbench fmt's layout, and
// --timeout as a platform's timeout and eval_timeout.
func TestManifestWritesParams(t *testing.T) {
	m := &Manifest{Name: "libuv", Preset: "c-cmake", Source: Source{Kind: KindPath, Value: "../libuv"},
		Params:       map[string]cty.Value{"runner": cty.StringVal("each"), "programs": cty.ListVal([]cty.Value{cty.StringVal("uv_run_tests_a")})},
		EvalTimeouts: map[string]EvalTimeout{"linux": {Value: "15m", Timeout: "15m", Reason: "given"}}}
	got := string(m.Text())
	for _, want := range []string{
		"  params = {\n    programs = [\"uv_run_tests_a\"]\n    runner   = \"each\"\n  }\n",
		"    test {\n      # given\n      timeout      = \"15m\"\n      eval_timeout = \"15m\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("manifest lacks %q:\n%s", want, got)
		}
	}
}
