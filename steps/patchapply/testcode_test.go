package patchapply

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

const (
	crateLib = "pub fn double(x: i32) -> i32 {\n    x * 2\n}\n\n#[cfg(test)]\nmod helpers;\n\n" +
		"#[cfg(test)]\nmod tests {\n    #[test]\n    fn doubles() {\n        assert_eq!(super::double(2), 4);\n    }\n}\n"
	crateHelpers = "pub fn fixture() -> i32 { 2 }\n"
)

// padding is a comment line longer than maxModuleFileSize.
var padding = "// " + strings.Repeat("x", maxModuleFileSize+1)

// TestInSourceTestCodeRestored: a patch that empties a #[cfg(test)] module
// of src/lib.rs, or edits a file declared as a test-only module, has those
// edits undone before anything runs; its other edits stay.
func TestInSourceTestCodeRestored(t *testing.T) {
	cases := []struct {
		name     string
		patch    string
		outcome  string
		reason   string
		code     []string
		restored []string
		lib      string
	}{
		{
			name: "emptied unit test",
			patch: "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n pub fn double(x: i32) -> i32 {\n-    x * 2\n+    x + x\n }\n" +
				"@@ -10,5 +10,4 @@\n     #[test]\n     fn doubles() {\n-        assert_eq!(super::double(2), 4);\n     }\n }\n",
			outcome: schemas.ApplyApplied,
			code:    []string{"src/lib.rs: mod tests"},
			lib:     strings.Replace(crateLib, "x * 2", "x + x", 1),
		},
		{
			name:     "test-only module file",
			patch:    "--- a/src/helpers.rs\n+++ b/src/helpers.rs\n@@ -1 +1 @@\n-pub fn fixture() -> i32 { 2 }\n+pub fn fixture() -> i32 { 3 }\n",
			outcome:  schemas.ApplyApplied,
			restored: []string{"src/helpers.rs"},
			lib:      crateLib,
		},
		{
			// A file padded past any size cap still has its tests put back.
			name: "emptied unit test in a padded file",
			patch: "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,4 @@\n+" + padding + "\n pub fn double(x: i32) -> i32 {\n     x * 2\n }\n" +
				"@@ -10,5 +11,4 @@\n     #[test]\n     fn doubles() {\n-        assert_eq!(super::double(2), 4);\n     }\n }\n",
			outcome: schemas.ApplyApplied,
			code:    []string{"src/lib.rs: mod tests"},
			lib:     padding + "\n" + crateLib,
		},
		{
			name:    "a test function added beside the module",
			patch:   "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -14 +14,3 @@\n }\n+#[test]\n+fn forged() {}\n",
			outcome: schemas.ApplyApplied,
			code:    []string{"src/lib.rs: fn forged() (added by the patch, removed)"},
			lib:     crateLib,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pristine := filepath.Join(dir, "pristine")
			writeEntries(t, pristine, map[string]string{"src/lib.rs": crateLib, "src/helpers.rs": crateHelpers, "Cargo.toml": "[package]\nname = \"c\"\n"})
			res, tree, err := evaluate(context.Background(), []byte(tc.patch), pristine, filepath.Join(dir, "repo"), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.outcome || !strings.Contains(res.Reason, tc.reason) {
				t.Fatalf("outcome %s (%s), want %s (%s)", res.Outcome, res.Reason, tc.outcome, tc.reason)
			}
			if !slices.Equal(res.RestoredTestCode, tc.code) {
				t.Errorf("restored test code %q, want %q", res.RestoredTestCode, tc.code)
			}
			if want := append([]string{}, tc.restored...); !slices.Equal(res.RestoredTestFiles, want) {
				t.Errorf("restored test files %q, want %q", res.RestoredTestFiles, want)
			}
			lib, err := os.ReadFile(filepath.Join(tree, "src/lib.rs"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimRight(string(lib), "\n") != strings.TrimRight(tc.lib, "\n") {
				t.Errorf("src/lib.rs:\n%s\nwant:\n%s", lib, tc.lib)
			}
			if helpers, _ := os.ReadFile(filepath.Join(tree, "src/helpers.rs")); string(helpers) != crateHelpers {
				t.Errorf("src/helpers.rs = %q, want the task's", helpers)
			}
		})
	}
}

// TestExtraTreesRestored: a file of an extra_source tree (not task code) the
// patch edits is put back like a test file.
func TestExtraTreesRestored(t *testing.T) {
	dir := t.TempDir()
	pristine := filepath.Join(dir, "pristine")
	writeEntries(t, pristine, map[string]string{"src/lib.rs": crateLib, "src/helpers.rs": crateHelpers, "third_party/fw/fw.h": "int ok(void);\n"})
	patch := "--- a/third_party/fw/fw.h\n+++ b/third_party/fw/fw.h\n@@ -1 +1 @@\n-int ok(void);\n+#define ok() 1\n"
	res, tree, err := evaluate(context.Background(), []byte(patch), pristine, filepath.Join(dir, "repo"), io.Discard, "third_party/fw")
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != schemas.ApplyApplied || !slices.Equal(res.RestoredTestFiles, []string{"third_party/fw/fw.h"}) {
		t.Fatalf("outcome %s, restored %q", res.Outcome, res.RestoredTestFiles)
	}
	if b, _ := os.ReadFile(filepath.Join(tree, "third_party/fw/fw.h")); string(b) != "int ok(void);\n" {
		t.Errorf("fw.h = %q, want the task's", b)
	}
}
