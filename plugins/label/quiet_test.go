package label

import (
	"reflect"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestClassifyMasked(t *testing.T) {
	run := func(tests ...schemas.TestResult) schemas.TestResults { return schemas.TestResults{Tests: tests} }
	r := func(id string, s schemas.Status) schemas.TestResult { return schemas.TestResult{ID: id, Status: s} }
	tests := []struct {
		name    string
		masked  schemas.TestResults
		f2p     []string
		class   string
		by      map[schemas.Status]int
		crashed []string
	}{
		{"assertions only", run(r("p/A", schemas.StatusFail), r("p/B", schemas.StatusFail), r("p/C", schemas.StatusPass)), []string{"p/A", "p/B"},
			schemas.MaskQuiet, map[schemas.Status]int{schemas.StatusFail: 2}, nil},
		{"a panic took the binary", run(r("p/A", schemas.StatusError), r("p/C", schemas.StatusPass)), []string{"p/A", "p/B"},
			schemas.MaskCrash, map[schemas.Status]int{schemas.StatusError: 1, schemas.StatusMissing: 1}, []string{"p/A (error)", "p/B (missing)"}},
		{"did not build", run(r("p/A", schemas.StatusBuildFailed)), []string{"p/A"},
			schemas.MaskCrash, map[schemas.Status]int{schemas.StatusBuildFailed: 1}, []string{"p/A (build-failed)"}},
		{"a timeout anywhere is a hang", run(r("p/A", schemas.StatusFail), r("q/Slow", schemas.StatusTimeout)), []string{"p/A"},
			schemas.MaskHang, map[schemas.Status]int{schemas.StatusFail: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyMasked(tt.masked, tt.f2p)
			if got.Class != tt.class || !reflect.DeepEqual(got.FailToPassByStatus, tt.by) || !reflect.DeepEqual(got.Crashed, tt.crashed) {
				t.Errorf("got %+v, want class %s, %v, %v", got, tt.class, tt.by, tt.crashed)
			}
		})
	}
}
