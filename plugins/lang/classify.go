package lang

import (
	"path"
	"strings"
)

// testDirs are directory names whose whole content is test code or test data.
var testDirs = map[string]bool{
	"test":      true,
	"tests":     true,
	"testdata":  true,
	"__tests__": true,
}

// IsTestFile reports whether the repo-relative, "/"-separated path names a
// test file or lies under a test directory. Such files are never migration
// targets: the benchmark keeps every test untouched, so their coverage is
// not differential coverage of the code under migration, no mask touches
// them, and a patch's changes to them are set aside at evaluation.
//
// Recognised: a directory named test, tests, testdata or __tests__ (any
// depth), a C# test project directory (Foo.Tests, Foo.Test), and a file
// whose language's IsTestName says so (Go's _test.go files; C, C++ and
// Rust files whose base name ends in _test or _tests; C# files whose base
// name ends in Tests or Test). A file of no registered language is a test
// file only by its directory.
func (r *Registry) IsTestFile(p string) bool {
	dir, file := path.Split(p)
	for _, d := range strings.Split(strings.Trim(dir, "/"), "/") {
		if testDirs[strings.ToLower(d)] || strings.HasSuffix(d, ".Tests") || strings.HasSuffix(d, ".Test") {
			return true
		}
	}
	if l, ok := r.Lookup(r.Of(file)); ok && l.IsTestName != nil {
		return l.IsTestName(file)
	}
	return false
}

// IsTestFile reports whether p is a test file by Default's languages.
func IsTestFile(p string) bool { return Default.IsTestFile(p) }

// StemHasSuffix reports whether the base name without its extension ends
// in one of the suffixes: the test-name rule of most languages.
func StemHasSuffix(base string, suffixes ...string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, s := range suffixes {
		if strings.HasSuffix(stem, s) {
			return true
		}
	}
	return false
}
