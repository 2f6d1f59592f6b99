package evalrun

import (
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/predictions"
	"github.com/osbench/osbench/schemas"
)

func TestReference(t *testing.T) {
	tasks := []predictions.Task{
		{Task: schemas.Task{InstanceID: "a__linux-to-windows", Patch: "diff --git a/x b/x\n"}, Where: "tasks.jsonl:1"},
		{Task: schemas.Task{InstanceID: "b__windows-to-linux", Patch: "diff --git a/y b/y\n"}, Where: "tasks.jsonl:2"},
	}
	gold := reference(Gold, tasks)
	empty := reference(Empty, tasks)
	if len(gold) != 2 || gold[1].Patch != tasks[1].Patch || gold[0].Model != "gold" || gold[0].Where != "tasks.jsonl:1" {
		t.Errorf("gold predictions: %+v", gold)
	}
	if len(empty) != 2 || empty[0].Patch != "" || empty[1].Model != "empty" {
		t.Errorf("empty predictions: %+v", empty)
	}
	if reference("predictions.jsonl", tasks) != nil {
		t.Error("a file name was taken for a reference model")
	}
}

// The apply steps run in the first phase and are served from the cache in
// the second; the count takes what they did from the first.
func TestCountSteps(t *testing.T) {
	apply := stepIndex{
		"a/apply": {ID: "a/apply", Status: engine.StatusRan},
		"b/apply": {ID: "b/apply", Status: engine.StatusHit},
	}
	run := stepIndex{
		"a/apply":   {ID: "a/apply", Status: engine.StatusHit},
		"b/apply":   {ID: "b/apply", Status: engine.StatusHit},
		"a/test":    {ID: "a/test", Status: engine.StatusFailed},
		"a/verdict": {ID: "a/verdict", Status: engine.StatusBlocked},
		"b/verdict": {ID: "b/verdict", Status: engine.StatusRan},
	}
	s := countSteps(run, apply)
	if s.Total != 5 || s.Ran != 2 || s.Hit != 1 || s.Failed != 1 || s.Blocked != 1 {
		t.Errorf("counts = %+v", s)
	}
}
