package toolenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHideCrates: the published versions of a crate repository's own package
// in the shared cargo home are hidden from its commands — every version,
// extracted or archived, in every registry index — and nothing else: not a
// crate whose name only starts with the package's, not a dependency, not
// the package when the lock itself takes it from a registry.
func TestHideCrates(t *testing.T) {
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
			_, _, got := Hide([]string{"CARGO_HOME=" + home}, tt.language, repo, nil, []string{home})
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Hidden = %q, want %q", got, want)
			}
		})
	}
}

// TestHideModules: a Go module's published versions in the shared module
// cache — every version, every major version, the extracted directories
// and the download directories the offline go command reads — are hidden
// from its commands, and the module cache becomes copy-on-write for them
// (whiteouts need an overlay); nothing is hidden, and the cache stays
// read-only, for a module none of whose versions is there, or one whose
// go.sum names it (its build needs that copy).
func TestHideModules(t *testing.T) {
	modcache := t.TempDir()
	for _, d := range []string{
		"github.com/mattn/go-isatty@v0.0.20", "github.com/mattn/go-isatty@v0.0.24", "github.com/mattn/go-isatty/v2@v2.0.1",
		"github.com/mattn/go-isatty-extra@v1.0.0", "github.com/mattn/go-colorable@v0.1.13",
		"cache/download/github.com/mattn/go-isatty/@v", "cache/download/github.com/mattn/go-isatty/v2/@v",
		"cache/download/github.com/mattn/go-colorable/@v", "github.com/!burnt!sushi/toml@v1.4.0",
	} {
		if err := os.MkdirAll(filepath.Join(modcache, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	isatty := []string{
		"github.com/mattn/go-isatty@v0.0.20", "github.com/mattn/go-isatty@v0.0.24", "github.com/mattn/go-isatty/v2@v2.0.1",
		"cache/download/github.com/mattn/go-isatty/@v", "cache/download/github.com/mattn/go-isatty/v2/@v",
	}
	tests := []struct {
		name   string
		gomod  string
		gosum  string
		hidden []string
	}{
		{"the module's own versions", "module github.com/mattn/go-isatty\n\ngo 1.15\n\nrequire golang.org/x/sys v0.6.0\n",
			"golang.org/x/sys v0.6.0 h1:x=\n", isatty},
		{"a major version's repository", "module github.com/mattn/go-isatty/v2\n", "", isatty},
		{"an escaped path", "module github.com/BurntSushi/toml\n", "", []string{"github.com/!burnt!sushi/toml@v1.4.0"}},
		{"none of its versions cached", "module example.com/absent\n", "", nil},
		{"go.sum names it", "module github.com/mattn/go-isatty\n",
			"github.com/mattn/go-isatty v0.0.20/go.mod h1:x=\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			for name, body := range map[string]string{"go.mod": tt.gomod, "go.sum": tt.gosum} {
				if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ro, cow, got := Hide([]string{"GOMODCACHE=" + modcache}, "go", repo, []string{modcache}, nil)
			var want []string
			for _, h := range tt.hidden {
				want = append(want, filepath.Join(modcache, filepath.FromSlash(h)))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("hidden = %q, want %q", got, want)
			}
			wantRO, wantCOW := []string{modcache}, []string(nil)
			if len(want) > 0 {
				wantRO, wantCOW = []string{}, []string{modcache}
			}
			if !slices.Equal(ro, wantRO) || !slices.Equal(cow, wantCOW) {
				t.Errorf("read-only %q, copy-on-write %q; want %q, %q", ro, cow, wantRO, wantCOW)
			}
		})
	}
}
