package gotest

import (
	"testing"

	"github.com/osbench/osbench/plugins/entrytrace"
	"github.com/osbench/osbench/schemas"
)

// traced is a tracer record of a binary with TestA armed and the named
// functions entered.
func traced(entered ...string) *entrytrace.Record {
	e := &entrytrace.Record{Images: 1, Armed: map[string]bool{"TestA": true}, Entered: map[string]bool{}}
	for _, n := range entered {
		e.Entered[n] = true
	}
	return e
}

func TestGoEvidenceRecords(t *testing.T) {
	dirs := map[string]string{"ex": ".", "ex/sub": "sub"}
	tests := []struct {
		name    string
		records map[string]goRecord
		in      schemas.TestResult
		want    schemas.TestResult
	}{
		{"profile written", map[string]goRecord{".": {status: "0", profile: "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass", Evidence: "ran"}},
		{"subtest of nested package", map[string]goRecord{"sub": {status: "0", profile: "written"}}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass"}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass", Evidence: "ran"}},
		{"no record", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"profile missing", map[string]goRecord{".": {status: "0", profile: "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"binary failed after writing", map[string]goRecord{".": {status: "1", profile: "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"binary panicked", map[string]goRecord{".": {status: "2", profile: "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"a failure stays a failure", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}},
		{"no profile asked", map[string]goRecord{".": {status: "0", profile: "none"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"traced and entered", map[string]goRecord{".": {status: "0", profile: "written", entries: traced("TestA")}}, schemas.TestResult{ID: "ex/TestA/sub", Status: "pass"}, schemas.TestResult{ID: "ex/TestA/sub", Status: "pass", Evidence: "ran"}},
		{"traced, never entered", map[string]goRecord{".": {status: "0", profile: "written", entries: traced()}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"traced, subtest of a test never entered", map[string]goRecord{"sub": {status: "0", profile: "written", entries: traced()}}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass"}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "error", Evidence: "denied"}},
		{"traced, not armed (no such function)", map[string]goRecord{".": {status: "0", profile: "written", entries: traced()}}, schemas.TestResult{ID: "ex/TestB", Status: "pass"}, schemas.TestResult{ID: "ex/TestB", Status: "pass", Evidence: "ran"}},
		{"traced, failing test not entered stays a failure", map[string]goRecord{".": {status: "1", profile: "written", entries: traced()}}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}},
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
