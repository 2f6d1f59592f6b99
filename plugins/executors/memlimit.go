package executors

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Each command of a root osbench runs in a memory cgroup of its own, a
// child of osbench's own: the kernel's OOM killer then acts inside the
// step when the step passes its limit, never on a neighbour, and the
// cgroup's own count of OOM kills says, without guessing from /proc/vmstat
// (machine-wide), that it did (issue 20). cgroup v1's memory hierarchy is
// used where the kernel mounts one (this project's machines: hybrid v1/v2),
// else v2's when the memory controller is enabled for osbench's cgroup's
// children; without either, commands run without a limit and osbench says
// so once.
//
// The limit cannot change a result that is not an OOM kill: a cgroup
// limit never makes an allocation fail (malloc and mmap succeed; only a
// page fault past the limit, after reclaiming the cgroup's page cache,
// calls the OOM killer), and a step killed by it is an infrastructure
// failure, never cached. So the limit is an executor setting outside every
// key, and a run under a lower limit either gives the same result or none.

// MemoryLimitVar is the environment variable of osbench that sets the
// memory limit of each command: a size ("8G", "512M", "1073741824") or
// "0" for none. Its default is half the host's memory, at least 1 GiB.
const MemoryLimitVar = "OSBENCH_STEP_MEMORY"

// DefaultMemoryLimit is the limit of each command: MemoryLimitVar, or half
// the host's memory. A bad value is said once and the default used.
func DefaultMemoryLimit() int64 {
	if v, ok := os.LookupEnv(MemoryLimitVar); ok && strings.TrimSpace(v) != "" {
		n, err := parseSize(v)
		if err == nil {
			return n
		}
		warnOnce(fmt.Sprintf("%s=%q: %v; using the default (half the host's memory)", MemoryLimitVar, v, err))
	}
	total := hostMemory()
	if total <= 0 {
		return 0
	}
	return max(total/2, 1<<30)
}

// parseSize reads a size in bytes with an optional binary suffix K, M, G
// or T (KiB … TiB; a trailing "B" or "iB" is allowed).
func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), "I")
	mult := int64(1)
	if s != "" {
		if i := strings.IndexByte("KMGT", s[len(s)-1]); i >= 0 {
			mult = 1 << (10 * (i + 1))
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, errors.New("not a size (want bytes, or a number with K, M, G or T)")
	}
	return n * mult, nil
}

// HostMemoryBytes is the host's memory (MemTotal), 0 when unknown.
func HostMemoryBytes() int64 { return hostMemory() }

// hostMemory is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func hostMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
