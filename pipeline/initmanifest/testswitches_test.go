package initmanifest

import (
	"reflect"
	"testing"

	"github.com/osbench/osbench/engine/cache"
)

func TestTestSwitches(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt":            "project(x)\noption(BUILD_GMOCK \"gmock\" ON)\n  option( X_BUILD_TESTS \"tests\" OFF)\n# option(COMMENTED_TESTS)\n",
		"googletest/CMakeLists.txt": "option(gtest_build_tests \"Build all of gtest's own tests.\" OFF)\noption(gtest_build_samples \"samples\" OFF)\n",
		"cmake/Options.cmake":       "OPTION(UNIT_TESTING \"tests\" OFF)\noption(X_BUILD_TESTS \"again\" OFF)\n",
		"a/b/c/CMakeLists.txt":      "option(TOO_DEEP_TESTS \"\" OFF)\n",
		"src/tests.c":               "option(NOT_CMAKE_TESTS)\n",
		"test/CMakeLists.txt":       "add_test(NAME t COMMAND t)\n",
	}
	tree := &cache.Tree{}
	for p := range files {
		tree.Entries = append(tree.Entries, cache.TreeEntry{Path: p})
	}
	got := TestSwitches(tree, func(p string) []byte { return []byte(files[p]) })
	want := []string{"UNIT_TESTING", "X_BUILD_TESTS", "gtest_build_tests"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TestSwitches = %q, want %q", got, want)
	}
}
