package executors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// memCgroup is the memory cgroup of one command.
type memCgroup struct {
	*cgroupDir
	v2 bool
}

// newMemCgroup creates a memory cgroup limited to limit bytes below
// osbench's own. It returns nil and the reason when the host gives none.
func newMemCgroup(limit int64) (*memCgroup, error) {
	parent, v2, err := ownMemoryCgroup()
	if err != nil {
		return nil, err
	}
	dir, err := newCgroupDir(parent)
	if err != nil {
		return nil, fmt.Errorf("creating a memory cgroup: %w", err)
	}
	m := &memCgroup{cgroupDir: dir, v2: v2}
	file := "memory.limit_in_bytes"
	if v2 {
		file = "memory.max"
		// No swap either: a step past its limit is killed, not slowed
		// down for hours.
		_ = os.WriteFile(filepath.Join(m.dir, "memory.swap.max"), []byte("0"), 0o644)
	}
	if err := os.WriteFile(filepath.Join(m.dir, file), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
		m.remove()
		return nil, fmt.Errorf("setting the memory limit: %w", withoutPath(err))
	}
	return m, nil
}

// ownMemoryCgroup finds the directory of osbench's own memory cgroup: in
// the v1 memory hierarchy when one is mounted, else in the v2 one when the
// memory controller is enabled for its children.
func ownMemoryCgroup() (dir string, v2 bool, err error) {
	if d, err := ownCgroupDir("memory"); err == nil {
		return d, false, nil
	}
	d, err := ownCgroupDir("")
	if err != nil {
		return "", false, errors.New("no memory cgroup hierarchy is mounted")
	}
	ctl, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
	if err == nil && strings.Contains(" "+strings.TrimSpace(string(ctl))+" ", " memory ") {
		return d, true, nil
	}
	return "", false, fmt.Errorf("cgroup v2: the memory controller is not enabled below %s", d)
}

// oomKills is the number of processes the OOM killer killed in the cgroup.
func (m *memCgroup) oomKills() int {
	file := "memory.oom_control" // v1: "oom_kill N" since Linux 4.13
	if m.v2 {
		file = "memory.events"
	}
	b, err := m.read(file)
	if err != nil {
		return 0
	}
	n, _ := keyedValue(b, "oom_kill")
	return int(n)
}
