package manifests

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// PresetParams returns the parameters a bundled preset declares at its top,
// with their defaults: the names a repository may set, and the kind each
// value must have. `osbench init --param` checks its arguments against
// them before it composes a manifest, so a misspelt name is refused before
// any build and the message names what exists. A preset's defaults are
// literals (they may not refer to locals), so no evaluation context is
// needed.
func PresetParams(name string) (map[string]cty.Value, error) {
	src, ok := PresetSource(name)
	if !ok {
		return nil, fmt.Errorf("no bundled preset %q (there are %s)", name, quotedList(Presets()))
	}
	f, diags := hclsyntax.ParseConfig(src, presetFileName(name), hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type != "preset" {
			continue
		}
		attr, ok := b.Body.Attributes["params"]
		if !ok {
			return map[string]cty.Value{}, nil
		}
		v, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return nil, diags
		}
		params, problem := asParams("params", v)
		if problem != nil {
			return nil, fmt.Errorf("%s: params: %s", presetFileName(name), problem.Detail)
		}
		return params, nil
	}
	return nil, fmt.Errorf("%s has no preset block", presetFileName(name))
}

// ParamKind names the kind of a parameter's value ("a string", "a list of
// strings", …), as the loader's messages do.
func ParamKind(v cty.Value) string { return paramKind(v) }
