package gotest

import (
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestGoEvidenceRecords(t *testing.T) {
	dirs := map[string]string{"ex": ".", "ex/sub": "sub"}
	tests := []struct {
		name    string
		records map[string]goRecord
		in      schemas.TestResult
		want    schemas.TestResult
	}{
		{"profile written", map[string]goRecord{".": {"0", "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass", Evidence: "ran"}},
		{"subtest of nested package", map[string]goRecord{"sub": {"0", "written"}}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass"}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass", Evidence: "ran"}},
		{"no record", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"profile missing", map[string]goRecord{".": {"0", "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"binary failed after writing", map[string]goRecord{".": {"1", "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"binary panicked", map[string]goRecord{".": {"2", "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"a failure stays a failure", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}},
		{"no profile asked", map[string]goRecord{".": {"0", "none"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"unknown package", map[string]goRecord{}, schemas.TestResult{ID: "other/TestA", Status: "pass"}, schemas.TestResult{ID: "other/TestA", Status: "pass"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := goEvidence([]schemas.TestResult{tt.in}, tt.records, dirs)[0]
			got.Reason = ""
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
