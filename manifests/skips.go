package manifests

import (
	"regexp"
	"slices"
	"strings"
)

// A skip entry is a test name or a glob: '*' stands for any run of
// characters and '?' for one, as in ctest's and GoogleTest's own patterns,
// so a curator can leave out a family of generated tests ("valid__*")
// without listing two hundred names. Globs match whole names.

// SkipStyles lists the runners whose skip flags skip_args can spell.
func SkipStyles() []string { return slices.Clone(skipStyles) }

// isGlob reports whether a skip entry is a pattern rather than a name.
func isGlob(entry string) bool { return strings.ContainsAny(entry, "*?") }

// skipArgs spells a skip list as the runner's own flags. style is one of
// skipStyles, or "" when tests is empty.
func skipArgs(style string, tests []string) []string {
	if len(tests) == 0 {
		return []string{}
	}
	switch style {
	case "go":
		return []string{"-skip", goSkipPattern(tests)}
	case "ctest":
		return []string{"-E", anchoredAlternation(tests)}
	case "gtest":
		// A negative filter: every test but those matching a pattern.
		// GoogleTest's patterns are globs already; ':' separates them.
		return []string{"--gtest_filter=-" + strings.Join(tests, ":")}
	case "libtest":
		args := make([]string, 0, 2*len(tests))
		for _, t := range tests {
			args = append(args, "--skip", t)
		}
		return args
	}
	return []string{}
}

// goSkipPattern spells entries for go test's -skip, which splits its
// pattern at unbracketed '|' into alternatives and each alternative at
// unbracketed '/' into one regexp per level (test, subtest, …): so
// "TestA" and "TestB/sub" become ^TestA$|^TestB$/^sub$. One group around
// everything (^(TestA|TestB/sub)$) would never match a subtest, because
// its '/' is bracketed and so stays part of the top-level regexp.
func goSkipPattern(entries []string) string {
	alts := make([]string, len(entries))
	for i, e := range entries {
		levels := strings.Split(e, "/")
		for j, l := range levels {
			levels[j] = "^" + globRegexp(l) + "$"
		}
		alts[i] = strings.Join(levels, "/")
	}
	return strings.Join(alts, "|")
}

// anchoredAlternation is a regexp matching exactly the given names and
// globs.
func anchoredAlternation(entries []string) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = globRegexp(e)
	}
	return "^(" + strings.Join(parts, "|") + ")$"
}

// globRegexp is the regexp (unanchored) for one skip entry.
func globRegexp(entry string) string {
	var b strings.Builder
	for _, part := range strings.SplitAfter(entry, "") {
		switch part {
		case "*":
			b.WriteString(".*")
		case "?":
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	return b.String()
}

// skipGlobProblem says why a skip style cannot take an entry, or "".
// libtest's --skip matches substrings, so it can express neither a whole
// name with a wildcard nor a glob, and GoogleTest reserves ':' for its own
// list.
func skipGlobProblem(style, entry string) string {
	switch {
	case style == "libtest" && isGlob(entry):
		return "libtest's --skip takes substrings, not globs; list the tests, or a substring shared by exactly those tests."
	case style == "gtest" && strings.Contains(entry, ":"):
		return "a GoogleTest filter separates its patterns with ':', so a skip entry cannot contain one."
	}
	return ""
}
