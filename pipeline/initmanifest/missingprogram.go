package initmanifest

import (
	"regexp"
	"sort"
	"strings"
)

// A suite that reports no test after a good build is not always switched
// off: the gtest and each runners start the programs the curator named
// (--param programs=…, relative to the build directory), and a wrong path
// reads as "no test" too. c-ares 1.18.1 puts arestest under bin/
// (CMAKE_RUNTIME_OUTPUT_DIRECTORY), not test/, and init said "tests
// switched off? its CMake options for tests: CARES_BUILD_TESTS" to a
// curator who had switched them on. The preset starts each program
// through coreutils' timeout, whose message names the path it could not
// run; init reads it back from the test step's log.

// programNotFound is timeout(1)'s message for a program that is not there.
var programNotFound = regexp.MustCompile(`(?m)failed to run command '([^'\n]+)': No such file or directory`)

// buildDirPrefix is where the preset's programs live; what follows it is
// the path a curator writes in programs.
const buildDirPrefix = "_osbench_build/"

// missingPrograms returns the programs a test step's log says could not
// be started, as the programs parameter spells them (relative to the
// build directory), sorted and once each; nil when none.
func missingPrograms(log []byte) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range programNotFound.FindAllSubmatch(log, -1) {
		p := string(m[1])
		if i := strings.LastIndex(p, buildDirPrefix); i >= 0 {
			p = p[i+len(buildDirPrefix):] // the each runner's absolute path
		}
		p = strings.TrimPrefix(p, "./") // the gtest runner's ./PROGRAM
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
