package manifests

import (
	"fmt"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages' skip styles
)

// A skip entry is a test name or a glob: '*' stands for any run of
// characters and '?' for one, as in ctest's and GoogleTest's own patterns,
// so a curator can leave out a family of generated tests ("valid__*")
// without listing two hundred names. Globs match whole names.

// The styles themselves, how each spells a skip list and which entries it
// cannot take, are their languages' (plugins/lang/<name>, SkipStyles).

// SkipStyles lists the runners whose skip flags skip_args can spell.
func SkipStyles() []string { return slices.Clone(skipStyles) }

// skipArgs spells a skip list as the runner's own flags. style is one of
// skipStyles, or "" when tests is empty.
func skipArgs(style string, tests []string) []string { return lang.SkipArgs(style, tests) }

// anchoredAlternation is a regexp matching exactly the given names and
// globs.
func anchoredAlternation(entries []string) string { return lang.AnchoredAlternation(entries) }

// skipGlobProblem says why a skip style cannot take an entry, or "".
func skipGlobProblem(style, entry string) string { return lang.SkipEntryProblem(style, entry) }

// skip_under holds, per executor, tests left out only when the platform
// runs with that executor: what Wine 8 cannot do (symlinks, read-only
// directories, os.SameFile on ReadDir entries, known folders, a live parent
// process) is no reason to leave a test out on a real Windows machine,
// where the same platform runs with "local". The effective list of a
// platform is its skip followed by skip_under's entries for its executor
// (after --executor), so one manifest serves Wine and real Windows alike,
// and the two run keys apart.

// asSkipUnder accepts a map from executor name to a skip list. A nil
// isKnown accepts every executor name.
func asSkipUnder(isKnown func(string) bool, names []string) converter[map[string][]string] {
	return func(name string, value cty.Value) (map[string][]string, *valueError) {
		ty := value.Type()
		if !ty.IsMapType() && !ty.IsObjectType() {
			return nil, invalidValue(`%s must be a map from executor to tests, as in %s = { wine = ["TestSymlink"] }, not %s.`, name, name, typeName(value))
		}
		out := make(map[string][]string, value.LengthInt())
		for element := value.ElementIterator(); element.Next(); {
			k, v := element.Element()
			executor := k.AsString()
			at := cty.IndexPath(k)
			if isKnown != nil && !isKnown(executor) {
				detail := fmt.Sprintf("%s's keys are executors; no executor named %q is registered.%s", name, executor, didYouMean(executor, names))
				if len(names) > 0 {
					detail += fmt.Sprintf(" Registered executors: %s.", quotedList(names))
				}
				return nil, &valueError{Summary: "Unknown executor", Detail: detail, Path: at, AtKey: true}
			}
			if v.IsNull() {
				return nil, &valueError{Detail: fmt.Sprintf("%s.%s must be a list of tests, not null.", name, executor), Path: at}
			}
			list, problem := asSkipList(name+"."+executor, v)
			if problem != nil {
				problem.Path = append(at.Copy(), problem.Path...)
				return nil, problem
			}
			out[executor] = list
		}
		return out, nil
	}
}

// effectiveSkips is what a platform run with executor leaves out: skip,
// then skip_under[executor] without the entries skip already has.
func effectiveSkips(skip []string, under map[string][]string, executor string) []string {
	extra := under[executor]
	if len(extra) == 0 {
		return skip
	}
	out := slices.Clone(skip)
	for _, test := range extra {
		if !slices.Contains(out, test) {
			out = append(out, test)
		}
	}
	return out
}
