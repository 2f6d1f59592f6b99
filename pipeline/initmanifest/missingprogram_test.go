package initmanifest

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestMissingPrograms reads the programs a runner could not start from
// test-step logs as the c-cmake preset writes them (c-ares 1.18.1 with
// programs=test/arestest, where its build puts bin/arestest).
func TestMissingPrograms(t *testing.T) {
	tests := []struct {
		name, log string
		want      []string
	}{
		{"gtest runner", "[osbench: build exit 0, timed out false, 11m]\n$ bash ... gtest _osbench_report.xml test/arestest\ntimeout: failed to run command './test/arestest': No such file or directory\n[osbench: exit 127, timed out false, 372ms]\n",
			[]string{"test/arestest"}},
		{"each runner, absolute path, twice", "c-cmake preset: uv_run_tests runs in $WORK/_osbench_build\ntimeout: failed to run command '$WORK/_osbench_build/uv_run_tests': No such file or directory\nc-cmake preset: listing the tests of uv_run_tests failed\n" +
			"timeout: failed to run command '$WORK/_osbench_build/uv_run_tests': No such file or directory\ntimeout: failed to run command '$WORK/_osbench_build/a/b': No such file or directory\n",
			[]string{"a/b", "uv_run_tests"}},
		{"a test's own missing file is not a program", "open fixtures/x.txt: No such file or directory\nNo tests were found!!!\n", nil},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := missingPrograms([]byte(tt.log)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("missingPrograms = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSummarySaysProgramMissing: a build that passed and a runner that
// could not start its programs is said as that, with the paths, never as
// tests switched off (the CMake option the curator had already passed).
func TestSummarySaysProgramMissing(t *testing.T) {
	var b bytes.Buffer
	res := &Result{Name: "c-ares", Preset: "c-cmake", TestSwitches: []string{"CARES_BUILD_TESTS"}, First: []RunSummary{
		{Platform: "linux", MissingPrograms: []string{"test/arestest"}},
		{Platform: "windows", MissingPrograms: []string{"test/arestest"}},
	}}
	res.WriteSummary(&b)
	out := b.String()
	for _, w := range []string{
		"linux    0 tests: it built, but no test program ran: not found: test/arestest",
		"no manifest: it built, but the test programs test/arestest are not where the programs parameter says on linux and windows; nothing written (a program's path is relative to the build directory",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
	for _, never := range []string{"switched off", "not worth a manifest", "reported no test"} {
		if strings.Contains(out, never) {
			t.Errorf("summary says %q:\n%s", never, out)
		}
	}
}
