package initmanifest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/osbench/osbench/manifests"
)

// ParamArgs are init's --param KEY=VALUE arguments and --runner, as given;
// they are checked against the preset's parameters once the tree has said
// which preset it is (For).
type ParamArgs struct {
	Params []string // "KEY=VALUE", in order
	Runner string   // --runner: the runner parameter, "" to leave the preset's
}

// For turns the arguments into the manifest's params for preset: each
// KEY must be a parameter the preset declares (the message names those it
// has), and VALUE is read as the kind of its default — a string as is, a
// number, true or false, and for a list either an HCL list (["-DA=ON",
// "-DB=ON"], [] for none) or one element per --param, repeated in order
// (--param cmake_options=-DA=ON --param cmake_options=-DB=ON), since CMake
// options carry '=' and ',' of their own.
func (a ParamArgs) For(preset string) (map[string]cty.Value, error) {
	if len(a.Params) == 0 && a.Runner == "" {
		return nil, nil
	}
	declared, err := manifests.PresetParams(preset)
	if err != nil {
		return nil, err
	}
	args := a.Params
	if a.Runner != "" {
		if _, ok := declared["runner"]; !ok {
			return nil, fmt.Errorf("--runner %s: the %s preset has no runner parameter (it has %s)", a.Runner, preset, names(declared))
		}
		args = append(append([]string(nil), args...), "runner="+a.Runner)
	}
	out := map[string]cty.Value{}
	lists := map[string][]cty.Value{}
	for _, arg := range args {
		key, value, ok := strings.Cut(arg, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("--param %q: want KEY=VALUE, KEY one of the %s preset's parameters: %s", arg, preset, names(declared))
		}
		def, ok := declared[key]
		if !ok {
			return nil, fmt.Errorf("--param %s: the %s preset has no parameter %q; it has %s", arg, preset, key, names(declared))
		}
		v, err := paramValue(def, value)
		if err != nil {
			return nil, fmt.Errorf("--param %s: %s must be %s like the %s preset's default: %v", arg, key, manifests.ParamKind(def), preset, err)
		}
		if !def.Type().IsListType() {
			out[key] = v
			continue
		}
		if v.Type().IsListType() {
			lists[key] = append(lists[key], v.AsValueSlice()...)
		} else {
			lists[key] = append(lists[key], v)
		}
		out[key] = cty.ListValEmpty(cty.String)
	}
	for key, elems := range lists {
		if len(elems) > 0 {
			out[key] = cty.ListVal(elems)
		}
	}
	if r, ok := out["runner"]; ok {
		if err := checkRunner(preset, r.AsString(), out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// paramValue reads value as the kind of def. A list parameter's value is
// one element, or an HCL list of strings (its elements, possibly none).
func paramValue(def cty.Value, value string) (cty.Value, error) {
	switch ty := def.Type(); {
	case ty == cty.String:
		return cty.StringVal(value), nil
	case ty == cty.Number:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%q is not a whole number", value)
		}
		return cty.NumberIntVal(n), nil
	case ty == cty.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%q is not true or false", value)
		}
		return cty.BoolVal(b), nil
	}
	if !strings.HasPrefix(strings.TrimSpace(value), "[") {
		return cty.StringVal(value), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(value), "--param", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%q is not an HCL list: %s", value, diags[0].Detail)
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%q is not a list of literal strings: %s", value, diags[0].Detail)
	}
	if v.LengthInt() == 0 {
		return cty.ListValEmpty(cty.String), nil
	}
	list, err := convert.Convert(v, cty.List(cty.String))
	if err != nil {
		return cty.NilVal, fmt.Errorf("%q is not a list of strings: %v", value, err)
	}
	return list, nil
}

// runners are the runner values of the presets that have one, and the
// parameters a runner cannot do without (its programs).
var runners = map[string]map[string][]string{
	"c-cmake": {"ctest": nil, "gtest": {"programs"}, "each": {"programs"}},
}

// checkRunner refuses a runner the preset does not know, or one whose
// required parameters are missing, before anything is built: the preset
// would otherwise fail in the test step, once per platform.
func checkRunner(preset, runner string, params map[string]cty.Value) error {
	known, ok := runners[preset]
	if !ok {
		return nil
	}
	needs, ok := known[runner]
	if !ok {
		var names []string
		for r := range known {
			names = append(names, r)
		}
		sort.Strings(names)
		return fmt.Errorf("runner %q: the %s preset's runners are %s", runner, preset, strings.Join(names, ", "))
	}
	for _, p := range needs {
		if v, ok := params[p]; !ok || v.LengthInt() == 0 {
			return fmt.Errorf("runner %q needs the %s parameter: --param %s=PATH (relative to the build directory), once per test program", runner, p, p)
		}
	}
	return nil
}

func names(params map[string]cty.Value) string {
	out := make([]string, 0, len(params))
	for k := range params {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
