package manifests

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to Load as a manifest file, and its
// diagnostics to WriteDiagnostics: neither may panic, whatever the input.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.hcl")
	for _, seed := range seeds {
		src, err := os.ReadFile(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	if src, ok := PresetSource("go"); ok {
		f.Add(src)
	}
	// One file per worker process, rewritten for each input: calls within a
	// process run one at a time, and a fresh directory per input would cost
	// more than the Load it feeds.
	file := filepath.Join(f.TempDir(), "fuzz.hcl")
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		set, diags := Load([]string{file}, testOptions())
		if set == nil {
			t.Fatal("Load returned a nil set")
		}
		for _, d := range diags {
			if d.Severity == 0 || d.Summary == "" {
				t.Errorf("malformed diagnostic: %#v", d)
			}
		}
		// Whatever else went wrong, a returned repository is complete.
		for _, r := range set.Repositories {
			if r.Name == "" || len(r.Platforms) == 0 || len(r.Migrate) == 0 {
				t.Errorf("incomplete repository returned: %+v", r)
			}
			for _, p := range r.Platforms {
				if len(p.Test.Argv) == 0 || p.Test.Parser == "" {
					t.Errorf("platform %s returned without a test command or parser", p.Name)
				}
			}
		}
		var out bytes.Buffer
		if err := WriteDiagnostics(&out, set, nil, diags); err != nil {
			t.Fatal(err)
		}
	})
}
