package manifests

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// The functions manifests are documented to have, each called once.
func TestFunctions(t *testing.T) {
	lookup := func(name string) (string, bool) {
		if name == "SET" {
			return "value", true
		}
		return "", false
	}
	tests := []struct {
		expr string
		want cty.Value
	}{
		{`upper("a")`, cty.StringVal("A")},
		{`lower("A")`, cty.StringVal("a")},
		{`join("-", ["a", "b"])`, cty.StringVal("a-b")},
		{`split(",", "a,b")[1]`, cty.StringVal("b")},
		{`length(concat(["a"], ["b", "c"]))`, cty.NumberIntVal(3)},
		{`format("%s@%d", "go", 1)`, cty.StringVal("go@1")},
		{`replace("a/b", "/", "\\")`, cty.StringVal(`a\b`)},
		{`trimspace("  x ")`, cty.StringVal("x")},
		{`contains(["a", "b"], "b")`, cty.True},
		{`keys(merge({ a = 1 }, { b = 2 }))[1]`, cty.StringVal("b")},
		{`values({ a = "x" })[0]`, cty.StringVal("x")},
		{`coalesce(null, "fallback")`, cty.StringVal("fallback")},
		{`try(env("UNSET"), "caught")`, cty.StringVal("caught")},
		{`env("SET")`, cty.StringVal("value")},
		{`env("SET", "default")`, cty.StringVal("value")},
		{`env("UNSET", "default")`, cty.StringVal("default")},
	}
	ctx := &hcl.EvalContext{Functions: functions(lookup)}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tt.expr), "f.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got, diags := expr.Value(ctx)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			// env() marks what it returns, so validate can tell where
			// its values end up.
			if strings.HasPrefix(tt.expr, "env(") && !got.HasMark(envMark) {
				t.Errorf("%s is not marked as coming from env()", tt.expr)
			}
			got, _ = got.UnmarkDeep()
			if !got.RawEquals(tt.want) {
				t.Errorf("%s = %#v, want %#v", tt.expr, got, tt.want)
			}
		})
	}
}

// Without a LookupEnv, env() reads the process environment.
func TestEnvReadsProcessEnvironment(t *testing.T) {
	t.Setenv("OSBENCH_MANIFESTS_TEST_TOOLCHAIN", "go1.24.0")
	dir := writeFiles(t, map[string]string{"m.hcl": `repository "env" {
  source {
    path = "/srv/env"
  }
  toolchain = env("OSBENCH_MANIFESTS_TEST_TOOLCHAIN")
  migrate   = ["linux->windows"]
` + twoPlatforms + "}\n"})
	set, diags := Load([]string{filepath.Join(dir, "m.hcl")}, LoadOptions{})
	if diags.HasErrors() || len(set.Repositories) != 1 {
		t.Fatalf("load failed: %v", diags)
	}
	if got := set.Repositories[0].Platforms[0].Toolchain; got != "go1.24.0" {
		t.Errorf("toolchain = %q, want the environment's go1.24.0", got)
	}
}
