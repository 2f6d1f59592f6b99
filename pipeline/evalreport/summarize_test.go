package evalreport

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// verdict builds a report with the given model and outcome kind on a
// linux-to-windows Go task; edits adjust the task facts.
// suspect marks a report's patch as flagged by the tamper scan.
func suspect(r *schemas.EvalReport) {
	r.TamperSuspected, r.TamperRules = true, "1"
	r.TamperFindings = []schemas.TamperFinding{{File: "x.go", PatchLine: 9, Rule: "init-exit", Reason: "init-time code ends the process"}}
}

func verdict(model, kind string, edits ...func(*schemas.EvalReport)) schemas.EvalReport {
	r := schemas.EvalReport{
		InstanceID: "t", Model: model, SourceOS: "linux", TargetOS: "windows",
		Language: "go", Difficulty: "easy", Categories: []string{"platform-path"},
		Apply: schemas.ApplyResult{Outcome: schemas.ApplyApplied, Method: schemas.ApplyGit},
	}
	switch kind {
	case "resolved":
		r.Outcome, r.Resolved = schemas.OutcomeResolved, true
		r.StageI.Passed, r.StageII.Passed = true, true
	case "gap": // target passes, source breaks
		r.Outcome = schemas.OutcomeUnresolved
		r.StageI.Passed = true
	case "unresolved":
		r.Outcome = schemas.OutcomeUnresolved
		r.StageII.Passed = true
	case "rejected":
		r.Outcome = schemas.OutcomePatchRejected
		r.Apply = schemas.ApplyResult{Outcome: schemas.OutcomePatchRejected}
	case "failed":
		r.Outcome = schemas.OutcomePatchFailed
		r.Apply = schemas.ApplyResult{Outcome: schemas.OutcomePatchFailed}
	case "infra":
		r.Outcome = schemas.OutcomeInfraFailure
	default:
		panic("unknown kind " + kind)
	}
	for _, e := range edits {
		e(&r)
	}
	return r
}

func cats(c ...string) func(*schemas.EvalReport) {
	return func(r *schemas.EvalReport) { r.Categories = c }
}

func counts(total, resolved, targetOnly int, resolvedRate, targetOnlyRate, gapRate float64) schemas.EvalCounts {
	return schemas.EvalCounts{Total: total, Resolved: resolved, TargetOnly: targetOnly, Gap: targetOnly - resolved,
		ResolvedRate: resolvedRate, TargetOnlyRate: targetOnlyRate, GapRate: gapRate,
		ResolvedCI: handWilson(resolved, total), TargetOnlyCI: handWilson(targetOnly, total)}
}

// handWilson holds the 95% Wilson intervals the summaries below need,
// worked out by hand from center ± half with z = 1.96:
// center = (p + z²/2n)/(1 + z²/n), half = z/(1 + z²/n)·√(p(1−p)/n + z²/4n²).
// For 1 of 3: p = 1/3, z²/n = 1.2805, center = 0.6168/2.2805 = 0.2705,
// half = 0.8594·√(0.0741 + 0.1067) = 0.3655, so 6.1–79.2 (%).
func handWilson(k, n int) schemas.Interval {
	iv, ok := map[[2]int]schemas.Interval{
		{1, 3}: {Low: 6.1, High: 79.2}, {2, 3}: {Low: 20.8, High: 93.9},
		{1, 2}: {Low: 9.5, High: 90.5}, {2, 2}: {Low: 34.2, High: 100},
		{1, 1}: {Low: 20.7, High: 100}, {0, 1}: {Low: 0, High: 79.3},
		{1, 5}: {Low: 3.6, High: 62.4}, {2, 4}: {Low: 15, High: 85},
	}[[2]int{k, n}]
	if !ok {
		return schemas.Interval{Low: -1, High: -1} // no hand value: the test fails
	}
	return iv
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reports []schemas.EvalReport
		check   func(t *testing.T, s schemas.EvalSummary)
	}{
		{
			name:    "gap is target-only minus resolved, rates rounded to 0.1",
			reports: []schemas.EvalReport{verdict("m", "resolved"), verdict("m", "gap"), verdict("m", "unresolved")},
			check: func(t *testing.T, s schemas.EvalSummary) {
				want := counts(3, 1, 2, 33.3, 66.7, 33.3)
				if got := s.Models[0].EvalCounts; got != want {
					t.Errorf("overall = %+v, want %+v", got, want)
				}
				if got := s.Models[0].ByDirection["linux-to-windows"]; got != want {
					t.Errorf("by direction = %+v, want %+v", got, want)
				}
			},
		},
		{
			name: "a report counts once under each of its categories",
			reports: []schemas.EvalReport{
				verdict("m", "resolved", cats("platform-path", "platform-api")),
				verdict("m", "gap", cats("platform-api", "platform-api")),
				verdict("m", "unresolved", cats()),
			},
			check: func(t *testing.T, s schemas.EvalSummary) {
				want := map[string]schemas.EvalCounts{
					"platform-path": counts(1, 1, 1, 100, 100, 0),
					"platform-api":  counts(2, 1, 2, 50, 100, 50),
					Uncategorized:   counts(1, 0, 0, 0, 0, 0),
				}
				if got := s.Models[0].ByCategory; !reflect.DeepEqual(got, want) {
					t.Errorf("by category = %+v, want %+v", got, want)
				}
				if s.Models[0].Total != 3 {
					t.Errorf("total = %d, want 3 (categories must not multiply the overall count)", s.Models[0].Total)
				}
			},
		},
		{
			name: "apply outcomes and infra failures are counted apart",
			reports: []schemas.EvalReport{
				verdict("m", "rejected"), verdict("m", "failed"), verdict("m", "failed"),
				verdict("m", "infra"), verdict("m", "resolved"),
			},
			check: func(t *testing.T, s schemas.EvalSummary) {
				m := s.Models[0]
				got := [4]int{m.Applied, m.PatchRejected, m.PatchFailed, m.InfraFailures}
				if want := [4]int{2, 1, 2, 1}; got != want {
					t.Errorf("applied, rejected, failed, infra = %v, want %v", got, want)
				}
				if m.Graded != 4 || m.NotGraded != 0 {
					t.Errorf("graded %d, not graded %d; want 4 (5 given, 1 infra failure), 0", m.Graded, m.NotGraded)
				}
				if want := counts(5, 1, 1, 20, 20, 0); m.EvalCounts != want {
					t.Errorf("overall = %+v, want %+v", m.EvalCounts, want)
				}
			},
		},
		{
			name: "tamper-suspected reports are counted whatever their outcome, and change no other count",
			reports: []schemas.EvalReport{
				verdict("m", "resolved", suspect), verdict("m", "unresolved", suspect), verdict("m", "resolved"),
				verdict("m", "unresolved"),
			},
			check: func(t *testing.T, s schemas.EvalSummary) {
				m := s.Models[0]
				if m.TamperSuspected != 2 {
					t.Errorf("tamper suspected = %d, want 2", m.TamperSuspected)
				}
				if want := counts(4, 2, 2, 50, 50, 0); m.EvalCounts != want {
					t.Errorf("overall = %+v, want %+v", m.EvalCounts, want)
				}
			},
		},
		{
			name: "models sorted by name, breakdowns by task facts",
			reports: []schemas.EvalReport{
				verdict("zeta", "resolved", func(r *schemas.EvalReport) {
					r.SourceOS, r.TargetOS, r.Language, r.Difficulty = "windows", "linux", "c", "hard"
				}),
				verdict("Alpha", "gap"),
				verdict("acme/<x>", "unresolved"),
			},
			check: func(t *testing.T, s schemas.EvalSummary) {
				var names []string
				for _, m := range s.Models {
					names = append(names, m.Model)
				}
				if want := []string{"Alpha", "acme/<x>", "zeta"}; !reflect.DeepEqual(names, want) {
					t.Errorf("models = %q, want %q", names, want)
				}
				z := s.Models[2]
				one := counts(1, 1, 1, 100, 100, 0)
				if z.ByDirection["windows-to-linux"] != one || z.ByLanguage["c"] != one || z.ByDifficulty["hard"] != one || len(z.ByDirection) != 1 {
					t.Errorf("zeta breakdowns = %+v %+v %+v", z.ByDirection, z.ByLanguage, z.ByDifficulty)
				}
			},
		},
		{
			name: "a run not graded is neither graded nor an infra failure",
			reports: []schemas.EvalReport{
				verdict("m", "unresolved", func(r *schemas.EvalReport) { r.StageI.NotGraded = "changed the task's test sources (x_test.go)" }),
				verdict("m", "infra"), verdict("m", "resolved"),
			},
			check: func(t *testing.T, s schemas.EvalSummary) {
				m := s.Models[0]
				if got := [3]int{m.Graded, m.NotGraded, m.InfraFailures}; got != [3]int{1, 1, 1} {
					t.Errorf("graded, not graded, infra = %v, want [1 1 1]", got)
				}
			},
		},
		{
			name:    "no reports: no models, and an empty list rather than null",
			reports: nil,
			check: func(t *testing.T, s schemas.EvalSummary) {
				b, _ := json.Marshal(s)
				if string(b) != `{"models":[],"agents":[]}` {
					t.Errorf("summary = %s", b)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(tc.reports)
			for _, m := range s.Models {
				if m.ByDirection == nil || m.ByLanguage == nil || m.ByCategory == nil || m.ByDifficulty == nil {
					t.Errorf("%s: a breakdown map is nil", m.Model)
				}
			}
			tc.check(t, s)
		})
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		n, total int
		want     float64
	}{
		{0, 0, 0}, {3, 0, 0}, {1, 3, 33.3}, {2, 3, 66.7}, {1, 8, 12.5}, {1, 7, 14.3}, {5, 5, 100}, {0, 4, 0},
	} {
		if got := percent(tc.n, tc.total); got != tc.want {
			t.Errorf("percent(%d, %d) = %v, want %v", tc.n, tc.total, got, tc.want)
		}
	}
}
