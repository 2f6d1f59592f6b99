package executors

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// A command that runs out of time on a loaded machine did not hang: it
// waited for a CPU (issue 20). Each command of a root osbench runs in a
// cgroup2 cgroup of its own — beside its memory cgroup, or the same one
// when memory is limited through cgroup2 — whose cpu.pressure and cpu.stat
// the kernel keeps even with no controller enabled: how long the command's
// processes were runnable but waited for a CPU (pressure stall information,
// "some": at least one of them waiting), and how much CPU they used. The
// test step reads them to tell a starved test phase from a hung one. The
// figures describe the run, never enter a key.
//
// Where the command has no cgroup of its own (osbench not root, no cgroup2
// mounted) the figure is the whole host's stall during the run
// (/proc/pressure/cpu): on a loaded machine some process always waits,
// whether the command sleeps or spins, so it cannot tell the two apart and
// is only reported (CPUScope "host").

// cpuAccount is what a command's CPU figures are read from.
type cpuAccount struct {
	// cg is the command's cgroup2 cgroup, nil without one.
	cg *cgroupDir
	// hostBefore is the host's stall total (µs) when the command started,
	// -1 when unknown; read only without cg.
	hostBefore int64
}

// newCPUCgroup creates the command's cgroup in the cgroup2 hierarchy,
// below osbench's own.
func newCPUCgroup() (*cgroupDir, error) {
	parent, err := ownCgroupDir("")
	if err != nil {
		return nil, err
	}
	return newCgroupDir(parent)
}

// start notes the host's stall when the command has no cgroup.
func (a *cpuAccount) start() {
	a.hostBefore = -1
	if a.cg == nil {
		a.hostBefore = hostCPUWait()
	}
}

// figures reads the command's CPU time and CPU wait, and whose wait it is.
func (a *cpuAccount) figures() (used, wait time.Duration, scope string) {
	if a.cg != nil {
		p, perr := a.cg.read("cpu.pressure")
		s, serr := a.cg.read("cpu.stat")
		waitUS, wok := pressureTotal(p, "some")
		usedUS, uok := keyedValue(s, "usage_usec")
		if perr == nil && serr == nil && wok && uok {
			return time.Duration(usedUS) * time.Microsecond, time.Duration(waitUS) * time.Microsecond, CPUScopeCommand
		}
		return 0, 0, ""
	}
	if a.hostBefore < 0 {
		return 0, 0, ""
	}
	after := hostCPUWait()
	if after < a.hostBefore {
		return 0, 0, ""
	}
	return 0, time.Duration(after-a.hostBefore) * time.Microsecond, CPUScopeHost
}

// hostCPUWait is the host's total CPU stall ("some", µs) since boot, -1
// when the kernel keeps none.
func hostCPUWait() int64 {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return -1
	}
	n, ok := pressureTotal(b, "some")
	if !ok {
		return -1
	}
	return n
}

// pressureTotal reads the total= field of the line of kind ("some",
// "full") of a pressure file:
//
//	some avg10=0.00 avg60=0.00 avg300=0.00 total=71797409
func pressureTotal(b []byte, kind string) (int64, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != kind {
			continue
		}
		for _, kv := range f[1:] {
			if v, ok := strings.CutPrefix(kv, "total="); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				return n, err == nil && n >= 0
			}
		}
	}
	return 0, false
}
