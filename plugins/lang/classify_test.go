package lang_test

import (
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all"
)

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"fsapi.go", false},
		{"fsapi_test.go", true},
		{"config/settings_test.go", true},
		{"testdata/x.go", true},
		{"a/testdata/b/c.go", true},
		{"tests/platform.rs", true},
		{"test/main.c", true},
		{"src/Tests/x.c", true},
		{"src/__tests__/x.cs", true},
		{"src/pathrules.c", false},
		{"src/pathrules_test.c", true},
		{"src/eol_tests.cpp", true},
		{"src/eol.test.cpp", false},
		{"src/paths_test.rs", true},
		{"Lib.Tests/PathTests.cs", true},
		{"Lib/PathTests.cs", true},
		{"Lib/Contest.cs", false},
		{"Lib/Latest.cs", false},
		{"Lib.Test/Any.cs", true},
		{"latest/contest.go", false},
		{"attest.go", false},
		{"a_test.txt", false},
		{"testing/helpers.go", false},
		// Go compiles x_tests.go into the package: not a test file (the
		// masker used to think it was).
		{"paths_tests.go", false},
		{"Foo.Tests/native.c", true},
	}
	for _, tt := range tests {
		if got := lang.IsTestFile(tt.path); got != tt.want {
			t.Errorf("IsTestFile(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
