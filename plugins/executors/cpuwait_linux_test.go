package executors

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/executors/cpuload"
)

// TestCPUFiguresTellSleepFromStarvation runs, beside busy loops pinned
// to one CPU, a command that sleeps and one that spins on that CPU: both
// have their own cgroup's figures; the sleeper waited for a CPU for a
// small part of its run, the spinner for most of it while it used little.
// The per-command cgroups are gone afterwards.
func TestCPUFiguresTellSleepFromStarvation(t *testing.T) {
	requireRoot(t)
	parent, err := ownCgroupDir("")
	if err != nil {
		t.Skipf("no cgroup2 hierarchy: %v", err)
	}
	cpu := strconv.Itoa(cpuload.BusyCPU(t, 4))
	tests := []struct {
		name    string
		argv    []string
		timeout time.Duration
		starved bool
	}{
		{"sleeps", []string{"taskset", "-c", cpu, "sleep", "4"}, 0, false},
		{"spins on the busy CPU", []string{"taskset", "-c", cpu, "sh", "-c", "while :; do :; done"}, 4 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLocal(t)
			res, err := l.Run(context.Background(), Cmd{Argv: tt.argv, WorkDir: scratchDir(t), Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("wall %s, cpu wait %s, cpu time %s, scope %q", res.Duration, res.CPUWait, res.CPUTime, res.CPUScope)
			if res.CPUScope != CPUScopeCommand {
				t.Fatalf("scope %q, want %q", res.CPUScope, CPUScopeCommand)
			}
			// Half the wall time: the sleeper's wait is its start-up
			// (well under a second even at load 20), the spinner's is
			// about 4/5 of its run.
			if got := res.CPUWait > res.Duration/2; got != tt.starved {
				t.Errorf("waited %s of %s: starved %v, want %v", res.CPUWait, res.Duration, got, tt.starved)
			}
			if tt.starved && res.CPUTime > res.Duration/2 {
				t.Errorf("used %s of CPU in %s pinned beside 4 busy loops", res.CPUTime, res.Duration)
			}
			left, _ := filepath.Glob(filepath.Join(parent, "osbench-"+strconv.Itoa(os.Getpid())+"-*"))
			if len(left) > 0 {
				t.Errorf("cgroups left behind: %v", left)
			}
		})
	}
}

// TestPressureTotal reads the total of a pressure file's line, and says
// so when there is none to read rather than taking a 0.
func TestPressureTotal(t *testing.T) {
	tests := []struct {
		name, in, kind string
		want           int64
		ok             bool
	}{
		{"some", "some avg10=1.00 avg60=0.50 avg300=0.10 total=71797409\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=12\n", "some", 71797409, true},
		{"full", "some avg10=1.00 avg60=0.50 avg300=0.10 total=7\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=12\n", "full", 12, true},
		{"no such line", "full avg10=0.00 total=12\n", "some", 0, false},
		{"no total", "some avg10=1.00 avg60=0.50\n", "some", 0, false},
		{"not a number", "some avg10=1.00 total=lots\n", "some", 0, false},
		{"negative", "some total=-4\n", "some", 0, false},
		{"empty", "", "some", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := pressureTotal([]byte(tt.in), tt.kind)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Fatalf("pressureTotal = %d, %v; want %d, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
