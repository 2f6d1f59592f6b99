// Package cpuload starves a command of CPU for real, for the tests of the
// executors' CPU figures and of the test step's starvation rule.
package cpuload

import (
	"os/exec"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// BusyCPU starts n busy loops pinned to one CPU of this process's
// affinity set and returns that CPU; they are killed when the test ends.
// A command pinned there too waits for it most of the time, whatever the
// rest of the machine does: more load only makes it wait longer.
func BusyCPU(t testing.TB, n int) int {
	t.Helper()
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	cpu := -1
	for i := 0; i < 1024; i++ {
		if set.IsSet(i) {
			cpu = i
		}
	}
	if cpu < 0 {
		t.Fatal("no CPU in this process's affinity set")
	}
	for i := 0; i < n; i++ {
		c := exec.Command("taskset", "-c", strconv.Itoa(cpu), "sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
	return cpu
}
