//go:build linux

package testrun

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors/cpuload"
)

// TestStarvedTimeoutIsInfrastructure runs two suites that time out on a
// CPU kept busy by four loops: one whose test sleeps (a deadlock waits for
// no CPU, loaded machine or not) is the code's hang, reproduced and
// cached as before; one whose test spins on the busy CPU, waiting for it
// most of its run, is the machine's: an infrastructure failure with the
// figures, retried, not cached.
func TestStarvedTimeoutIsInfrastructure(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("per-command cgroups need a root osbench")
	}
	cpu := strconv.Itoa(cpuload.BusyCPU(t, 4))
	tests := []struct {
		name      string
		script    string
		wantInfra string
		wantLog   string
	}{
		{"a sleeping hang on a busy CPU is the code's", `echo "running 1 test"; exec taskset -c ` + cpu + ` sleep 120`, "", "the timeout reproduced"},
		{"a run starved of CPU is the machine's", `echo "running 1 test"; exec taskset -c ` + cpu + ` sh -c 'while :; do :; done'`, CauseStarved, "cpu starved: waited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// 10s: the starved run waits about 8s of it, past the
			// least wait that counts (minStarvedWait).
			rep, e := buildInfra(t, t.TempDir(), infraTestStep([]string{"sh", "-c", tt.script}, "libtest", "10s", nil))
			r := rep.Step("r/linux/test")
			log := stepLog(t, e, r)
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, "[osbench: cpu of") {
					t.Log(line)
				}
			}
			if r.Infra != tt.wantInfra {
				t.Fatalf("infra %q (status %s, error %q), want %q; log:\n%s", r.Infra, r.Status, r.Error, tt.wantInfra, log)
			}
			if !strings.Contains(log, tt.wantLog) || !strings.Contains(log, "[osbench: cpu of the timed-out run: waited") {
				t.Errorf("log lacks %q or the CPU figures:\n%s", tt.wantLog, log)
			}
			checkCaching(t, e, r, tt.wantInfra != "", log)
		})
	}
}
