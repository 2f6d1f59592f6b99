package executors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// A command of a root osbench gets cgroups of its own, children of
// osbench's: one in the memory hierarchy for its limit and its OOM kills
// (memlimit_linux.go), one in the cgroup2 hierarchy for its CPU figures
// (cpuwait_linux.go) — the same one when the memory hierarchy is cgroup2.
// This file is what they share: where osbench's own cgroup of a hierarchy
// is, and one command's cgroup directory. Only a root osbench makes them:
// its PID namespace kills every process of the command with the init, so
// the cgroups are empty, and can be removed, when the command ends.

// cgroupDir is the cgroup of one command in one hierarchy.
type cgroupDir struct{ dir string }

var cgroupSeq atomic.Int64

// newCgroupDir creates a cgroup below parent for one command.
func newCgroupDir(parent string) (*cgroupDir, error) {
	dir := filepath.Join(parent, fmt.Sprintf("osbench-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating a cgroup below %s: %w", parent, withoutPath(err))
	}
	return &cgroupDir{dir: dir}, nil
}

// withoutPath drops the path of a file error: a warning that names one
// command's cgroup would be said for every command (warnOnce says each
// distinct text once).
func withoutPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// add moves pid, and so all it starts from then on, into the cgroup.
func (c *cgroupDir) add(pid int) error {
	if err := os.WriteFile(filepath.Join(c.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		return fmt.Errorf("moving the command into a cgroup below %s: %w", filepath.Dir(c.dir), withoutPath(err))
	}
	return nil
}

// read reads one of the cgroup's files.
func (c *cgroupDir) read(file string) ([]byte, error) {
	return os.ReadFile(filepath.Join(c.dir, file))
}

// remove deletes the cgroup once its processes are gone (they are being
// reaped as the command's init exits: a moment's retry). Removing one
// already gone is fine.
func (c *cgroupDir) remove() {
	for i := 0; i < 50; i++ {
		err := syscall.Rmdir(c.dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	warnOnce("a cgroup of a step could not be removed (a process of it lives on): " + c.dir)
}

// keyedValue reads the number after key in a cgroup file of "key N"
// lines (memory.events, cpu.stat).
func keyedValue(b []byte, key string) (int64, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// ownCgroups reads /proc/self/cgroup: osbench's cgroup path in the v1
// hierarchy of each controller by name, and in the v2 one under "" (absent
// when there is none).
func ownCgroups() (map[string]string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c != "" {
				out[c] = parts[2]
			}
		}
	}
	return out, nil
}

// cgroupMount is where a cgroup hierarchy is mounted and which of its
// cgroups is the mount's root.
type cgroupMount struct{ point, root string }

func (m cgroupMount) join(cgPath string) string {
	rel, err := filepath.Rel(m.root, cgPath)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	return filepath.Join(m.point, rel)
}

// cgroupMounts reads /proc/self/mountinfo: the v1 hierarchy of each
// controller by name, and the v2 one under "".
func cgroupMounts() (map[string]cgroupMount, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	out := map[string]cgroupMount{}
	for _, line := range strings.Split(string(b), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		m := cgroupMount{point: f[4], root: f[3]}
		switch g[0] {
		case "cgroup2":
			out[""] = m
		case "cgroup":
			for _, opt := range strings.Split(g[2], ",") {
				if _, seen := out[opt]; !seen {
					out[opt] = m
				}
			}
		}
	}
	return out, nil
}

// ownCgroupDir is the directory of osbench's own cgroup in the hierarchy
// of controller ("" for cgroup2), or an error saying why there is none.
func ownCgroupDir(controller string) (string, error) {
	own, err := ownCgroups()
	if err != nil {
		return "", err
	}
	mounts, err := cgroupMounts()
	if err != nil {
		return "", err
	}
	m, mounted := mounts[controller]
	p, member := own[controller]
	name := controller
	if name == "" {
		name = "cgroup2"
	}
	if !mounted || !member {
		return "", fmt.Errorf("no %s hierarchy is mounted", name)
	}
	return m.join(p), nil
}
