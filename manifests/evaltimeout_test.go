package manifests

import (
	"strings"
	"testing"
	"time"
)

// TestEvalTimeoutAgainstThePresetsTimeout: an eval_timeout the manifest
// writes above the timeout it gets from its preset would be dropped, so it
// is an error at its line naming the preset's timeout; the preset's own
// eval_timeout above a manifest's shorter timeout yields to it, silently.
func TestEvalTimeoutAgainstThePresetsTimeout(t *testing.T) {
	tests := []struct {
		name     string
		linux    string // the linux test block's body
		wantErr  string // "" for none
		wantEval time.Duration
	}{
		{"the manifest's eval_timeout above the preset's timeout", `eval_timeout = "15m"`,
			`eval_timeout (15m) is longer than timeout (10m, set at `, 0},
		{"raised beside it", "timeout = \"20m\"\n      eval_timeout = \"15m\"", "", 15 * time.Minute},
		{"the preset's eval_timeout yields to a shorter timeout", `timeout = "3m"`, "", 3 * time.Minute},
		{"within the preset's timeout", `eval_timeout = "8m"`, "", 8 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, diags := loadSource(t, `repository "demo" {
  preset = "c-cmake"
  source {
    path = "."
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      `+tt.linux+`
    }
  }
}
`)
			if tt.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.wantErr) || !strings.Contains(diags.Error(), "manifest.hcl:9") {
					t.Errorf("diagnostics = %v, want an error at manifest.hcl:9 saying %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := set.Repositories[0].Platforms[0].Test.EvalTimeout; got != tt.wantEval {
				t.Errorf("eval timeout = %v, want %v", got, tt.wantEval)
			}
		})
	}
}
