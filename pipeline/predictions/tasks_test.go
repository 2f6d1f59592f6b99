package predictions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestReadTasks(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"a__linux-to-windows", "b__linux-to-windows"} {
		if err := os.MkdirAll(filepath.Join(dir, "tasks", id, "repo"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	line := func(id string, platforms ...string) string {
		task := schemas.Task{InstanceID: id, SourceOS: "linux", TargetOS: "windows", Environment: map[string]schemas.TestEnvironment{}}
		for _, p := range platforms {
			task.Environment[p] = schemas.TestEnvironment{TestCommand: []string{"go", "test"}, Executor: "local"}
		}
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	content := strings.Join([]string{
		line("a__linux-to-windows", "linux", "windows"),
		"",
		`{"instance_id":"x","flaky":true}`,
		line("../escape", "linux", "windows"),
		line("a__linux-to-windows", "linux", "windows"),
		line("b__linux-to-windows", "linux"),
		line("c__linux-to-windows", "linux", "windows"),
	}, "\n")
	path := filepath.Join(dir, "tasks.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks, problems, err := ReadTasks(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].InstanceID != "a__linux-to-windows" || tasks[0].Where != path+":1" ||
		tasks[0].RepoDir != filepath.Join(dir, "tasks", "a__linux-to-windows", "repo") || !strings.HasPrefix(tasks[0].Digest, "sha256:") {
		t.Errorf("tasks = %+v", tasks)
	}
	want := []struct {
		line     int
		fragment string
	}{
		{3, "not a task"},
		{4, `bad instance_id "../escape"`},
		{5, "instance a__linux-to-windows repeats the task at " + path + ":1"},
		{6, "task b__linux-to-windows has no environment for windows"},
		{7, "task c__linux-to-windows: no repository at"},
	}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v", problems)
	}
	for i, w := range want {
		got := problems[i].Error()
		if !strings.HasPrefix(got, fmt.Sprintf("%s:%d: ", path, w.line)) || !strings.Contains(got, w.fragment) {
			t.Errorf("problem %d = %q, want line %d and %q", i, got, w.line, w.fragment)
		}
	}
}
