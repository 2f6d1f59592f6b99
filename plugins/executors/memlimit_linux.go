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

// memCgroup is the memory cgroup of one command.
type memCgroup struct {
	dir string
	v2  bool
}

var memCgroupSeq atomic.Int64

// newMemCgroup creates a memory cgroup limited to limit bytes below
// osbench's own. It returns nil and the reason when the host gives none.
func newMemCgroup(limit int64) (*memCgroup, error) {
	parent, v2, err := ownMemoryCgroup()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(parent, fmt.Sprintf("osbench-%d-%d", os.Getpid(), memCgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating a memory cgroup: %w", err)
	}
	m := &memCgroup{dir: dir, v2: v2}
	file := "memory.limit_in_bytes"
	if v2 {
		file = "memory.max"
		// No swap either: a step past its limit is killed, not slowed
		// down for hours.
		_ = os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0o644)
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
		m.remove()
		return nil, fmt.Errorf("setting the memory limit: %w", err)
	}
	return m, nil
}

// ownMemoryCgroup finds the directory of osbench's own memory cgroup: in
// the v1 memory hierarchy when one is mounted, else in the v2 one when the
// memory controller is enabled for its children.
func ownMemoryCgroup() (dir string, v2 bool, err error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", false, err
	}
	var v1Path, v2Path string
	hasV2 := false
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2Path, hasV2 = parts[2], true
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "memory" {
				v1Path = parts[2]
			}
		}
	}
	mounts, err := cgroupMounts()
	if err != nil {
		return "", false, err
	}
	if m, ok := mounts["memory"]; ok && v1Path != "" {
		return m.join(v1Path), false, nil
	}
	if m, ok := mounts[""]; ok && hasV2 {
		d := m.join(v2Path)
		ctl, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
		if err == nil && strings.Contains(" "+strings.TrimSpace(string(ctl))+" ", " memory ") {
			return d, true, nil
		}
		return "", false, fmt.Errorf("cgroup v2: the memory controller is not enabled below %s", d)
	}
	return "", false, errors.New("no memory cgroup hierarchy is mounted")
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
				if opt == "memory" {
					out["memory"] = m
				}
			}
		}
	}
	return out, nil
}

// add moves pid, and so all it starts from then on, into the cgroup.
func (m *memCgroup) add(pid int) error {
	return os.WriteFile(filepath.Join(m.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
}

// oomKills is the number of processes the OOM killer killed in the cgroup.
func (m *memCgroup) oomKills() int {
	file := "memory.oom_control" // v1: "oom_kill N" since Linux 4.13
	if m.v2 {
		file = "memory.events"
	}
	b, err := os.ReadFile(filepath.Join(m.dir, file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// remove deletes the cgroup once its processes are gone (they are being
// reaped as the command's init exits: a moment's retry).
func (m *memCgroup) remove() {
	for i := 0; i < 50; i++ {
		err := syscall.Rmdir(m.dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	warnOnce("a memory cgroup of a step could not be removed (a process of it lives on): " + m.dir)
}
