package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// task is what the generator needs of a tasks.jsonl record, with where
// its masked repository and the build's exports lie.
type task struct {
	ID       string `json:"instance_id"`
	Repo     string `json:"repo"`
	Patch    string `json:"patch"`
	Language string `json:"language"`
	Source   string `json:"source_os"`
	Target   string `json:"target_os"`
	Upstream *struct {
		Kind    string `json:"kind"`
		Repo    string `json:"repo"`
		Version string `json:"version"`
	} `json:"upstream"`
	LockedDeps *struct {
		Dependencies []string `json:"dependencies"`
	} `json:"locked_deps"`

	// line is the record as it is in tasks.jsonl, written unchanged into
	// the subset the evaluation reads.
	line []byte
}

// readTasks reads a tasks.jsonl.
func readTasks(path string) ([]*task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var tasks []*task
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		t := &task{}
		if err := json.Unmarshal(line, t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		t.line = append([]byte(nil), line...)
		tasks = append(tasks, t)
	}
	return tasks, sc.Err()
}

// goldFiles are the repository paths the gold patch writes: the masked
// files.
func (t *task) goldFiles() []string {
	var files []string
	for _, m := range regexp.MustCompile(`(?m)^diff --git a/(\S+) b/`).FindAllStringSubmatch(t.Patch, -1) {
		files = append(files, m[1])
	}
	return files
}

// direction is the task's "<source>-to-<target>"; other is the reverse,
// the direction whose task masks the other platform's code and so keeps
// this task's masked files whole in its export.
func (t *task) direction() string { return t.Source + "-to-" + t.Target }
func (t *task) other() string     { return t.Target + "-to-" + t.Source }

// otherID is the instance id of the task of the other direction (the
// repository's name in the manifest, which the id starts with, is not
// always the record's repo: a Go task's is the module path).
func (t *task) otherID() string {
	return strings.TrimSuffix(t.ID, "__"+t.direction()) + "__" + t.other()
}

// crateName is the [package] name of the repository's Cargo.toml.
func crateName(repo string) (name, version string, err error) {
	b, err := os.ReadFile(filepath.Join(repo, "Cargo.toml"))
	if err != nil {
		return "", "", err
	}
	pkg := string(b)
	if i := strings.Index(pkg, "[package]"); i >= 0 {
		pkg = pkg[i:]
	}
	if i := strings.Index(pkg[1:], "\n["); i >= 0 {
		pkg = pkg[:i+1]
	}
	n := regexp.MustCompile(`(?m)^name\s*=\s*"([^"]+)"`).FindStringSubmatch(pkg)
	v := regexp.MustCompile(`(?m)^version\s*=\s*"([^"]+)"`).FindStringSubmatch(pkg)
	if n == nil || v == nil {
		return "", "", fmt.Errorf("%s/Cargo.toml: no [package] name and version", repo)
	}
	return n[1], v[1], nil
}

// goModule is the module path of the repository's go.mod.
func goModule(repo string) (string, error) {
	b, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("%s/go.mod: no module line", repo)
	}
	return strings.Trim(string(m[1]), `"`), nil
}

// complete returns the masked files as the gold patch makes them: the
// original sources an attack wants back.
func (t *task) complete(masked string) (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "osbench-redteam-gold-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := copyTree(masked, dir); err != nil {
		return nil, err
	}
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(t.Patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: the gold patch does not apply to %s: %v: %s", t.ID, masked, err, out)
	}
	files := map[string][]byte{}
	for _, f := range t.goldFiles() {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue // the gold patch deletes it
		}
		files[f] = b
	}
	return files, nil
}

// copyTree copies a directory tree (regular files, directories and
// links) with cp, which keeps modes.
func copyTree(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	out, err := exec.Command("cp", "-a", from+"/.", to).CombinedOutput()
	if err != nil {
		return fmt.Errorf("copy %s: %v: %s", from, err, out)
	}
	return nil
}

// makePatch is the diff an edit makes to a copy of the masked repository,
// as `git diff` writes it (new files included).
func makePatch(masked string, edit func(dir string) error) (string, error) {
	dir, err := os.MkdirTemp("", "osbench-redteam-patch-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := copyTree(masked, dir); err != nil {
		return "", err
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=redteam", "-c", "user.email=redteam@osbench.invalid", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, stderr.Bytes())
		}
		return string(out), nil
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A", "-f"}, {"commit", "-q", "--allow-empty", "-m", "masked"}} {
		if _, err := git(args...); err != nil {
			return "", err
		}
	}
	if err := edit(dir); err != nil {
		return "", err
	}
	if _, err := git("add", "-A", "-f"); err != nil {
		return "", err
	}
	patch, err := git("diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames")
	if err != nil {
		return "", err
	}
	if patch == "" {
		return "", fmt.Errorf("the edit changed nothing in %s", masked)
	}
	return patch, nil
}
