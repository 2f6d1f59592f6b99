package deps

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSelfLocked: a tree whose own lock takes its own package at a
// published version is named (its build needs the complete original, so
// no hiding helps); a tree that merely is that package, or depends on
// others, is not.
func TestSelfLocked(t *testing.T) {
	const (
		manifest = "[package]\nname = \"same-file\"\nversion = \"1.0.6\"\n"
		local    = "version = 3\n\n[[package]]\nname = \"same-file\"\nversion = \"1.0.6\"\n"
		gomod    = "module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/sys v0.1.0\n"
	)
	crate := func(name, version string) string {
		return "\n[[package]]\nname = \"" + name + "\"\nversion = \"" + version + "\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
	}
	tests := []struct {
		name     string
		language string
		files    map[string]string
		self     []string
		own      []string
	}{
		{"a crate and its dependencies", Rust, map[string]string{"Cargo.toml": manifest, "Cargo.lock": local + crate("winapi-util", "0.1.9")}, nil, []string{"same-file"}},
		{"a dev-dependency that depends on the crate itself", Rust, map[string]string{"Cargo.toml": manifest, "Cargo.lock": local + crate("same-file", "1.0.5") + crate("same-file", "1.0.4")},
			[]string{"crate same-file@1.0.4", "crate same-file@1.0.5"}, nil},
		{"a module and its requirements", Go, map[string]string{"go.mod": gomod, "go.sum": "golang.org/x/sys v0.1.0 h1:x=\n"}, nil, []string{"example.com/m"}},
		{"a test dependency that requires the module", Go, map[string]string{"go.mod": gomod + "require example.com/m v1.2.0\n",
			"go.sum": "example.com/m v1.2.0 h1:y=\nexample.com/m v1.2.0/go.mod h1:z=\nexample.com/m v1.1.0/go.mod h1:w=\n"},
			[]string{"module example.com/m@v1.1.0", "module example.com/m@v1.2.0"}, nil},
		{"no lock files", "c", map[string]string{"CMakeLists.txt": "project(x)\n"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := SelfLocked(tt.language, dir); !slices.Equal(got, tt.self) {
				t.Errorf("SelfLocked = %q, want %q", got, tt.self)
			}
			if got := Own(tt.language, dir); !slices.Equal(got, tt.own) {
				t.Errorf("Own = %q, want %q", got, tt.own)
			}
		})
	}
}
