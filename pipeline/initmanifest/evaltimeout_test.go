package initmanifest

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestProposeEvalTimeouts(t *testing.T) {
	const presetEval, presetTimeout = 10 * time.Minute, 20 * time.Minute
	run := func(platform string, took time.Duration) PlatformRun {
		return PlatformRun{Platform: platform, Took: took, Timeout: presetTimeout, EvalTimeout: presetEval}
	}
	tests := []struct {
		name string
		runs []PlatformRun
		want map[string]string // platform → value, and "timeout=" a raised timeout
	}{
		{"a fast suite gets the floor", []PlatformRun{run("linux", 4*time.Second)}, map[string]string{"linux": "5m"}},
		{"the first rung at or above three times", []PlatformRun{run("windows", 4*time.Minute)}, map[string]string{"windows": "20m"}},
		// A slower first run (a cold cache, a loaded machine) within the
		// same rung proposes the same.
		{"the same rung for a slower first run", []PlatformRun{run("windows", 6*time.Minute+30*time.Second)}, map[string]string{"windows": "20m"}},
		{"above the timeout, the timeout is raised with it", []PlatformRun{run("windows", 8*time.Minute)}, map[string]string{"windows": "30m timeout=30m"}},
		{"what the preset gives is not written", []PlatformRun{run("linux", 200*time.Second)}, nil},
		{"no duration, no proposal", []PlatformRun{run("linux", 0)}, nil},
		{"both platforms", []PlatformRun{run("linux", 10*time.Second), run("windows", 50*time.Minute)}, map[string]string{"linux": "5m", "windows": "2h timeout=2h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			for p, et := range ProposeEvalTimeouts(tt.runs) {
				got[p] = et.Value
				if et.Timeout != "" {
					got[p] += " timeout=" + et.Timeout
					if !strings.Contains(et.Reason, "timeout raised from 20m to "+et.Timeout) {
						t.Errorf("%s: reason %q does not say the timeout is raised", p, et.Reason)
					}
				}
				if et.Reason == "" {
					t.Errorf("%s: no reason", p)
				}
			}
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFormatMinutes(t *testing.T) {
	for d, want := range map[time.Duration]string{2 * time.Minute: "2m", time.Hour: "1h", 90 * time.Minute: "1h30m"} {
		if got := formatMinutes(d); got != want {
			t.Errorf("formatMinutes(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestTestPhase: the proposal's base is the test command's time, not the
// build's: c-ares' first Linux run (13m07s, 12m of it the build) proposed
// a 1h timeout for a one-minute suite.
func TestTestPhase(t *testing.T) {
	const build = "$ bash -eo pipefail -c ...\n[100%] Built target arestest\n[osbench: build exit 0, timed out false, 12m1.5s]\n$ bash ... gtest\n"
	tests := []struct {
		name string
		took time.Duration
		log  string
		want time.Duration
	}{
		{"build subtracted", 13*time.Minute + 7*time.Second, build, 65*time.Second + 500*time.Millisecond},
		{"no build line (a Go run)", 2 * time.Minute, "=== RUN TestX\n", 2 * time.Minute},
		{"a build longer than the step (a log from another run)", time.Minute, build, time.Minute},
		{"a duration that does not parse", time.Minute, "[osbench: build exit 0, timed out false, soon]\n", time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testPhase(tt.took, []byte(tt.log)); got != tt.want {
				t.Errorf("testPhase = %v, want %v", got, tt.want)
			}
		})
	}
	// What it changes: c-ares' Linux proposal (preset timeout 10m, eval 5m).
	run := PlatformRun{Platform: "linux", Took: testPhase(13*time.Minute+7*time.Second, []byte(build)), Timeout: 10 * time.Minute, EvalTimeout: 5 * time.Minute}
	if got := ProposeEvalTimeouts([]PlatformRun{run}); got != nil {
		t.Errorf("c-ares' Linux run: proposed %+v, want none (3× its 66 s test phase is the preset's 5m)", got)
	}
}
