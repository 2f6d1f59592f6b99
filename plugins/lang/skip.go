package lang

import (
	"regexp"
	"sort"
	"strings"
)

// SkipStyle is how one test runner is told to leave tests out: the
// manifests' skip_style. A skip entry is a test name or a glob ('*' any
// run of characters, '?' one), matching whole names.
type SkipStyle struct {
	Name string // "go", "libtest", "ctest", "gtest"
	// Args spells entries as the runner's flags (entries is never empty).
	Args func(entries []string) []string
	// EntryProblem says why the runner cannot take an entry, or "".
	EntryProblem func(entry string) string
	// EntryFor is the entry that leaves out the test with a result ID ("" when
	// none can), for `osbench init`'s skip lists. nil: the ID's last element
	// (what osbench's runners match).
	EntryFor func(id string) string
	// SubtestEntryFor is the entry that leaves out one subtest alone
	// (TestX/case for the ID package/TestX/case), for runners that can;
	// "" when the ID names no subtest or the runner cannot spell it. nil:
	// the runner leaves out whole tests only.
	SubtestEntryFor func(id string) string
}

// SkipStyle returns the style named name among the languages of r.
func (r *Registry) SkipStyle(name string) (SkipStyle, bool) {
	for _, n := range r.Names() {
		if l, ok := r.Lookup(n); ok {
			for _, s := range l.SkipStyles {
				if s.Name == name {
					return s, true
				}
			}
		}
	}
	return SkipStyle{}, false
}

// SkipStyleNames lists the skip styles of r's languages, sorted, each once.
func (r *Registry) SkipStyleNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, n := range r.Names() {
		if l, ok := r.Lookup(n); ok {
			for _, s := range l.SkipStyles {
				if !seen[s.Name] {
					seen[s.Name] = true
					names = append(names, s.Name)
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// SkipArgs spells a skip list in a style of Default: the runner's own
// flags; an empty list, or an unknown style, gives no flags.
func SkipArgs(style string, entries []string) []string {
	s, ok := Default.SkipStyle(style)
	if len(entries) == 0 || !ok {
		return []string{}
	}
	return s.Args(entries)
}

// SkipEntryProblem says why a style of Default cannot take an entry, or "".
func SkipEntryProblem(style, entry string) string {
	if s, ok := Default.SkipStyle(style); ok && s.EntryProblem != nil {
		return s.EntryProblem(entry)
	}
	return ""
}

// SkipEntryFor is the skip entry of a test ID in a style of Default.
func SkipEntryFor(style, id string) string {
	if s, ok := Default.SkipStyle(style); ok && s.EntryFor != nil {
		return s.EntryFor(id)
	}
	return id[strings.LastIndexByte(id, '/')+1:]
}

// SkipSubtestEntryFor is the entry that leaves out the subtest with a
// result ID alone, in a style of Default; "" when the style cannot.
func SkipSubtestEntryFor(style, id string) string {
	if s, ok := Default.SkipStyle(style); ok && s.SubtestEntryFor != nil {
		return s.SubtestEntryFor(id)
	}
	return ""
}

// SkipStyleNames lists Default's skip styles, sorted.
func SkipStyleNames() []string { return Default.SkipStyleNames() }

// IsGlob reports whether a skip entry is a pattern rather than a name.
func IsGlob(entry string) bool { return strings.ContainsAny(entry, "*?") }

// GlobRegexp is the regexp (unanchored) for one skip entry.
func GlobRegexp(entry string) string {
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

// AnchoredAlternation is a regexp matching exactly the given names and
// globs.
func AnchoredAlternation(entries []string) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = GlobRegexp(e)
	}
	return "^(" + strings.Join(parts, "|") + ")$"
}
