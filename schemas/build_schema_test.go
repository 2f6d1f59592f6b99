package schemas

import (
	"encoding/json"
	"testing"
)

// The schemas of regions.json, build-report.json and a prediction: each
// accepts a good document and rejects every single broken variant of it.
// The real documents of the example build are validated by cmd/osbench.

func goodRegions(t *testing.T) map[string]any {
	rules := Verdict{Label: LabelPath, FunctionalArea: "joins paths", FeatureGroup: "path_separator", Explanation: "uses filepath.Separator", Confidence: 0.8, Verifier: "rules"}
	unverified := Verdict{Label: LabelUnverified, Explanation: "no valid answer from the model after 2 attempts", Verifier: "lm:openai/gpt-x"}
	fp := Verdict{Label: LabelFalsePositive, FunctionalArea: "finds an entry", FeatureGroup: "find_entry", Explanation: "no platform evidence", Confidence: 0.6, Verifier: "rules"}
	region := func(file string, start int, v Verdict) VerifiedRegion {
		return VerifiedRegion{Region: Region{File: file, Start: start, End: start + 2, Lines: []int{start, start + 2}}, Verdict: v}
	}
	return asDoc(t, Verified{
		Repository: "pathsep", Source: "linux", Target: "windows", Verifier: "rules",
		Regions: []VerifiedRegion{region("path_windows.go", 3, rules), region("sub/x.go", 10, unverified), region("find.go", 1, fp)},
		ByLabel: map[string]int{LabelPath: 1, LabelUnverified: 1, LabelFalsePositive: 1},
	})
}

func goodBuildReport(t *testing.T) map[string]any {
	task := map[string]any{
		"instance_id": "pathsep__linux-to-windows", "repository": "pathsep", "direction": "linux->windows",
		"candidates_by_label": map[string]int{LabelPath: 2, LabelFalsePositive: 1},
		"regions_kept":        2, "regions_dropped": 1, "mask_actions": 3, "mask_coarse": false, "accepted": true,
		"fail_to_pass": 2, "pass_to_pass": 1, "pass_on_source": 4,
		"flaky":      []map[string]any{{"id": "TestA", "platform": "windows", "statuses": []string{"pass", "missing"}}},
		"difficulty": "easy", "mask_class": "quiet", "fail_to_pass_by_assertion": 2, "regions_rejected_by_mask": 0,
		"split_hint": "this direction masks 900 lines in 31 files as one task; consider split = 5",
	}
	rejected := map[string]any{
		"instance_id": "pathsep__windows-to-linux__group3of3", "repository": "pathsep", "direction": "windows->linux",
		"group":               map[string]any{"index": 3, "of": 3, "regions": 0, "lines": 0},
		"candidates_by_label": map[string]int{}, "regions_kept": 0, "regions_dropped": 0, "mask_actions": 0,
		"mask_coarse": false, "accepted": false, "rejected": "no platform-specific region was verified",
		"fail_to_pass": 0, "pass_to_pass": 3, "pass_on_source": 3, "flaky": []any{},
		"fail_to_pass_by_assertion": 0, "regions_rejected_by_mask": 0,
	}
	failed := map[string]any{
		"instance_id": "rsplat__linux-to-windows", "repository": "rsplat", "direction": "linux->windows",
		"candidates_by_label": map[string]int{}, "regions_kept": 0, "regions_dropped": 0, "mask_actions": 0,
		"mask_coarse": false, "accepted": false, "failed": "rsplat/linux-to-windows/mask failed: exit 1",
		"fail_to_pass": 0, "pass_to_pass": 0, "pass_on_source": 0, "flaky": []any{},
		"fail_to_pass_by_assertion": 0, "regions_rejected_by_mask": 0,
	}
	return asDoc(t, map[string]any{"tasks": 1, "rejected": 1, "failed": 1, "entries": []any{task, rejected, failed}})
}

func goodPrediction(t *testing.T) map[string]any {
	return asDoc(t, map[string]any{
		"instance_id": "pathsep__linux-to-windows", "model_name_or_path": "acme/coder-v2",
		"model_patch": "diff --git a/p.go b/p.go\n", "full_output": "kept, not read", "cost": 0.02,
	})
}

func entries(doc map[string]any, key string) []any { return doc[key].([]any) }

func at(doc map[string]any, key string, i int) map[string]any {
	return entries(doc, key)[i].(map[string]any)
}

func TestBuildArtifactSchemas(t *testing.T) {
	tests := []struct {
		schema string
		good   func(*testing.T) map[string]any
		name   string
		edit   func(doc map[string]any) // nil: the good document itself
	}{
		{"regions", goodRegions, "good", nil},
		{"regions", goodRegions, "no regions", func(d map[string]any) { d["regions"] = []any{}; d["by_label"] = map[string]any{} }},
		{"regions", goodRegions, "unknown key", func(d map[string]any) { d["kept"] = 2 }},
		{"regions", goodRegions, "platform", func(d map[string]any) { d["target"] = "win32" }},
		{"regions", goodRegions, "regions null", func(d map[string]any) { d["regions"] = nil }},
		{"regions", goodRegions, "label", func(d map[string]any) { at(d, "regions", 0)["label"] = "platform-ish" }},
		{"regions", goodRegions, "by_label label", func(d map[string]any) { obj(d, "by_label")["platform-ish"] = 1 }},
		{"regions", goodRegions, "by_label zero", func(d map[string]any) { obj(d, "by_label")[LabelAPI] = 0 }},
		{"regions", goodRegions, "absolute file", func(d map[string]any) { at(d, "regions", 0)["file"] = "/src/p.go" }},
		{"regions", goodRegions, "backslash file", func(d map[string]any) { at(d, "regions", 0)["file"] = `sub\x.go` }},
		{"regions", goodRegions, "no lines", func(d map[string]any) { at(d, "regions", 0)["lines"] = []any{} }},
		{"regions", goodRegions, "line 0", func(d map[string]any) { at(d, "regions", 0)["start"] = 0 }},
		{"regions", goodRegions, "confidence", func(d map[string]any) { at(d, "regions", 0)["confidence"] = 1.5 }},
		{"regions", goodRegions, "feature group", func(d map[string]any) { at(d, "regions", 0)["feature_group"] = "Path Separator" }},
		{"regions", goodRegions, "no functional area", func(d map[string]any) { at(d, "regions", 2)["functional_area"] = "" }},
		{"regions", goodRegions, "unverified by rules", func(d map[string]any) { at(d, "regions", 1)["verifier"] = "rules" }},
		{"regions", goodRegions, "unverified confident", func(d map[string]any) { at(d, "regions", 1)["confidence"] = 0.9 }},
		{"regions", goodRegions, "no verifier", func(d map[string]any) { delete(at(d, "regions", 0), "verifier") }},

		{"build-report", goodBuildReport, "good", nil},
		{"build-report", goodBuildReport, "no entries", func(d map[string]any) { d["entries"] = []any{}; d["tasks"], d["rejected"], d["failed"] = 0, 0, 0 }},
		{"build-report", goodBuildReport, "no failed count", func(d map[string]any) { delete(d, "failed") }},
		{"build-report", goodBuildReport, "negative", func(d map[string]any) { d["tasks"] = -1 }},
		{"build-report", goodBuildReport, "direction", func(d map[string]any) { at(d, "entries", 0)["direction"] = "linux-to-windows" }},
		{"build-report", goodBuildReport, "instance id", func(d map[string]any) { at(d, "entries", 0)["instance_id"] = "pathsep" }},
		{"build-report", goodBuildReport, "candidate label", func(d map[string]any) { obj(at(d, "entries", 0), "candidates_by_label")["x"] = 1 }},
		{"build-report", goodBuildReport, "candidates null", func(d map[string]any) { at(d, "entries", 2)["candidates_by_label"] = nil }},
		{"build-report", goodBuildReport, "flaky null", func(d map[string]any) { at(d, "entries", 2)["flaky"] = nil }},
		{"build-report", goodBuildReport, "flaky one run", func(d map[string]any) {
			at(d, "entries", 0)["flaky"] = []any{map[string]any{"id": "TestA", "platform": "windows", "statuses": []any{"pass"}}}
		}},
		{"build-report", goodBuildReport, "flaky status", func(d map[string]any) {
			at(d, "entries", 0)["flaky"] = []any{map[string]any{"id": "TestA", "platform": "windows", "statuses": []any{"pass", "passed"}}}
		}},
		{"build-report", goodBuildReport, "task without difficulty", func(d map[string]any) { delete(at(d, "entries", 0), "difficulty") }},
		{"build-report", goodBuildReport, "task without mask class", func(d map[string]any) { delete(at(d, "entries", 0), "mask_class") }},
		{"build-report", goodBuildReport, "task rejected", func(d map[string]any) { at(d, "entries", 0)["rejected"] = "why" }},
		{"build-report", goodBuildReport, "rejection without reason", func(d map[string]any) { delete(at(d, "entries", 1), "rejected") }},
		{"build-report", goodBuildReport, "rejected and failed", func(d map[string]any) { at(d, "entries", 1)["failed"] = "x failed" }},
		{"build-report", goodBuildReport, "difficulty without task", func(d map[string]any) { at(d, "entries", 1)["difficulty"] = "easy" }},
		{"build-report", goodBuildReport, "mask class", func(d map[string]any) { at(d, "entries", 0)["mask_class"] = "silent" }},
		{"build-report", goodBuildReport, "group suffix", func(d map[string]any) { at(d, "entries", 1)["instance_id"] = "pathsep__windows-to-linux__group3" }},
		{"build-report", goodBuildReport, "group of one", func(d map[string]any) { obj(at(d, "entries", 1), "group")["of"] = 1 }},
		{"build-report", goodBuildReport, "group without lines", func(d map[string]any) { delete(obj(at(d, "entries", 1), "group"), "lines") }},
		{"build-report", goodBuildReport, "split hint of a group", func(d map[string]any) { at(d, "entries", 1)["split_hint"] = "split it" }},

		{"prediction", goodPrediction, "good", nil},
		{"prediction", goodPrediction, "empty patch", func(d map[string]any) { d["model_patch"] = "" }},
		{"prediction", goodPrediction, "no instance", func(d map[string]any) { delete(d, "instance_id") }},
		{"prediction", goodPrediction, "empty instance", func(d map[string]any) { d["instance_id"] = "" }},
		{"prediction", goodPrediction, "no model", func(d map[string]any) { delete(d, "model_name_or_path") }},
		{"prediction", goodPrediction, "no patch", func(d map[string]any) { delete(d, "model_patch") }},
		{"prediction", goodPrediction, "null patch", func(d map[string]any) { d["model_patch"] = nil }},
		{"prediction", goodPrediction, "patch not a string", func(d map[string]any) { d["model_patch"] = []any{"diff"} }},
	}
	valid := map[string]bool{"good": true, "no regions": true, "no entries": true, "empty patch": true}
	for _, tt := range tests {
		t.Run(tt.schema+"/"+tt.name, func(t *testing.T) {
			doc := tt.good(t)
			if tt.edit != nil {
				tt.edit(doc)
			}
			err := validate(t, compile(t, tt.schema), doc)
			if valid[tt.name] && err != nil {
				t.Errorf("rejected: %v", err)
			}
			if !valid[tt.name] && err == nil {
				b, _ := json.Marshal(doc)
				t.Errorf("accepted: %s", b)
			}
		})
	}
}
