package initmanifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSource(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "My Repo.v2")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const sum = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		arg, sha256 string
		want        Source
		name        string
		err         string // a part of the error; "" = no error
	}{
		{arg: "go:github.com/gofrs/flock@v0.12.1", want: Source{Kind: KindGoModule, Value: "github.com/gofrs/flock@v0.12.1"}, name: "gofrs-flock"},
		{arg: "go:github.com/fsnotify/fsnotify/v2@v2.0.0", want: Source{Kind: KindGoModule, Value: "github.com/fsnotify/fsnotify/v2@v2.0.0"}, name: "fsnotify-fsnotify"},
		{arg: "go:gopkg.in/yaml.v3@v3.0.1", want: Source{Kind: KindGoModule, Value: "gopkg.in/yaml.v3@v3.0.1"}, name: "yaml"},
		{arg: "go:golang.org/x/sys@v0.30.0", want: Source{Kind: KindGoModule, Value: "golang.org/x/sys@v0.30.0"}, name: "x-sys"},
		{arg: "crate:filetime@0.2.25", want: Source{Kind: KindCrate, Value: "filetime@0.2.25"}, name: "filetime"},
		{arg: "crate:same-file@1.0.6", sha256: strings.ToUpper(sum), want: Source{Kind: KindCrate, Value: "same-file@1.0.6", SHA256: sum}, name: "same-file"},
		{arg: "debian:libyaml=0.2.5-1", want: Source{Kind: KindDebian, Value: "libyaml=0.2.5-1"}, name: "libyaml"},
		{arg: "debian:zlib=1:1.2.13.dfsg-1", want: Source{Kind: KindDebian, Value: "zlib=1:1.2.13.dfsg-1"}, name: "zlib"},
		{arg: "git:https://example.com/gofrs/flock.git@95A014D", want: Source{Kind: KindGit, Value: "https://example.com/gofrs/flock.git", Commit: "95a014d"}, name: "gofrs-flock"},
		{arg: "git:git@example.com:owner/repo@0123456789012345678901234567890123456789", want: Source{Kind: KindGit, Value: "git@example.com:owner/repo", Commit: "0123456789012345678901234567890123456789"}, name: "owner-repo"},
		{arg: "https://example.com/dl/zlib-1.3.1.tar.gz", sha256: sum, want: Source{Kind: KindArchive, Value: "https://example.com/dl/zlib-1.3.1.tar.gz", SHA256: sum}, name: "zlib"},
		{arg: repo, want: Source{Kind: KindPath, Value: repo}, name: "my-repo-v2"},

		{arg: "", err: "empty"},
		{arg: "go:github.com/gofrs/flock", err: "want go:MODULE@VERSION"},
		{arg: "go:github.com/gofrs/flock@1.2.3", err: "not a full semantic version"},
		{arg: "go:github.com/gofrs/flock@v1.2", err: "not a full semantic version"},
		{arg: "go:github.com/fsnotify/fsnotify/v2@v1.0.0", err: "version"},
		{arg: "go:github.com/gofrs/flock@v0.12.1", sha256: sum, err: "--sha256 pins only"},
		{arg: "crate:filetime", err: "want crate:NAME@VERSION"},
		{arg: "crate:file time@0.2.25", err: "not a crate name"},
		{arg: "crate:filetime@v0.2.25", err: "not a semantic version"},
		{arg: "debian:libyaml", err: "want debian:PACKAGE=VERSION"},
		{arg: "debian:LibYaml=0.2.5-1", err: "not a Debian source package name"},
		{arg: "debian:libyaml=latest", err: "not a Debian version"},
		{arg: "git:https://example.com/x.git", err: "want git:URL@COMMIT"},
		{arg: "git:https://example.com/x.git@main", err: "not a git commit id"},
		{arg: "https://example.com/x.tar.gz", err: "needs --sha256"},
		{arg: "https://example.com/x.tar.gz", sha256: "abc", err: "want 64 hex digits"},
		{arg: "http://example.com/x.tar.gz", sha256: sum, err: "https only"},
		{arg: "svn:https://example.com/x", err: `unknown kind "svn"`},
		{arg: filepath.Join(dir, "nowhere"), err: "no such directory"},
		{arg: file, err: "not a directory"},
		{arg: repo, sha256: sum, err: "--sha256 pins only"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, err := ParseSource(tt.arg, tt.sha256)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseSource(%q) = %+v, %v; want an error containing %q", tt.arg, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSource(%q): %v", tt.arg, err)
			}
			if got != tt.want {
				t.Errorf("ParseSource(%q) = %+v, want %+v", tt.arg, got, tt.want)
			}
			if n := got.Name(); n != tt.name {
				t.Errorf("Name() = %q, want %q", n, tt.name)
			}
		})
	}
}

func TestRelativeTo(t *testing.T) {
	tests := []struct{ base, dir, want string }{
		{"/work/osbench/manifests/examples", "/work/osbench/testdata/repos/pathsep", "../../testdata/repos/pathsep"},
		{"/work/osbench", "/work/osbench/repo", "repo"},
		{"/tmp/x", "/work/repo", "/work/repo"},
	}
	for _, tt := range tests {
		if got := relativeTo(tt.base, tt.dir); got != tt.want {
			t.Errorf("relativeTo(%q, %q) = %q, want %q", tt.base, tt.dir, got, tt.want)
		}
	}
}
