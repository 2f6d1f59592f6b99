package libtest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/entrytrace"
	"github.com/osbench/osbench/schemas"
)

func TestTraceEvidence(t *testing.T) {
	rec := func(entered ...string) *entrytrace.Record {
		r := &entrytrace.Record{Images: 1, Armed: map[string]bool{"tests::a": true, "it_works": true}, Entered: map[string]bool{}}
		for _, n := range entered {
			r.Entered[n] = true
		}
		return r
	}
	defs := &schemas.TestDefinitions{Tests: []schemas.TestDefinition{
		{Name: "my-pkg/lib/my-pkg", Command: []string{"src/lib.rs"}},
		{Name: "my-pkg/test/it", Command: []string{"tests/it.rs"}},
	}}
	pass := func(id string) schemas.TestResult { return schemas.TestResult{ID: id, Status: schemas.StatusPass} }
	for _, tc := range []struct {
		name    string
		records map[string][]*entrytrace.Record
		in      schemas.TestResult
		denied  bool
	}{
		{"entered", map[string][]*entrytrace.Record{"my_pkg": {rec("tests::a")}}, pass("src/lib.rs/tests::a"), false},
		{"armed, never entered", map[string][]*entrytrace.Record{"my_pkg": {rec()}}, pass("src/lib.rs/tests::a"), true},
		{"entered by another run of the crate's programs", map[string][]*entrytrace.Record{"my_pkg": {rec(), rec("tests::a")}}, pass("src/lib.rs/tests::a"), false},
		{"entered in another crate only", map[string][]*entrytrace.Record{"my_pkg": {rec()}, "it": {rec("tests::a")}}, pass("src/lib.rs/tests::a"), true},
		{"integration test", map[string][]*entrytrace.Record{"it": {rec()}}, pass("tests/it.rs/it_works"), true},
		{"not armed (no such function)", map[string][]*entrytrace.Record{"my_pkg": {rec()}}, pass("src/lib.rs/tests::b"), false},
		{"no record of its program", map[string][]*entrytrace.Record{"it": {rec()}}, pass("src/lib.rs/tests::a"), false},
		{"old cargo's unittests key", map[string][]*entrytrace.Record{"my_pkg": {rec()}}, pass("unittests/my_pkg/tests::a"), true},
		{"a failure stays a failure", map[string][]*entrytrace.Record{"my_pkg": {rec()}}, schemas.TestResult{ID: "src/lib.rs/tests::a", Status: schemas.StatusFail}, false},
		{"stripped program", map[string][]*entrytrace.Record{"my_pkg": {{Images: 1, Armed: map[string]bool{}, Entered: map[string]bool{}}}}, pass("src/lib.rs/tests::a"), true},
		{"one of two programs stripped", map[string][]*entrytrace.Record{"my_pkg": {{Images: 1, Armed: map[string]bool{}, Entered: map[string]bool{}}, rec("tests::a")}}, pass("src/lib.rs/tests::b"), false},
		{"doctest", map[string][]*entrytrace.Record{"my_pkg": {rec()}}, pass("doctest/src/lib.rs - tests::a (line 3)"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := traceEvidence([]schemas.TestResult{tc.in}, tc.records, defs)[0]
			if denied := got.Evidence == schemas.EvidenceDenied; denied != tc.denied || (denied && got.Status != schemas.StatusError) {
				t.Errorf("got %+v, want denied %v", got, tc.denied)
			}
		})
	}
}

// TestLaunchEnv: the Linux runner is added where the run names none, the
// Windows one replaces the cargo preset's plain wine, and a manifest's own
// runner of either target is kept.
func TestLaunchEnv(t *testing.T) {
	const linux, windows = cargoRunnerVar + "=", cargoWindowsRunnerVar + "="
	for _, tc := range []struct {
		name    string
		env     []string
		wantLin string // the Linux runner's value, "" unset
		wantWin string // the Windows runner's value, "" unset
	}{
		{"linux run", nil, "cargo-test-runner", ""},
		{"wine run (the cargo preset)", []string{windows + "wine"}, "cargo-test-runner", "cargo-test-runner-wine"},
		{"a manifest's own Windows runner", []string{windows + "/opt/my-runner"}, "cargo-test-runner", "/opt/my-runner"},
		{"a manifest's own Linux runner", []string{linux + "/opt/my-runner"}, "/opt/my-runner", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			launch, err := launch(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if launch == nil {
				t.Skip("no entry tracer on this host")
			}
			got := map[string]string{}
			for _, kv := range launch.Env(append([]string(nil), tc.env...)) {
				k, v, _ := strings.Cut(kv, "=")
				if k == cargoRunnerVar || k == cargoWindowsRunnerVar {
					if strings.HasPrefix(v, "/") && strings.Contains(v, "osbench-cargo-bin/") {
						v = filepath.Base(v)
					}
					got[k] = v
				}
			}
			if got[cargoRunnerVar] != tc.wantLin || got[cargoWindowsRunnerVar] != tc.wantWin {
				t.Errorf("runners = %v, want Linux %q, Windows %q", got, tc.wantLin, tc.wantWin)
			}
		})
	}
}
