package taskbuild

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
	"github.com/osbench/osbench/steps/maskrepo"
)

// A direction whose task step failed is an entry of the report with the
// failure, and every other task is still written.
func TestTasksSurviveAFailedDirection(t *testing.T) {
	good := Outcome{InstanceID: "a__linux-to-windows", Repository: "a", Source: "linux", Target: "windows", Accepted: true,
		Labels:    label.Labels{FailToPass: []string{"m/TestSep"}, PassOnSource: []string{"m/TestSep", "m/TestJoin"}},
		MaskedRun: schemas.MaskedRun{Class: schemas.MaskQuiet, FailToPassByStatus: map[schemas.Status]int{schemas.StatusFail: 1}},
		Task:      &schemas.Task{InstanceID: "a__linux-to-windows", Repo: "a", Repository: "a", Difficulty: "easy"}}
	broken := &engine.Step{ID: "b/windows-to-linux/task", Kind: enginetest.FixtureKind,
		Config: []engine.Field{{Name: "result", Value: "outcome.json"}}} // records nothing: fails
	instances := []Instance{
		{Step: "a/linux-to-windows/task", InstanceID: "a__linux-to-windows", Repository: "a", Source: "linux", Target: "windows"},
		{Step: broken.ID, InstanceID: "b__windows-to-linux", Repository: "b", Source: "windows", Target: "linux"},
	}
	tasks := &engine.Step{ID: "tasks", Kind: TasksKind, Config: []engine.Field{{Name: "instances", Value: instances}}}
	for n, inst := range instances {
		tasks.Inputs = append(tasks.Inputs, engine.Input{Name: TaskInput(n), Step: inst.Step, Optional: true})
	}
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGraph([]*engine.Step{enginetest.JSON(instances[0].Step, "outcome.json", good), broken, tasks})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{Jobs: 2, KeepGoing: true})
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Step("tasks")
	if res.Status != engine.StatusRan {
		t.Fatalf("tasks step: %s %s %s", res.Status, res.Reason, res.Error)
	}
	a, err := e.Artifacts(res)
	if err != nil {
		t.Fatal(err)
	}
	jsonl, _ := a.Bytes("tasks.jsonl")
	if lines := strings.Count(string(jsonl), "\n"); lines != 1 || !strings.Contains(string(jsonl), `"a__linux-to-windows"`) {
		t.Errorf("tasks.jsonl:\n%s\nwant a's task only", jsonl)
	}
	var report Report
	if err := a.DecodeJSON("build-report.json", &report); err != nil {
		t.Fatal(err)
	}
	raw, _ := a.Bytes("build-report.json")
	if err := schematest.ValidateBytes(t, schematest.Compile(t, "build-report"), raw); err != nil {
		t.Errorf("build-report.json does not match its schema: %v\n%s", err, raw)
	}
	if report.Tasks != 1 || report.Failed != 1 || len(report.Entries) != 2 {
		t.Fatalf("report: %+v", report)
	}
	failed := report.Entries[1]
	if failed.InstanceID != "b__windows-to-linux" || !strings.Contains(failed.Failed, broken.ID+" failed") || !strings.Contains(failed.Failed, "nothing to record") {
		t.Errorf("failed entry: %+v", failed)
	}
	md, _ := a.Bytes("build-report.md")
	if !strings.Contains(string(md), "1 directions failed to build") || !strings.Contains(string(md), "| b__windows-to-linux |") {
		t.Errorf("build-report.md:\n%s", md)
	}
	b, _ := json.Marshal(report)
	if !strings.Contains(string(b), `"failed":1`) {
		t.Errorf("report JSON lacks the failed count: %s", b)
	}
}

// A candidate whose retried mask still crashed is listed with the reason
// and the first run's class.
func TestReportNamesARetriedMask(t *testing.T) {
	o := Outcome{InstanceID: "a__linux-to-windows", Repository: "a", Source: "linux", Target: "windows",
		Labels:    label.Labels{FailToPass: []string{"a/T"}},
		Mask:      maskrepo.Record{Coarse: true, Retry: &maskrepo.Retry{First: schemas.MaskedRun{Class: schemas.MaskHang}, Remasked: true}},
		MaskedRun: schemas.MaskedRun{Class: schemas.MaskCrash, FailToPassByStatus: map[schemas.Status]int{schemas.StatusMissing: 1}}}
	o.Rejected = loudMask(o)
	e := NewReportEntry(o)
	if e.FirstMaskClass != schemas.MaskHang || e.MaskClass != schemas.MaskCrash {
		t.Errorf("entry: %+v", e)
	}
	md := markdown(Report{Rejected: 1, Entries: []ReportEntry{e}})
	if !strings.Contains(md, "0 actions, coarse (retried: the first mask's run was hang)") ||
		!strings.Contains(md, "rejected: the masked target run crashes even with whole function bodies masked (the first mask hung)") {
		t.Errorf("build-report.md:\n%s", md)
	}
}
