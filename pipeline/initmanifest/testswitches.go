package initmanifest

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// cmakeOption is a CMake option() declaration, and testWord a name that
// speaks of tests: BUILD_TESTING, gtest_build_tests, CARES_BUILD_TESTS,
// NNG_TESTS, UNIT_TESTING (not gtest_build_samples, whose "test" is gtest's).
var (
	cmakeOption = regexp.MustCompile(`(?im)^[ \t]*option[ \t]*\([ \t]*([A-Za-z0-9_]+)`)
	testWord    = regexp.MustCompile(`(?i)(^|_)(tests?|testing)(_|$)`)
)

// maxSwitches bounds how many switches init names.
const maxSwitches = 6

// TestSwitches names the CMake options of a tree that switch tests on or
// off, read from its CMakeLists.txt and *.cmake files two directories deep
// at most (googletest declares gtest_build_tests in googletest/), so that
// "the suite reported no test" comes with the switches to try (issue 22:
// c-ares, googletest and nng build no tests under the preset's defaults).
// read gives a file's bytes.
func TestSwitches(tree *cache.Tree, read func(string) []byte) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range tree.Entries {
		base := path.Base(e.Path)
		if strings.Count(e.Path, "/") > 2 || (base != "CMakeLists.txt" && !strings.HasSuffix(base, ".cmake")) {
			continue
		}
		for _, m := range cmakeOption.FindAllSubmatch(read(e.Path), -1) {
			if name := string(m[1]); testWord.MatchString(name) && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	if len(out) > maxSwitches {
		out = out[:maxSwitches]
	}
	return out
}
