package ctest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// workToken stands in for the step's: the fixture's repository is /w/repo.
func workToken(b []byte) []byte {
	return []byte(strings.ReplaceAll(string(b), "/w/repo", schemas.WorkToken))
}

func TestCTestEvidence(t *testing.T) {
	listing := `{"kind":"ctestInfo","version":{"major":1,"minor":0},"backtraceGraph":{},"tests":[
	 {"name":"sep","command":["/w/repo/_osbench_build/cpath_tests","sep"],"backtrace":1,"properties":[{"name":"WORKING_DIRECTORY","value":"/w/repo/_osbench_build"}]},
	 {"name":"abs","command":["/w/repo/_osbench_build/cpath_tests.exe","abs"],"backtrace":2},
	 {"name":"script","command":["/bin/true"],"backtrace":3}]}`
	defs, err := ctestDefinitions([]byte(listing), workToken)
	if err != nil {
		t.Fatal(err)
	}
	if sep := defs.Tests[2]; sep.Name != "sep" || sep.Command[0] != "$WORK/_osbench_build/cpath_tests" || sep.Properties["WORKING_DIRECTORY"] != "$WORK/_osbench_build" {
		t.Fatalf("definitions = %+v", defs.Tests)
	}
	moved, _ := ctestDefinitions([]byte(strings.ReplaceAll(listing, `"backtrace":1`, `"backtrace":7`)), workToken)
	if moved.Digest != defs.Digest {
		t.Errorf("an add_test moved in the file changed the digest")
	}
	changed, _ := ctestDefinitions([]byte(strings.Replace(listing, `cpath_tests","sep"`, `cpath_tests","abs"`, 1)), workToken)
	if changed.Digest == defs.Digest {
		t.Errorf("a test running another command kept the digest")
	}
	gcov := func(mainCount int) []byte {
		return []byte(`{"data_file":"_osbench_build/CMakeFiles/cpath_tests.dir/tests/main.c.gcda","files":[{"functions":[{"name":"main","execution_count":` + strconv.Itoa(mainCount) + `}]}]}
{"data_file":"_osbench_build/CMakeFiles/cpath.dir/src/a.c.gcda","files":[{"functions":[{"name":"f","execution_count":5}]}]}
`)
	}
	results := func() []schemas.TestResult {
		return []schemas.TestResult{{ID: "abs", Status: "pass"}, {ID: "script", Status: "pass"}, {ID: "sep", Status: "pass"}}
	}
	for _, tt := range []struct {
		main int
		want []string
	}{{2, []string{"ran", "", "ran"}}, {1, []string{"", "", ""}}, {0, []string{"", "", ""}}} {
		got := cEvidence(results(), defs, gcov(tt.main))
		for i, r := range got {
			if r.Evidence != tt.want[i] || r.Status != schemas.StatusPass {
				t.Errorf("main entered %d times: %s = %+v, want evidence %q", tt.main, r.ID, r, tt.want[i])
			}
		}
	}
}
