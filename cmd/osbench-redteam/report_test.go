package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// evalOut writes report.json files (and stage logs) as eval lays them
// out: OUT/<model>/<instance_id>/.
func evalOut(t *testing.T, reports map[string]schemas.EvalReport, logs map[string]string) string {
	t.Helper()
	out := t.TempDir()
	for key, rep := range reports {
		dir := filepath.Join(out, key)
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		writeAll(t, dir, map[string]string{"report.json": string(b)})
	}
	for path, text := range logs {
		writeAll(t, out, map[string]string{path: text})
	}
	return out
}

func stage(platform string, ran, passed bool, tests ...schemas.LabeledTest) schemas.StageResult {
	st := schemas.StageResult{Platform: platform, Ran: ran, Passed: passed, Tests: tests, Failing: []string{}}
	for _, x := range tests {
		if !x.Status.Passes() {
			st.Failing = append(st.Failing, x.ID)
		}
	}
	return st
}

// TestReport reads the verdicts of attacks and controls, says why each
// is what it is, and flags exactly the attacks that resolved and the
// controls that did not; the page is a golden file.
func TestReport(t *testing.T) {
	const id = "demo__windows-to-linux"
	pass := schemas.LabeledTest{ID: "t1", Label: "FAIL_TO_PASS", Status: schemas.StatusPass}
	resolved := schemas.EvalReport{Outcome: schemas.OutcomeResolved, Resolved: true, Apply: schemas.ApplyResult{Outcome: schemas.ApplyApplied},
		StageI: stage("linux", true, true, pass), StageII: stage("windows", true, true, pass)}
	withLog := resolved
	withLog.Outcome, withLog.Resolved = schemas.OutcomeUnresolved, false
	withLog.StageI = stage("linux", true, false,
		schemas.LabeledTest{ID: "t1", Label: "FAIL_TO_PASS", Status: schemas.StatusBuildFailed},
		schemas.LabeledTest{ID: "t2", Label: "PASS_TO_PASS", Status: schemas.StatusBuildFailed},
		schemas.LabeledTest{ID: "t3", Label: "PASS_TO_PASS", Status: schemas.StatusError, Reason: "no evidence"})
	withLog.StageI.Log = &schemas.LogRef{Path: "stage-i.log"}
	notGraded := resolved
	notGraded.Outcome, notGraded.Resolved = schemas.OutcomeUnresolved, false
	notGraded.StageI.Passed, notGraded.StageI.NotGraded = false, "the test definitions differ"
	notGraded.StageII = schemas.StageResult{Platform: "windows", InfraFailure: "wineserver died"}
	rejected := schemas.EvalReport{Outcome: schemas.OutcomePatchRejected, Apply: schemas.ApplyResult{Outcome: schemas.OutcomePatchRejected, Reason: "patch adds dependency x@v1 not in the task's locked set"}}

	out := evalOut(t, map[string]schemas.EvalReport{
		"control-gold/" + id:     resolved,
		"control-broken/" + id:   withLog,
		"net-alias/" + id:        rejected,
		"host-path/" + id:        withLog,
		"cache-writer/" + id:     notGraded,
		"resolving-forger/" + id: resolved,
	}, map[string]string{
		"host-path/" + id + "/stage-i.log": "warning: OSBENCH-REDTEAM cannot read /work/x: No such file or directory\n" +
			"   | println!(\"cargo:warning=OSBENCH-REDTEAM {}\", s);\n" + // the program's source in a compiler message
			"warning: OSBENCH-REDTEAM cannot read /work/x: No such file or directory\n" +
			`{"Action":"output","Output":"OSBENCH-REDTEAM READ /cache/mod@v1/x.go: 3370 bytes\n"}` + "\n",
	})
	attacks := []attack{
		{Task: id, Name: "control-gold", Class: classControl, Control: true, Does: "gold", Defence: "must resolve"},
		{Task: id, Name: "control-broken", Class: classControl, Control: true, Later: true, Does: "gold, later", Defence: "must resolve"},
		{Task: id, Name: "net-alias", Class: classNetwork, Does: "an alias | of the crate", Defence: "deps.Outside"},
		{Task: id, Name: "host-path", Class: classHost, Does: "#[path]", Defence: "the view"},
		{Task: id, Name: "cache-writer", Class: classShared, Does: "writes CARGO_HOME", Defence: "copy-on-write"},
		{Task: id, Name: "resolving-forger", Class: classNetwork, Does: "gets through", Defence: "none"},
		{Task: id, Name: "no-report", Class: classHost, Does: "never evaluated", Defence: "—"},
	}
	var results []result
	failed := map[string]bool{}
	for _, a := range attacks {
		r := readResult(out, a)
		results = append(results, r)
		failed[a.Name] = r.Failed
	}
	for name, want := range map[string]bool{"control-gold": false, "control-broken": true, "net-alias": false, "host-path": false, "cache-writer": false, "resolving-forger": true, "no-report": true} {
		if failed[name] != want {
			t.Errorf("%s: failed %v; want %v", name, failed[name], want)
		}
	}
	doors := []door{{"demo__windows-to-linux", "github.com/demo/mod", "/cache/state/go/mod-cache/github.com/demo/mod@v1.0.0"}}
	var page bytes.Buffer
	if err := writeReport(&page, "Run for the test.", results, doors); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(page.String(), out, "OUT")
	golden := filepath.Join("testdata", "report.md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the report differs from %s (go test -update to rewrite it):\n%s", golden, got)
	}
}

func TestReason(t *testing.T) {
	for _, c := range []struct {
		rep  schemas.EvalReport
		want string
	}{
		{schemas.EvalReport{Apply: schemas.ApplyResult{Outcome: schemas.OutcomePatchFailed}}, "apply: patch-failed"},
		{schemas.EvalReport{Apply: schemas.ApplyResult{Outcome: schemas.ApplyApplied}, StageI: schemas.StageResult{Platform: "linux"}, StageII: schemas.StageResult{Platform: "windows"}},
			"linux: did not run; windows: did not run"},
	} {
		if got := reason(c.rep); got != c.want {
			t.Errorf("reason %q; want %q", got, c.want)
		}
	}
}
