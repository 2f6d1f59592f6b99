package initmanifest

import (
	"reflect"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestFailingWhereOnly(t *testing.T) {
	run := func(platform string, tests ...schemas.TestResult) PlatformRun {
		return PlatformRun{Platform: platform, Tests: tests}
	}
	tr := func(id string, st schemas.Status) schemas.TestResult { return schemas.TestResult{ID: id, Status: st} }
	for _, c := range []struct {
		name string
		runs []PlatformRun
		want map[string][]Skip
	}{
		{name: "a failure the other platform also runs is not named here",
			runs: []PlatformRun{run("linux", tr("t/a", schemas.StatusFail)), run("windows", tr("t/a", schemas.StatusPass))},
			want: map[string][]Skip{}},
		{name: "failing and timing out where only they run",
			runs: []PlatformRun{
				run("linux", tr("t/procfs", schemas.StatusFail), tr("t/hang", schemas.StatusTimeout), tr("t/ok", schemas.StatusPass), tr("t/both", schemas.StatusFail)),
				run("windows", tr("t/both", schemas.StatusFail), tr("t/registry", schemas.StatusPass)),
			},
			want: map[string][]Skip{"linux": {
				{Test: "t/hang", Reason: "timed out on linux; windows does not run it"},
				{Test: "t/procfs", Reason: "fails on linux; windows does not run it"},
			}}},
		{name: "a crash is proposed as a skip, not named here",
			runs: []PlatformRun{run("linux"), run("windows", tr("t/crash", schemas.StatusError))},
			want: map[string][]Skip{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := FailingWhereOnly(c.runs); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
