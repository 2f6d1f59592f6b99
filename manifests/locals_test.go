package manifests

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestEvalLocals(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string]cty.Value
	}{{
		name: "declared after use, across blocks",
		src: `locals {
  full = "${local.major}.${local.minor}"
}
locals {
  major = "go1"
  minor = length(local.list)
  list  = [1, 2]
}`,
		want: map[string]cty.Value{
			"full":  cty.StringVal("go1.2"),
			"major": cty.StringVal("go1"),
			"minor": cty.NumberIntVal(2),
			"list":  cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
		},
	}, {
		name: "index syntax and functions",
		src: `locals {
  a = upper(local["b"])
  b = "x"
}`,
		want: map[string]cty.Value{"a": cty.StringVal("X"), "b": cty.StringVal("x")},
	}, {
		name: "values depending on a cycle are unknown, others are computed",
		src: `locals {
  a = local.b
  b = local.a
  c = "${local.a}!"
  d = "fine"
}`,
		want: map[string]cty.Value{"a": cty.DynamicVal, "b": cty.DynamicVal, "c": cty.UnknownVal(cty.String), "d": cty.StringVal("fine")},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, diags := hclsyntax.ParseConfig([]byte(tt.src), "l.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			content, diags := file.Body.Content(fileSchema)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var locals []*localValue
			for _, block := range content.Blocks {
				values, diags := decodeLocalsBlock(block)
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				locals = append(locals, values...)
			}
			got, diags := evalLocals(locals, functions(nil))
			wantCycle := tt.want["a"] == cty.DynamicVal
			if diags.HasErrors() != wantCycle {
				t.Errorf("diagnostics: %v", diags)
			}
			for name, want := range tt.want {
				value := got.GetAttr(name)
				if !want.IsKnown() {
					if value.IsKnown() {
						t.Errorf("local.%s = %#v, want an unknown value", name, value)
					}
					continue
				}
				if !value.RawEquals(want) {
					t.Errorf("local.%s = %#v, want %#v", name, value, want)
				}
			}
		})
	}
}
