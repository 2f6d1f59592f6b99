package diffcov

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
// not differential coverage of the code under migration.
//
// Recognised: a directory named test, tests, testdata or __tests__ (any
// depth), a C# test project directory (Foo.Tests, Foo.Test), Go's _test.go
// files, C, C++ and Rust files whose base name ends in _test or _tests, and
// C# files whose base name ends in Tests or Test (Pascal case, so
// "Contest.cs" is not one).
func IsTestFile(p string) bool {
	dir, file := path.Split(p)
	for _, d := range strings.Split(strings.Trim(dir, "/"), "/") {
		if testDirs[strings.ToLower(d)] || strings.HasSuffix(d, ".Tests") || strings.HasSuffix(d, ".Test") {
			return true
		}
	}
	ext := path.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	switch languageOf(file) {
	case langGo:
		return strings.HasSuffix(stem, "_test")
	case langC, langRust:
		return strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests")
	case langCSharp:
		return strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "Test")
	}
	return false
}
