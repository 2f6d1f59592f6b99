package predictions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// Task is a task to evaluate: its tasks.jsonl record, the digest of that
// line (the task's identity in verdict keys), and its masked repository.
type Task struct {
	schemas.Task
	Digest  string // "sha256:<hex>" of the line as written
	RepoDir string // <dir of tasks.jsonl>/tasks/<instance_id>/repo
	Where   string // file:line
}

// ReadTasks reads a tasks.jsonl written by `osbench build --out`. Lines that
// do not decode strictly, repeat an instance, or whose repository is missing
// are problems; the other tasks are returned.
func ReadTasks(path string) ([]Task, []Problem, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	base := filepath.Dir(path)
	var tasks []Task
	var problems []Problem
	seen := map[string]string{}
	err = eachLine(path, b, func(where string, line []byte) {
		t, err := readTask(base, line, seen)
		if err != nil {
			problems = append(problems, Problem{where, err.Error()})
			return
		}
		seen[t.InstanceID] = where
		t.Where = where
		tasks = append(tasks, t)
	})
	if err != nil {
		return nil, nil, err
	}
	return tasks, problems, nil
}

// readTask decodes one line strictly and checks it names a new instance
// with an environment for both platforms and a repository under base.
func readTask(base string, line []byte, seen map[string]string) (Task, error) {
	var t schemas.Task
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Task{}, fmt.Errorf("not a task: %v", err)
	}
	if t.InstanceID == "" || filepath.Base(t.InstanceID) != t.InstanceID || t.InstanceID == ".." {
		return Task{}, fmt.Errorf("bad instance_id %q", t.InstanceID)
	}
	if at, dup := seen[t.InstanceID]; dup {
		return Task{}, fmt.Errorf("instance %s repeats the task at %s", t.InstanceID, at)
	}
	if missing := missingEnvironment(t); missing != "" {
		return Task{}, fmt.Errorf("task %s has no environment for %s", t.InstanceID, missing)
	}
	repo := filepath.Join(base, "tasks", t.InstanceID, "repo")
	if fi, err := os.Stat(repo); err != nil || !fi.IsDir() {
		return Task{}, fmt.Errorf("task %s: no repository at %s", t.InstanceID, repo)
	}
	return Task{Task: t, Digest: "sha256:" + string(cache.Sum(line)), RepoDir: repo}, nil
}

// missingEnvironment names a platform of the task's direction that its
// environment does not describe, or "".
func missingEnvironment(t schemas.Task) string {
	for _, platform := range []string{t.SourceOS, t.TargetOS} {
		if _, ok := t.Environment[platform]; !ok {
			return platform
		}
	}
	return ""
}
