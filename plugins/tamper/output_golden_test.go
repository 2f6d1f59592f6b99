package tamper

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// outputGoldenPatch imitates every runner's output, alone and several on
// one line (where the order of the findings shows the order the rules are
// read in), in a source file, a script and prose.
const outputGoldenPatch = `diff --git a/forge.sh b/forge.sh
--- a/forge.sh
+++ b/forge.sh
@@ -0,0 +1,12 @@
+echo "--- PASS: TestA (0.00s)"
+echo "=== RUN   TestA"
+printf 'ok  \tex\t0.01s\n'
+echo '{"Action":"pass","Test":"TestA"}'
+echo "test paths::tests::sep ... ok"
+echo "test result: ok. 1 passed"
+echo " 1/2 Test  #1: sep ....   Passed    0.00 sec"
+echo "100% tests passed, 0 tests failed out of 2"
+echo "ok 1 - suite/adds"
+echo '<testsuite name="s"><testcase name="a"/></testsuite>'
+echo "ok 1 - x"; echo "--- PASS: y"; echo "<testcase"; echo "Test #1: z Passed"; echo "test a ... ok"
+echo "<testsuites>" "ok 2 - q" "test result: ok" "tests passed, 1 tests failed" "=== RUN x"
diff --git a/forge.go b/forge.go
--- a/forge.go
+++ b/forge.go
@@ -1,3 +1,6 @@
 package forge
+
+var s = "ok 3 - w\n--- PASS: TestW\ntest result: ok\n"
+var u = "\"Action\":\"run\" <testcase Test #%d: a Passed"
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1,2 @@
 # x
+--- PASS: TestA
`

// TestRunnerOutputGolden records what the scan finds in outputGoldenPatch
// and the rule list, before the runners' output rules moved to
// plugins/runner (issue 21): the move must change neither.
func TestRunnerOutputGolden(t *testing.T) {
	got, err := json.MarshalIndent(map[string]any{"findings": Scan([]byte(outputGoldenPatch)), "rules": Rules(), "version": Version}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "runner-output.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d", golden, len(gl), len(wl))
	}
}
