package testrun

import (
	"testing"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
)

// TestStarvedTimeoutFigures is the rule of starvedTimeout on its figures:
// only a timed-out run whose own cgroup waited for a CPU a quarter of its
// wall time, at least minStarvedWait, while using under half the machine
// itself, is starved.
func TestStarvedTimeoutFigures(t *testing.T) {
	const s = time.Second
	tests := []struct {
		name    string
		res     executors.Result
		cpus    int
		starved bool
	}{
		{"waited most of the run", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 450 * s, CPUTime: 100 * s, CPUScope: executors.CPUScopeCommand}, 2, true},
		{"a quarter of the run", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 150 * s, CPUTime: 100 * s, CPUScope: executors.CPUScopeCommand}, 2, true},
		{"a sleeping hang", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 200 * time.Millisecond, CPUTime: s, CPUScope: executors.CPUScopeCommand}, 2, false},
		{"under a quarter", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 149 * s, CPUTime: 100 * s, CPUScope: executors.CPUScopeCommand}, 2, false},
		{"a short run's start-up", executors.Result{TimedOut: true, Duration: 2 * s, CPUWait: 1500 * time.Millisecond, CPUScope: executors.CPUScopeCommand}, 2, false},
		{"its own threads kept the machine busy", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 590 * s, CPUTime: 1100 * s, CPUScope: executors.CPUScopeCommand}, 2, false},
		{"the host's wait is not the command's", executors.Result{TimedOut: true, Duration: 600 * s, CPUWait: 590 * s, CPUScope: executors.CPUScopeHost}, 2, false},
		{"no figures", executors.Result{TimedOut: true, Duration: 600 * s}, 2, false},
		{"not timed out", executors.Result{Duration: 600 * s, CPUWait: 590 * s, CPUScope: executors.CPUScopeCommand}, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := starvedTimeout(tt.res, tt.cpus)
			if got := engine.InfraCause(err) == CauseStarved; got != tt.starved {
				t.Fatalf("starved %v (%v), want %v", got, err, tt.starved)
			}
		})
	}
}
