package manifests

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Parameters are named values a preset declares with defaults and a
// manifest sets, so a preset's commands can follow what one repository
// needs (its CMake options, the program that runs its suite) without the
// manifest copying the preset's scripts. Commands see them as param.NAME.
//
// `params = { NAME = VALUE, ... }` may be written in a preset, in a preset's
// platform block, in a repository and in a repository's platform block. The
// value a platform's commands see is laid key by key in that order, so a
// repository's value wins over every preset default and a repository's
// platform value over the repository's. A preset's names are the only ones
// its repositories may set, and a value must have the kind of the preset's
// default (string, number, bool, or list of strings).

// paramLayer is one written `params` attribute.
type paramLayer struct {
	*setting[map[string]cty.Value]
	// fromPreset marks a preset's layer: its names are the declared ones.
	fromPreset bool
}

// asParams accepts an object or map whose values are strings, numbers,
// bools or lists of strings. Lists become cty lists of strings, so a
// command can pass one to concat() whatever its literal spelling.
func asParams(name string, value cty.Value) (map[string]cty.Value, *valueError) {
	ty := value.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return nil, invalidValue("%s must be an object of NAME = VALUE, as in { cmake_options = [\"-DBUILD_TESTING=ON\"] }; not %s.", name, typeName(value))
	}
	out := make(map[string]cty.Value)
	for it := value.ElementIterator(); it.Next(); {
		k, v := it.Element()
		key := k.AsString()
		at := cty.Path{cty.IndexStep{Key: k}}
		if !blockName.MatchString(key) {
			return nil, &valueError{Path: at, Detail: fmt.Sprintf("%q cannot name a parameter: use letters, digits, '.', '_' and '-', starting with a letter or digit.", key)}
		}
		normal, problem := paramValue(key, v)
		if problem != nil {
			problem.Path = append(at, problem.Path...)
			return nil, problem
		}
		out[key] = normal
	}
	return out, nil
}

func paramValue(key string, v cty.Value) (cty.Value, *valueError) {
	if v.IsNull() {
		return cty.NilVal, invalidValue("parameter %s must not be null.", key)
	}
	switch ty := v.Type(); {
	case ty == cty.String || ty == cty.Number || ty == cty.Bool:
		return v, nil
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		list, problem := asStringList("parameter "+key, v)
		if problem != nil {
			return cty.NilVal, problem
		}
		return stringListValue(list), nil
	}
	return cty.NilVal, invalidValue("parameter %s must be a string, a number, a bool or a list of strings; not %s.", key, typeName(v))
}

func stringListValue(list []string) cty.Value {
	if len(list) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	values := make([]cty.Value, len(list))
	for i, s := range list {
		values[i] = cty.StringVal(s)
	}
	return cty.ListVal(values)
}

// paramKind names the kinds a parameter's value can have.
func paramKind(v cty.Value) string {
	switch ty := v.Type(); {
	case ty == cty.String:
		return "a string"
	case ty == cty.Number:
		return "a number"
	case ty == cty.Bool:
		return "a bool"
	}
	return "a list of strings"
}

// markPresetParams marks every params layer of a preset's settings.
func markPresetParams(s *settings) {
	for _, l := range s.Params {
		l.fromPreset = true
	}
	for _, p := range s.Platforms {
		for _, l := range p.Params {
			l.fromPreset = true
		}
	}
}

// resolvedParams is the object param for one platform's commands: the
// layers in precedence order (see the top of this file). It reports names
// the preset does not declare and values of the wrong kind, each at the key
// that wrote it; Broken layers make the result unknown.
func (r *resolver) resolvedParams(prefix string, repo, platform []*paramLayer, hasPreset bool) (cty.Value, bool) {
	var ordered []*paramLayer
	for _, fromPreset := range []bool{true, false} {
		for _, layers := range [][]*paramLayer{repo, platform} {
			for _, l := range layers {
				if l.fromPreset == fromPreset {
					ordered = append(ordered, l)
				}
			}
		}
	}
	declared := make(map[string]cty.Value)
	for _, l := range ordered {
		if l.fromPreset && !l.Broken {
			for k, v := range l.Value {
				if _, ok := declared[k]; !ok {
					declared[k] = v
				}
			}
		}
	}
	names := make([]string, 0, len(declared))
	for k := range declared {
		names = append(names, k)
	}
	sort.Strings(names)

	values := make(map[string]cty.Value)
	ok := true
	for _, l := range ordered {
		if l.Broken {
			r.broken = true
			ok = false
			continue
		}
		for _, k := range sortedParamKeys(l.Value) {
			v := l.Value[k]
			at := rangeOfPath(l.Expr, cty.Path{cty.IndexStep{Key: cty.StringVal(k)}})
			if !l.fromPreset && hasPreset {
				def, known := declared[k]
				if !known {
					r.failOnce(errorAt(at, "Unknown parameter", fmt.Sprintf("The preset has no parameter %q; it has %s.%s",
						k, paramNames(names), didYouMean(k, names))))
					ok = false
					continue
				}
				if paramKind(def) != paramKind(v) {
					r.failOnce(errorAt(at, "Invalid parameter", fmt.Sprintf("Parameter %s must be %s, like the preset's default; not %s.",
						k, paramKind(def), paramKind(v))))
					ok = false
					continue
				}
			}
			values[k] = v
			r.repo.Ranges[prefix+"params."+k] = at
		}
	}
	if !ok {
		return cty.DynamicVal, false
	}
	return cty.ObjectVal(values), true
}

func paramNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return quotedList(names)
}

func sortedParamKeys(m map[string]cty.Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decodeParams decodes a block's params attribute into a one-layer list.
func decodeParams(attr *hcl.Attribute, ctx *hcl.EvalContext) ([]*paramLayer, hcl.Diagnostics) {
	s, diags := decodeAttr(attr, ctx, asParams)
	if s == nil {
		return nil, diags
	}
	return []*paramLayer{{setting: s}}, diags
}
