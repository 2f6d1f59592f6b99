package manifests

import (
	"path/filepath"
	"slices"
	"testing"
)

// skipUnderManifest leaves TestSlow out everywhere on windows and two
// tests out only under Wine.
const skipUnderManifest = `
repository "fsapi" {
  preset = "go"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  platform "windows" {
    test {
      skip = ["TestSlow"]
      skip_under = {
        wine = ["TestSymlink", "TestReadOnlyDir"]
      }
    }
  }
}
`

func TestSkipUnderFollowsTheExecutor(t *testing.T) {
	for _, tt := range []struct {
		name      string
		executors map[string]string
		executor  string
		skip      []string
		skipArg   string // the pattern after -skip in the test command
	}{
		{"the preset's wine", nil, "wine", []string{"TestSlow", "TestSymlink", "TestReadOnlyDir"}, "^TestSlow$|^TestSymlink$|^TestReadOnlyDir$"},
		{"a real Windows machine", map[string]string{"windows": "local"}, "local", []string{"TestSlow"}, "^TestSlow$"},
		{"another platform's override", map[string]string{"linux": "local"}, "wine", []string{"TestSlow", "TestSymlink", "TestReadOnlyDir"}, "^TestSlow$|^TestSymlink$|^TestReadOnlyDir$"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"manifest.hcl": skipUnderManifest})
			opts := testOptions()
			opts.Executors = tt.executors
			set, diags := Load([]string{filepath.Join(dir, "manifest.hcl")}, opts)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var win *Platform
			for _, p := range set.Repositories[0].Platforms {
				if p.Name == "windows" {
					win = p
				}
			}
			if win.Executor != tt.executor {
				t.Errorf("executor %q, want %q", win.Executor, tt.executor)
			}
			if !slices.Equal(win.Test.Skip, tt.skip) {
				t.Errorf("skip %q, want %q", win.Test.Skip, tt.skip)
			}
			if got := win.Test.SkipUnder["wine"]; len(got) != 2 {
				t.Errorf("skip_under as written: %q", win.Test.SkipUnder)
			}
			var skipArgs []string
			for i, a := range win.Test.Argv {
				if a == "-skip" && i+1 < len(win.Test.Argv) {
					skipArgs = append(skipArgs, win.Test.Argv[i+1])
				}
			}
			if want := []string{tt.skipArg}; !slices.Equal(skipArgs, want) {
				t.Errorf("skip flags in %q: %q, want %q", win.Test.Argv, skipArgs, want)
			}
		})
	}
}
