package manifests

import (
	"fmt"
	"runtime"
	"time"
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
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(2*time.Second, func() {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			os.WriteFile("/tmp/hang.txt", append(append([]byte(fmt.Sprintf("%q\n", src)), buf[:n]...)), 0o644)
		})
		defer timer.Stop()
		file := filepath.Join(t.TempDir(), "fuzz.hcl")
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
