package verdict

import (
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestHeldToEvidence(t *testing.T) {
	defs := func(digest string) *schemas.TestDefinitions {
		return &schemas.TestDefinitions{Runner: "ctest", Digest: digest, Tests: []schemas.TestDefinition{}}
	}
	const task, other = "sha256:aaaa", "sha256:bbbb"
	want := &schemas.PlatformEvidence{Definitions: task, Ran: []string{"a", "b"}}
	required := map[string][]string{schemas.LabelFailToPass: {"a", "b", "c"}}
	tests := []struct {
		name      string
		run       schemas.TestResults
		want      *schemas.PlatformEvidence
		passed    bool
		notGraded bool
		failing   []string
	}{
		{"evidenced passes", schemas.TestResults{Definitions: defs(task), Tests: []schemas.TestResult{{ID: "a", Status: "pass", Evidence: "ran"}, {ID: "b", Status: "pass", Evidence: "ran"}, {ID: "c", Status: "pass"}}},
			want, true, false, []string{}},
		{"a pass without evidence the task had", schemas.TestResults{Definitions: defs(task), Tests: []schemas.TestResult{{ID: "a", Status: "pass", Evidence: "ran"}, {ID: "b", Status: "pass"}, {ID: "c", Status: "pass"}}},
			want, false, false, []string{"b"}},
		{"definitions differ", schemas.TestResults{Definitions: defs(other), Tests: []schemas.TestResult{{ID: "a", Status: "pass", Evidence: "ran"}, {ID: "b", Status: "pass", Evidence: "ran"}, {ID: "c", Status: "pass"}}},
			want, false, true, []string{}},
		{"no definitions listed", schemas.TestResults{Tests: []schemas.TestResult{{ID: "a", Status: "pass", Evidence: "ran"}, {ID: "b", Status: "pass", Evidence: "ran"}, {ID: "c", Status: "pass"}}},
			want, false, true, []string{}},
		{"a task without a record", schemas.TestResults{Tests: []schemas.TestResult{{ID: "a", Status: "pass"}, {ID: "b", Status: "pass"}, {ID: "c", Status: "pass"}}},
			nil, true, false, []string{}},
		{"test sources changed by the run", schemas.TestResults{Definitions: defs(task), ChangedTestFiles: []string{"b/b_test.go"}, Tests: []schemas.TestResult{{ID: "a", Status: "pass", Evidence: "ran"}, {ID: "b", Status: "pass", Evidence: "ran"}, {ID: "c", Status: "pass"}}},
			want, false, true, []string{}},
		{"test sources changed, no record", schemas.TestResults{ChangedTestFiles: []string{"b/b_test.go"}, Tests: []schemas.TestResult{{ID: "a", Status: "pass"}, {ID: "b", Status: "pass"}, {ID: "c", Status: "pass"}}},
			nil, false, true, []string{}},
		{"a failure stays a failure", schemas.TestResults{Definitions: defs(task), Tests: []schemas.TestResult{{ID: "a", Status: "fail"}, {ID: "b", Status: "pass", Evidence: "ran"}, {ID: "c", Status: "pass"}}},
			want, false, false, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := tt.run
			st := Held(Stage("linux", &run, required), &run, tt.want)
			if st.Passed != tt.passed || (st.NotGraded != "") != tt.notGraded || !reflect.DeepEqual(st.Failing, tt.failing) {
				t.Errorf("stage = passed %v, not graded %q, failing %v; want %v, %v, %v", st.Passed, st.NotGraded, st.Failing, tt.passed, tt.notGraded, tt.failing)
			}
			for _, lt := range st.Tests {
				if lt.Reason != "" && (lt.Status != schemas.StatusError || !strings.Contains(lt.Reason, "no sign it ran")) {
					t.Errorf("%s: status %s, reason %q", lt.ID, lt.Status, lt.Reason)
				}
			}
		})
	}
}
