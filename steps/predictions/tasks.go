package predictions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/steps/taskpkg"
)

// Task is a task to evaluate: its tasks.jsonl record, the digest of that
// line (the task's identity in verdict keys), and its masked repository.
type Task struct {
	taskpkg.Task
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
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 256<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, n)
		var t taskpkg.Task
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			problems = append(problems, Problem{where, "not a task: " + err.Error()})
			continue
		}
		if t.InstanceID == "" || filepath.Base(t.InstanceID) != t.InstanceID || t.InstanceID == ".." {
			problems = append(problems, Problem{where, fmt.Sprintf("bad instance_id %q", t.InstanceID)})
			continue
		}
		if at, dup := seen[t.InstanceID]; dup {
			problems = append(problems, Problem{where, fmt.Sprintf("instance %s repeats the task at %s", t.InstanceID, at)})
			continue
		}
		seen[t.InstanceID] = where
		if missing := missingEnvironment(t); missing != "" {
			problems = append(problems, Problem{where, fmt.Sprintf("task %s has no environment for %s", t.InstanceID, missing)})
			continue
		}
		repo := filepath.Join(base, "tasks", t.InstanceID, "repo")
		if fi, err := os.Stat(repo); err != nil || !fi.IsDir() {
			problems = append(problems, Problem{where, fmt.Sprintf("task %s: no repository at %s", t.InstanceID, repo)})
			continue
		}
		tasks = append(tasks, Task{Task: t, Digest: "sha256:" + string(cache.Sum(line)), RepoDir: repo, Where: where})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return tasks, problems, nil
}

// missingEnvironment names a platform of the task's direction that its
// environment does not describe, or "".
func missingEnvironment(t taskpkg.Task) string {
	for _, platform := range []string{t.SourceOS, t.TargetOS} {
		if _, ok := t.Environment[platform]; !ok {
			return platform
		}
	}
	return ""
}
