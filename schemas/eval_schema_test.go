package schemas

import (
	"encoding/json"
	"testing"
)

// goodEvalReport is a resolved report with every field filled in.
func goodEvalReport() EvalReport {
	stage := func(platform, label string) StageResult {
		return StageResult{
			Platform: platform, Ran: true, Passed: true,
			Tests:   []LabeledTest{{ID: "pkg/TestA", Label: label, Status: StatusPass}},
			Failing: []string{},
			Log:     &LogRef{Path: "logs/" + platform + ".log", Digest: "sha256:" + hex64},
		}
	}
	return EvalReport{
		InstanceID: "pathsep__linux-to-windows", Model: "acme/coder-<v2>", Repo: "pathsep",
		SourceOS: "linux", TargetOS: "windows", Language: "go", Difficulty: "medium",
		Categories: []string{"platform-path"}, TaskDigest: "sha256:" + hex64, PatchDigest: "sha256:" + hex64,
		Outcome: OutcomeResolved, Resolved: true,
		Apply:   ApplyResult{Outcome: ApplyApplied, Method: ApplyGit, Files: []string{"path.go"}, RestoredTestFiles: []string{}},
		StageI:  stage("windows", LabelFailToPass),
		StageII: stage("linux", LabelPassOnSource),

		TamperRules: "1", TamperFindings: []TamperFinding{},
	}
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func goodEvalSummary() EvalSummary {
	c := EvalCounts{Total: 2, Resolved: 1, TargetOnly: 2, Gap: 1, ResolvedRate: 50, TargetOnlyRate: 100, GapRate: 50,
		ResolvedCI: Interval{Low: 9.5, High: 90.5}, TargetOnlyCI: Interval{Low: 34.2, High: 100}}
	return EvalSummary{Agents: []AttemptSummary{{Agent: "acme/coder", Attempts: 2, Tasks: 2,
		PassK: []PassK{{K: 1, PassAt: 50, PassHat: 50}, {K: 2, PassAt: 50, PassHat: 50}}}},
		Models: []ModelSummary{{
			Model: "acme/coder-<v2>", EvalCounts: c, Applied: 2, Graded: 2,
			ByDirection:  map[string]EvalCounts{"linux-to-windows": c},
			ByLanguage:   map[string]EvalCounts{"go": c},
			ByCategory:   map[string]EvalCounts{"platform-path": c, "uncategorized": c},
			ByDifficulty: map[string]EvalCounts{"medium": c},
		}}}
}

// asDoc turns v into its generic JSON form, for edits the Go types cannot
// express (unknown keys, nulls, wrong types).
func asDoc(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func obj(doc map[string]any, key string) map[string]any { return doc[key].(map[string]any) }

func TestEvalReportSchema(t *testing.T) {
	s := compile(t, "eval-report")
	if err := validate(t, s, goodEvalReport()); err != nil {
		t.Fatalf("good report rejected: %v", err)
	}
	unresolved := goodEvalReport()
	unresolved.Outcome, unresolved.Resolved = OutcomeUnresolved, false
	unresolved.StageII.Passed, unresolved.StageII.Failing = false, []string{"pkg/TestA"}
	unresolved.StageII.Tests[0].Status = StatusFail
	if err := validate(t, s, unresolved); err != nil {
		t.Errorf("good unresolved report rejected: %v", err)
	}
	rejected := goodEvalReport()
	rejected.Outcome, rejected.Resolved = OutcomePatchRejected, false
	rejected.Apply = ApplyResult{Outcome: OutcomePatchRejected, Reason: "../x", Files: []string{}, RestoredTestFiles: []string{}}
	rejected.StageI = StageResult{Platform: "windows", Tests: []LabeledTest{}, Failing: []string{}}
	rejected.StageII = StageResult{Platform: "linux", Tests: []LabeledTest{}, Failing: []string{}}
	if err := validate(t, s, rejected); err != nil {
		t.Errorf("good rejected report rejected: %v", err)
	}
	infra := rejected
	infra.Outcome = OutcomeInfraFailure
	infra.Apply = ApplyResult{Outcome: "not-done", Files: []string{}, RestoredTestFiles: []string{}}
	infra.StageI.InfraFailure = "executor died"
	infra.TamperRules = ""
	if err := validate(t, s, infra); err != nil {
		t.Errorf("good infra-failure report rejected: %v", err)
	}
	suspected := goodEvalReport()
	suspected.TamperSuspected = true
	suspected.TamperFindings = []TamperFinding{{File: "forge.go", PatchLine: 12, Rule: "runner-output-go", Reason: "imitates go test output"}}
	if err := validate(t, s, suspected); err != nil {
		t.Errorf("good tamper-suspected report rejected: %v", err)
	}

	for _, tc := range []struct {
		name string
		edit func(doc map[string]any)
	}{
		{"unknown field", func(d map[string]any) { d["score"] = 1 }},
		{"unknown apply field", func(d map[string]any) { obj(d, "apply")["note"] = "x" }},
		{"missing outcome", func(d map[string]any) { delete(d, "outcome") }},
		{"unknown outcome", func(d map[string]any) { d["outcome"] = "solved" }},
		{"unknown apply method", func(d map[string]any) { obj(d, "apply")["method"] = "cp" }},
		{"unknown apply outcome", func(d map[string]any) { obj(d, "apply")["outcome"] = "partial" }},
		{"method without applying", func(d map[string]any) {
			d["outcome"], d["resolved"] = "patch-failed", false
			obj(d, "apply")["outcome"] = "patch-failed"
		}},
		{"applied without method", func(d map[string]any) { obj(d, "apply")["method"] = "" }},
		{"unknown status", func(d map[string]any) {
			obj(d, "stage_i")["tests"].([]any)[0].(map[string]any)["status"] = "passed"
		}},
		{"unknown label", func(d map[string]any) {
			obj(d, "stage_i")["tests"].([]any)[0].(map[string]any)["label"] = "F2P"
		}},
		{"null categories", func(d map[string]any) { d["categories"] = nil }},
		{"null failing", func(d map[string]any) { obj(d, "stage_ii")["failing"] = nil }},
		{"unknown category", func(d map[string]any) { d["categories"] = []any{"platform-gpu"} }},
		{"bad platform", func(d map[string]any) { d["target_os"] = "win32" }},
		{"bad difficulty", func(d map[string]any) { d["difficulty"] = "trivial" }},
		{"bad digest", func(d map[string]any) { d["patch_digest"] = "md5:abc" }},
		{"resolved flag without outcome", func(d map[string]any) { d["outcome"] = "unresolved" }},
		{"resolved but stage II failed", func(d map[string]any) { obj(d, "stage_ii")["passed"] = false }},
		{"passed without running", func(d map[string]any) {
			d["outcome"], d["resolved"] = "unresolved", false
			obj(d, "stage_ii")["ran"] = false
		}},
		{"patch file outside repo", func(d map[string]any) { obj(d, "apply")["files"] = []any{"../etc/passwd"} }},
		{"absolute log path", func(d map[string]any) {
			obj(obj(d, "stage_i"), "log")["path"] = "/var/log/x"
		}},
		{"empty model", func(d map[string]any) { d["model_name_or_path"] = "" }},
		{"missing tamper flag", func(d map[string]any) { delete(d, "tamper_suspected") }},
		{"null tamper findings", func(d map[string]any) { d["tamper_findings"] = nil }},
		{"suspected without findings", func(d map[string]any) { d["tamper_suspected"] = true }},
		{"findings without suspicion", func(d map[string]any) {
			d["tamper_findings"] = []any{map[string]any{"file": "x.go", "patch_line": 3, "rule": "init-exit", "reason": "r"}}
		}},
		{"suspected without rule set", func(d map[string]any) {
			delete(d, "tamper_rules")
			d["tamper_suspected"] = true
			d["tamper_findings"] = []any{map[string]any{"file": "x.go", "patch_line": 3, "rule": "init-exit", "reason": "r"}}
		}},
		{"finding at line 0", func(d map[string]any) {
			d["tamper_suspected"] = true
			d["tamper_findings"] = []any{map[string]any{"file": "x.go", "patch_line": 0, "rule": "init-exit", "reason": "r"}}
		}},
		{"finding without rule", func(d map[string]any) {
			d["tamper_suspected"] = true
			d["tamper_findings"] = []any{map[string]any{"file": "x.go", "patch_line": 2, "reason": "r"}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := asDoc(t, goodEvalReport())
			tc.edit(doc)
			if err := validate(t, s, doc); err == nil {
				t.Errorf("broken report accepted: %v", doc)
			}
		})
	}
}

func TestEvalSummarySchema(t *testing.T) {
	s := compile(t, "eval-summary")
	if err := validate(t, s, goodEvalSummary()); err != nil {
		t.Fatalf("good summary rejected: %v", err)
	}
	if err := validate(t, s, EvalSummary{Models: []ModelSummary{}, Agents: []AttemptSummary{}}); err != nil {
		t.Errorf("empty summary rejected: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(doc map[string]any)
	}{
		{"unknown field", func(d map[string]any) { d["generated_at"] = "2026-01-01" }},
		{"null models", func(d map[string]any) { d["models"] = nil }},
		{"unknown model field", func(d map[string]any) { model(d)["score"] = 1 }},
		{"missing breakdown", func(d map[string]any) { delete(model(d), "by_category") }},
		{"null breakdown", func(d map[string]any) { model(d)["by_language"] = nil }},
		{"negative gap", func(d map[string]any) { model(d)["gap"] = -1 }},
		{"rate above 100", func(d map[string]any) { model(d)["resolved_rate"] = 100.5 }},
		{"fractional count", func(d map[string]any) { model(d)["total"] = 1.5 }},
		{"missing tamper count", func(d map[string]any) { delete(model(d), "tamper_suspected") }},
		{"negative tamper count", func(d map[string]any) { model(d)["tamper_suspected"] = -1 }},
		{"bad direction key", func(d map[string]any) {
			obj(model(d), "by_direction")["linux->windows"] = obj(model(d), "by_direction")["linux-to-windows"]
		}},
		{"unknown category key", func(d map[string]any) {
			obj(model(d), "by_category")["gpu"] = obj(model(d), "by_category")["platform-path"]
		}},
		{"unknown difficulty key", func(d map[string]any) {
			obj(model(d), "by_difficulty")["trivial"] = obj(model(d), "by_difficulty")["medium"]
		}},
		{"counts missing rate", func(d map[string]any) { delete(obj(obj(model(d), "by_language"), "go"), "gap_rate") }},
		{"counts unknown field", func(d map[string]any) { obj(obj(model(d), "by_language"), "go")["x"] = 0 }},
		{"counts missing interval", func(d map[string]any) { delete(obj(obj(model(d), "by_language"), "go"), "resolved_ci95") }},
		{"interval above 100", func(d map[string]any) { obj(model(d), "resolved_ci95")["high"] = 101 }},
		{"missing graded", func(d map[string]any) { delete(model(d), "graded") }},
		{"null agents", func(d map[string]any) { d["agents"] = nil }},
		{"one attempt", func(d map[string]any) { d["agents"].([]any)[0].(map[string]any)["attempts"] = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := asDoc(t, goodEvalSummary())
			tc.edit(doc)
			if err := validate(t, s, doc); err == nil {
				t.Errorf("broken summary accepted: %v", doc)
			}
		})
	}
}

func model(doc map[string]any) map[string]any { return doc["models"].([]any)[0].(map[string]any) }
