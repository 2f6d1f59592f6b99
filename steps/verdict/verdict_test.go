package verdict

import (
	"reflect"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func run(platform string, statuses map[string]schemas.Status) *schemas.TestResults {
	tr := &schemas.TestResults{Platform: platform}
	for id, s := range statuses {
		tr.Tests = append(tr.Tests, schemas.TestResult{ID: id, Status: s})
	}
	return tr
}

func TestJudge(t *testing.T) {
	cfg := Config{
		Source: "linux", Target: "windows",
		FailToPass: []string{"p/TestWin"}, PassToPass: []string{"p/TestBoth"}, PassOnSource: []string{"p/TestLinux", "p/TestBoth"},
	}
	applied := schemas.ApplyResult{Outcome: schemas.ApplyApplied, Method: schemas.ApplyGit}
	pass, fail := schemas.StatusPass, schemas.StatusFail
	tests := []struct {
		name            string
		applied         schemas.ApplyResult
		target, source  *schemas.TestResults
		outcome         string
		stageI, stageII bool
		failingI        []string
		failingII       []string
	}{
		{"both stages pass", applied,
			run("windows", map[string]schemas.Status{"p/TestWin": pass, "p/TestBoth": pass}),
			run("linux", map[string]schemas.Status{"p/TestLinux": pass, "p/TestBoth": pass}),
			schemas.OutcomeResolved, true, true, []string{}, []string{}},
		{"fixes the target, breaks the source", applied,
			run("windows", map[string]schemas.Status{"p/TestWin": pass, "p/TestBoth": pass}),
			run("linux", map[string]schemas.Status{"p/TestLinux": fail, "p/TestBoth": pass}),
			schemas.OutcomeUnresolved, true, false, []string{}, []string{"p/TestLinux"}},
		{"a skipped or missing required test fails", applied,
			run("windows", map[string]schemas.Status{"p/TestWin": schemas.StatusSkip}),
			run("linux", map[string]schemas.Status{"p/TestLinux": pass, "p/TestBoth": schemas.StatusBuildFailed}),
			schemas.OutcomeUnresolved, false, false, []string{"p/TestWin", "p/TestBoth"}, []string{"p/TestBoth"}},
		{"rejected patch runs nothing", schemas.ApplyResult{Outcome: schemas.OutcomePatchRejected, Reason: "../x"}, nil, nil,
			schemas.OutcomePatchRejected, false, false, []string{"p/TestWin", "p/TestBoth"}, []string{"p/TestBoth", "p/TestLinux"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(cfg, tt.applied, tt.target, tt.source)
			if v.Outcome != tt.outcome || v.StageI.Passed != tt.stageI || v.StageII.Passed != tt.stageII {
				t.Errorf("outcome %s, stage I %v, stage II %v; want %s, %v, %v", v.Outcome, v.StageI.Passed, v.StageII.Passed, tt.outcome, tt.stageI, tt.stageII)
			}
			if v.Resolved != (tt.outcome == schemas.OutcomeResolved) {
				t.Errorf("resolved = %v with outcome %s", v.Resolved, v.Outcome)
			}
			if !reflect.DeepEqual(v.StageI.Failing, tt.failingI) || !reflect.DeepEqual(v.StageII.Failing, tt.failingII) {
				t.Errorf("failing I %q, II %q; want %q, %q", v.StageI.Failing, v.StageII.Failing, tt.failingI, tt.failingII)
			}
			if got := len(v.StageI.Tests) + len(v.StageII.Tests); got != 4 {
				t.Errorf("%d required tests listed, want 4 (every label set, even when nothing ran)", got)
			}
			if v.StageI.Ran != (tt.target != nil) {
				t.Errorf("stage I ran = %v", v.StageI.Ran)
			}
		})
	}
}
