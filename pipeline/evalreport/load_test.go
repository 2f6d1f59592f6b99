package evalreport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureRun is an evaluation output directory with five tasks evaluated
// for three models, two of them named with characters that need escaping.
const fixtureRun = "testdata/run"

func TestLoadFixtureRun(t *testing.T) {
	reports, err := Load(fixtureRun)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 15 {
		t.Fatalf("loaded %d reports, want 15", len(reports))
	}
	for i := 1; i < len(reports); i++ {
		a, b := reports[i-1], reports[i]
		if a.Model > b.Model || (a.Model == b.Model && a.InstanceID >= b.InstanceID) {
			t.Errorf("reports %d and %d out of order: %q/%q then %q/%q", i-1, i, a.Model, a.InstanceID, b.Model, b.InstanceID)
		}
	}
}

// writeFile writes content to dir/rel, making its parents.
func writeFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// validReportJSON is one of the fixture reports, as a starting point for
// broken ones.
func validReportJSON(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRun, "baseline", "crlf__linux-to-windows", ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func encode(t *testing.T, doc map[string]any) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLoadErrorsNameTheFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content func(t *testing.T) string
		want    string
	}{
		{"bad JSON", func(*testing.T) string { return `{"instance_id": "x",` }, "unexpected EOF"},
		{"unknown field", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["verdict"] = "ok"
			return encode(t, doc)
		}, `unknown field "verdict"`},
		{"unknown nested field", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["stage_i"].(map[string]any)["duration"] = 3
			return encode(t, doc)
		}, `unknown field "duration"`},
		{"wrong type", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["resolved"] = "yes"
			return encode(t, doc)
		}, "resolved"},
		{"trailing data", func(t *testing.T) string { return encode(t, validReportJSON(t)) + "{}" }, "trailing data"},
		{"unknown outcome", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["outcome"] = "solved"
			return encode(t, doc)
		}, `unknown outcome "solved"`},
		{"resolved disagrees with outcome", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["resolved"] = true
			return encode(t, doc)
		}, "resolved is true"},
		{"no model", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["model_name_or_path"] = ""
			return encode(t, doc)
		}, "no model_name_or_path"},
		{"tamper suspected without findings", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["tamper_suspected"] = true
			doc["tamper_findings"] = []any{}
			return encode(t, doc)
		}, "tamper_suspected is true with 0 findings"},
		{"findings without tamper suspected", func(t *testing.T) string {
			doc := validReportJSON(t)
			doc["tamper_suspected"] = false
			doc["tamper_findings"] = []any{map[string]any{"file": "x.go", "patch_line": 4, "rule": "init-exit", "reason": "r"}}
			return encode(t, doc)
		}, "tamper_suspected is false with 1 findings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			writeFile(t, out, "good/a/report.json", encode(t, validReportJSON(t)))
			bad := writeFile(t, out, "model/inst/report.json", tc.content(t))
			_, err := Load(out)
			if err == nil {
				t.Fatal("Load accepted a broken report")
			}
			if !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q should name %s and say %q", err, bad, tc.want)
			}
		})
	}
}

func TestLoadReadsTwoLevelsOnly(t *testing.T) {
	out := t.TempDir()
	good := encode(t, validReportJSON(t))
	writeFile(t, out, "m/inst/report.json", good)
	// Neither the run's own files, nor a report at the wrong depth, nor an
	// instance directory still without its report is an instance.
	writeFile(t, out, "summary.json", "not a report")
	writeFile(t, out, "report.json", "not a report")
	writeFile(t, out, "m/report.json", "not a report")
	writeFile(t, out, "m/inst/logs/report.json", "not a report")
	writeFile(t, out, "m/pending/stage_i.log", "")
	reports, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].InstanceID != "crlf__linux-to-windows" {
		t.Errorf("loaded %+v, want the one report", reports)
	}
}

func TestLoadMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Load(%s) = %v, want an error naming it", dir, err)
	}
}
