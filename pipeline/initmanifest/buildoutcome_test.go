package initmanifest

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestBuildOutcome(t *testing.T) {
	const cmd = "$ bash -eo pipefail -c cmake ...\nmore script\n"
	tests := []struct {
		name, log   string
		wantOutcome string
		wantTail    []string
	}{
		{"failed", cmd + "-- Configuring\nCMake Error at CMakeLists.txt:3 (add_library):\n  no sources\n[osbench: build exit 1, timed out false, 2s]\n[osbench: build command failed: exit 1, timed out false]\n",
			"the build failed (exit 1)", []string{"-- Configuring", "CMake Error at CMakeLists.txt:3 (add_library):", "  no sources"}},
		{"timed out", cmd + "[ 40%] Building C object src/a.c.o\n[osbench: build exit -1, timed out true, 30m0s]\n[osbench: infrastructure failure (compile phase timed out): the build command ran past its budget of 30m0s]\n",
			"the build timed out", []string{"[ 40%] Building C object src/a.c.o"}},
		{"built, no tests", cmd + "[100%] Built target x\n[osbench: build exit 0, timed out false, 3s]\n$ bash ...\nNo tests were found!!!\n",
			"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outcome, tail := buildOutcome([]byte(tt.log), strings.TrimSuffix(cmd, "\n"))
			if outcome != tt.wantOutcome || !reflect.DeepEqual(tail, tt.wantTail) {
				t.Errorf("buildOutcome = %q, %q; want %q, %q", outcome, tail, tt.wantOutcome, tt.wantTail)
			}
		})
	}
}

// TestSummarySaysWhyNoTests: a run with no test says whether its build
// failed, timed out (with the build's last lines) or built a suite with no
// tests, and the verdict says the build failed, not "not worth a manifest".
func TestSummarySaysWhyNoTests(t *testing.T) {
	tests := []struct {
		name  string
		runs  []RunSummary
		want  []string
		never string
		// looked: the runs' steps passed, so there are directions (a runner
		// that reports no test without failing); otherwise ctest's
		// --no-tests=error failed them and init read their logs.
		looked bool
	}{
		{"the build failed", []RunSummary{
			{Platform: "linux", Build: "the build failed (exit 1)", Tail: []string{"CMake Error at CMakeLists.txt:3"}},
			{Platform: "windows", Tests: 2, Statuses: map[string]int{"pass": 2}},
		}, []string{"linux    0 tests: the build failed (exit 1); its last lines:", "| CMake Error at CMakeLists.txt:3", "no manifest: the build failed (exit 1) on linux"}, "not worth a manifest", false},
		{"the build timed out", []RunSummary{
			{Platform: "linux", Build: "the build timed out", Tail: []string{"[ 40%] Building C object"}},
		}, []string{"0 tests: the build timed out; its last lines:", "no manifest: the build timed out on linux"}, "not worth a manifest", false},
		{"no tests", []RunSummary{{Platform: "linux"}, {Platform: "windows"}},
			[]string{"linux    0 tests: none — it built, and the suite reported no test (none for this platform, or switched off: see the preset's params)", "not worth a manifest"}, "the build failed", true},
		{"no tests, the steps failed", []RunSummary{{Platform: "linux"}, {Platform: "windows"}},
			[]string{"no manifest: it built, and the suite reported no test on linux and windows; nothing written (tests switched off? its CMake options for tests: X_BUILD_TESTS, X_TESTS; e.g. --param cmake_options=-DX_BUILD_TESTS=ON"}, "not worth a manifest", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			res := &Result{Name: "demo", Preset: "c-cmake", First: tt.runs, TestSwitches: []string{"X_BUILD_TESTS", "X_TESTS"}}
			if tt.looked {
				res.Directions = []Direction{{Direction: "linux->windows"}, {Direction: "windows->linux"}}
			}
			res.WriteSummary(&b)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("summary lacks %q:\n%s", w, b.String())
				}
			}
			if strings.Contains(b.String(), tt.never) {
				t.Errorf("summary says %q:\n%s", tt.never, b.String())
			}
		})
	}
}
