package toolenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHidden: the published versions of a crate repository's own package
// in the shared cargo home are hidden from its commands — every version,
// extracted or archived, in every registry index — and nothing else: not a
// crate whose name only starts with the package's, not a dependency, not
// the package when the lock itself takes it from a registry.
func TestHidden(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join(home, "registry", "src", "index.crates.io-1949cf8c6b5b557f")
	cache := filepath.Join(home, "registry", "cache", "index.crates.io-1949cf8c6b5b557f")
	other := filepath.Join(home, "registry", "src", "mirror-0123456789abcdef")
	for _, d := range []string{
		filepath.Join(src, "same-file-1.0.6"), filepath.Join(src, "same-file-1.0.5"), filepath.Join(src, "same-file-extra-1.0.0"),
		filepath.Join(src, "winapi-util-0.1.9"), filepath.Join(other, "same_file-2.0.0-rc.1"), cache,
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"same-file-1.0.6.crate", "winapi-util-0.1.9.crate"} {
		if err := os.WriteFile(filepath.Join(cache, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest := "[package]\nname = \"same-file\"\nversion = \"1.0.6\"\n"
	lock := "version = 3\n\n[[package]]\nname = \"same-file\"\nversion = \"1.0.6\"\ndependencies = [\"winapi-util\"]\n\n" +
		"[[package]]\nname = \"winapi-util\"\nversion = \"0.1.9\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
	every := []string{
		filepath.Join(src, "same-file-1.0.5"), filepath.Join(src, "same-file-1.0.6"),
		filepath.Join(cache, "same-file-1.0.6.crate"), filepath.Join(other, "same_file-2.0.0-rc.1"),
	}
	tests := []struct {
		name     string
		language string
		files    map[string]string
		want     []string
	}{
		{"the repository's own package", "rust", map[string]string{"Cargo.toml": manifest, "Cargo.lock": lock}, every},
		{"without a lock (a patch deleted it)", "rust", map[string]string{"Cargo.toml": manifest}, every},
		{"a workspace member named only in the lock", "rust", map[string]string{"Cargo.toml": "[workspace]\nmembers = [\"x\"]\n", "Cargo.lock": lock}, every},
		{"the lock takes it from a registry too", "rust", map[string]string{"Cargo.toml": manifest, "Cargo.lock": lock +
			"\n[[package]]\nname = \"same-file\"\nversion = \"1.0.5\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"}, nil},
		{"a manifest that does not parse", "rust", map[string]string{"Cargo.toml": "[package\n"}, nil},
		{"not a crate", "go", map[string]string{"Cargo.toml": manifest}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			for name, body := range tt.files {
				if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := Hidden([]string{"CARGO_HOME=" + home}, tt.language, repo)
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Hidden = %q, want %q", got, want)
			}
		})
	}
}
