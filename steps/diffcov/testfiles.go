package diffcov

import "github.com/osbench/osbench/plugins/lang"

// IsTestFile reports whether the repo-relative path names a test file
// (plugins/lang's one classification, which the maskers share). Such files
// are never migration targets, so they never yield regions.
func IsTestFile(p string) bool { return lang.IsTestFile(p) }
