package testrun

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
)

// CauseStarved is the cause of a test phase that ran out of time while it
// waited for a CPU: the machine's load, not the code, used up its limit.
const CauseStarved = "test-phase timeout while starved of CPU"

// A timed-out test phase is the machine's when the command's own processes
// spent a large part of the run waiting for a CPU (issue 20). The figures
// come from the command's own cgroup (executors.Result.CPUWait, CPUTime):
//
//   - a hung test that sleeps (a deadlock, a wait on a socket) waits for no
//     CPU, however loaded the machine: its timeout is the code's;
//   - a test that spins on an idle machine has a CPU whenever it wants one:
//     no wait, the code's;
//   - a suite that needed 1m40s of CPU and did not get it in its 10 minutes
//     waited for most of them: the machine's.
//
// starvedWaitShare is the share of the run's wall time the command must
// have waited for it to count as starved. A run that times out because of
// the load lost the difference between its limit and its idle duration;
// a limit at least twice a suite's idle time puts that at more than half
// the wall time for a CPU-bound suite, and a quarter leaves room for
// suites that also sleep or read the disk. Erring low is the safe side:
// a hang taken for starvation is an infrastructure failure (not cached,
// retried, reported), a starved run taken for a hang is a wrong result
// cached for good.
//
// minStarvedWait is the least wait that counts. Starting a command (the
// sandbox's namespaces and mounts, a shell, a test binary's loading) waits
// for a CPU on a loaded machine whatever the code does; on a limit of
// seconds that fixed cost alone could pass the share.
//
// maxOwnUse guards the other way: a command that kept more than half the
// machine's CPUs busy itself (a test spinning many threads on an idle
// machine) made its own wait, and a patch could do so on purpose. Its
// timeout stays the code's. (On a loaded machine such a patch can still
// make itself look starved: that turns its verdict into an infrastructure
// failure, never into a pass.)
const (
	starvedWaitShare = 0.25
	minStarvedWait   = 5 * time.Second
	maxOwnUse        = 0.5
)

// starvedTimeout says whether a timed-out test phase was starved of CPU,
// as an infrastructure failure with the figures; nil when the timeout may
// be the code's. cpus is the number of CPUs the command could use.
func starvedTimeout(res executors.Result, cpus int) error {
	if !res.TimedOut || res.CPUScope != executors.CPUScopeCommand || res.Duration <= 0 {
		return nil
	}
	wall := res.Duration
	if res.CPUWait < minStarvedWait || float64(res.CPUWait) < starvedWaitShare*float64(wall) {
		return nil
	}
	if float64(res.CPUTime) > maxOwnUse*float64(cpus)*float64(wall) {
		return nil
	}
	return engine.Infra(CauseStarved, fmt.Errorf("cpu starved: waited %s of %s for a CPU (used %s of CPU time): the machine's load, not the code, used up the limit",
		res.CPUWait.Round(time.Second), wall.Round(time.Second), res.CPUTime.Round(time.Second)))
}

// logCPU writes a timed-out run's CPU figures into the step's log, so a
// person sees why it was or was not taken for the machine's.
func logCPU(w io.Writer, res executors.Result) {
	switch res.CPUScope {
	case executors.CPUScopeCommand:
		fmt.Fprintf(w, "[osbench: cpu of the timed-out run: waited %s for a CPU, used %s, in %s]\n",
			res.CPUWait.Round(time.Millisecond), res.CPUTime.Round(time.Millisecond), res.Duration.Round(time.Millisecond))
	case executors.CPUScopeHost:
		fmt.Fprintf(w, "[osbench: the command had no cgroup of its own: the host's processes waited %s for a CPU during the run, which cannot tell a starved run from a hung one]\n",
			res.CPUWait.Round(time.Millisecond))
	}
}

// commandCPUs is the number of CPUs a command of this osbench can use.
func commandCPUs() int { return runtime.NumCPU() }
