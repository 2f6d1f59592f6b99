package manifests

import (
	"slices"
	"strings"
	"testing"
)

// TestTestBlockCompile: the cargo preset's test blocks carry a compile
// command (cargo test --no-run with the test command's set-up and without
// its skip flags); a manifest may replace it, and a compile written as a
// script string needs no shell of the test's: it is an argv list, so it is
// an error at its line.
func TestTestBlockCompile(t *testing.T) {
	tests := []struct {
		name    string
		linux   string // the linux test block's body
		want    []string
		wantErr string
	}{
		{"the preset's", "", []string{"bash", "-eo", "pipefail", "-c"}, ""},
		{"the manifest's", `compile = ["cargo", "build", "--tests"]`, []string{"cargo", "build", "--tests"}, ""},
		{"a script string", `compile = "cargo test --no-run"`, nil, "Command needs a shell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, diags := loadSource(t, `repository "demo" {
  preset = "cargo"
  source {
    path = "."
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      skip = ["a::b"]
      `+tt.linux+`
    }
  }
}
`)
			if tt.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.wantErr) || !strings.Contains(diags.Error(), "manifest.hcl:10") {
					t.Errorf("diagnostics = %v, want an error at manifest.hcl:10 saying %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			for _, p := range set.Repositories[0].Platforms {
				if p.Name != "linux" && tt.name == "the manifest's" {
					continue // the manifest replaced linux's alone
				}
				c := p.Test.Compile
				if c == nil || len(c.Argv) < len(tt.want) || !slices.Equal(c.Argv[:len(tt.want)], tt.want) {
					t.Fatalf("%s: compile = %+v, want it to start with %q", p.Name, c, tt.want)
				}
				if tt.name != "the preset's" {
					continue
				}
				script := c.Argv[4]
				if !strings.Contains(script, "cargo test --frozen --no-run") || !strings.Contains(script, "CARGO_ENCODED_RUSTFLAGS") || !strings.Contains(p.Test.Argv[4], "CARGO_ENCODED_RUSTFLAGS") {
					t.Errorf("%s: the compile script does not build the test programs with the test command's flags:\n%s", p.Name, script)
				}
				if slices.Contains(c.Argv, "--skip") || slices.Contains(c.Argv, "a::b") {
					t.Errorf("%s: compile %q has the skip flags", p.Name, c.Argv)
				}
			}
		})
	}
}
