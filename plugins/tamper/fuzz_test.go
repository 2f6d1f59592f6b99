package tamper

import (
	"strings"
	"testing"
)

// FuzzScan: whatever the patch, the scan returns, and every finding points
// at a line of the patch with a known rule.
func FuzzScan(f *testing.F) {
	f.Add(goForge)
	f.Add(rustForge)
	f.Add("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@\n func init() {\n+\tos.Exit(0)\n }\n")
	f.Add("--- a/CMakeLists.txt\n+++ b/CMakeLists.txt\n@@ -1 +1 @@\n-add_test(NAME a COMMAND a)\n+add_test(NAME a COMMAND true)\n")
	f.Add("diff --git a/x b/x\n@@ -0,0 +1,99999 @@\n+}\n+var _ = func() {\n+}()\n")
	f.Add("diff --git \"a/q\\\"x.c\" \"b/q\\\"x.c\"\nGIT binary patch\n@@ -1 +1 @@\n+__attribute__((constructor)) void f(void);\n+void f(void) { _exit(0); }\n")
	known := map[string]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, patch string) {
		lines := strings.Count(strings.TrimSuffix(patch, "\n"), "\n") + 1
		for _, fd := range Scan([]byte(patch)) {
			if fd.PatchLine < 1 || fd.PatchLine > lines || !known[fd.Rule] || fd.Reason == "" {
				t.Fatalf("bad finding %+v for a patch of %d lines", fd, lines)
			}
		}
	})
}
