package manifests

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// The plugin names the tests pretend are registered.
var (
	testParsers         = []string{"go-test-json", "libtest", "junit", "ctest", "trx", "tap", "regex"}
	testExecutors       = []string{"local", "wine", "temporal"}
	testCoverageFormats = []string{"go-coverprofile", "lcov", "gcov", "cobertura", "llvm-json"}
	testVerifiers       = []string{"rules", "lm"}
	testMaskers         = []string{"rules", "lm"}
)

// testEnv is the environment env() sees in tests.
var testEnv = map[string]string{"OSBENCH_TEST_TOOLCHAIN": "go1.25.5"}

func testOptions() LoadOptions {
	member := func(names []string) func(string) bool {
		return func(name string) bool { return slices.Contains(names, name) }
	}
	return LoadOptions{
		Known: Known{
			Parsers:             member(testParsers),
			Executors:           member(testExecutors),
			CoverageFormats:     member(testCoverageFormats),
			SkipStyles:          member(skipStyles),
			ParserNames:         testParsers,
			ExecutorNames:       testExecutors,
			CoverageFormatNames: testCoverageFormats,
			Verifiers:           member(testVerifiers),
			VerifierNames:       testVerifiers,
			Maskers:             member(testMaskers),
			MaskerNames:         testMaskers,
		},
		LookupEnv: func(name string) (string, bool) {
			v, ok := testEnv[name]
			return v, ok
		},
	}
}

// writeFiles writes name → content into a fresh directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// loadSource loads one manifest held in a string.
func loadSource(t *testing.T, src string) (*Set, hcl.Diagnostics) {
	t.Helper()
	dir := writeFiles(t, map[string]string{"manifest.hcl": src})
	return Load([]string{filepath.Join(dir, "manifest.hcl")}, testOptions())
}
