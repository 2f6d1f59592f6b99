package manifests

import (
	"slices"

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
