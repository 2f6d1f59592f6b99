package initmanifest

import (
	"reflect"
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
		want map[string]string // platform → value
	}{
		{"a fast suite gets the floor", []PlatformRun{run("linux", 4*time.Second)}, map[string]string{"linux": "5m"}},
		{"three times, rounded up to the fixed set", []PlatformRun{run("windows", 250*time.Second)}, map[string]string{"windows": "20m"}},
		{"a loaded run up to twice as long proposes the same", []PlatformRun{run("windows", 400*time.Second)}, map[string]string{"windows": "20m"}},
		{"never above the timeout", []PlatformRun{run("windows", 8*time.Minute)}, map[string]string{"windows": "20m"}},
		{"what the preset gives is not written", []PlatformRun{run("linux", 150*time.Second)}, nil},
		{"no duration, no proposal", []PlatformRun{run("linux", 0)}, nil},
		{"both platforms", []PlatformRun{run("linux", 10*time.Second), run("windows", 50*time.Minute)}, map[string]string{"linux": "5m", "windows": "20m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			for p, et := range ProposeEvalTimeouts(tt.runs) {
				got[p] = et.Value
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
