package manifests

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// Each pinned source kind resolves to the fields the checkout step reads,
// with defaults filled in and digests in lower case.
func TestPinnedSources(t *testing.T) {
	const platforms = `
  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }`
	tests := []struct {
		name   string
		source string
		want   Source
	}{
		{"go module", `go_module = "github.com/gofrs/flock@v0.12.1"
    sum = "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="`,
			Source{GoModule: "github.com/gofrs/flock@v0.12.1", Sum: "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="}},
		{"go module, pseudo-version", `go_module = "golang.org/x/sys@v0.0.0-20220715151400-c0bba94af5f8"`,
			Source{GoModule: "golang.org/x/sys@v0.0.0-20220715151400-c0bba94af5f8"}},
		{"go module, incompatible major", `go_module = "github.com/docker/docker@v20.10.24+incompatible"`,
			Source{GoModule: "github.com/docker/docker@v20.10.24+incompatible"}},
		{"crate", `crate = "filetime@0.2.25"`, Source{Crate: "filetime@0.2.25"}},
		{"crate, digest upper case", `crate = "same-file@1.0.6"
    sha256 = "93FC1DC3AAF9BFED95E02E6EAD5BBC89D5FA9A7B6C2E69F8A0CE3F6F5E1E3C11"`,
			Source{Crate: "same-file@1.0.6", SHA256: "93fc1dc3aaf9bfed95e02e6ead5bbc89d5fa9a7b6c2e69f8a0ce3f6f5e1e3c11"}},
		{"debian, default suite", `debian = "libyaml=0.2.5-1"`, Source{Debian: "libyaml=0.2.5-1", Suite: "bookworm"}},
		{"debian, epoch, packaging, suite", `debian = "zlib=1:1.2.13.dfsg-1"
    packaging = true
    suite = "trixie"`, Source{Debian: "zlib=1:1.2.13.dfsg-1", Packaging: true, Suite: "trixie"}},
		{"archive", `archive = "https://example.com/lib-1.0.tar.gz"
    sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"`,
			Source{Archive: "https://example.com/lib-1.0.tar.gz", SHA256: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := loadOne(t, `repository "r" {
  source {
    `+tt.source+`
  }
  migrate = ["linux->windows"]`+platforms+`
}`)
			if !reflect.DeepEqual(r.Source, tt.want) {
				t.Errorf("source = %+v\nwant     %+v", r.Source, tt.want)
			}
			if r.Source.Kind() == "" {
				t.Errorf("Kind() is empty")
			}
			if _, ok := r.Ranges["source"]; !ok {
				t.Errorf("no range for the source block")
			}
		})
	}
}

// TestPathSourceBounds: a relative path source that climbs out of the git
// work tree holding the manifest, or a directory of more files than a
// repository has, is an error at the path's line; inside the tree, or
// absolute, it loads.
func TestPathSourceBounds(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"tree/.git/HEAD":             "ref: refs/heads/main\n",
		"tree/manifests/x.go":        "package x\n",
		"tree/repos/ok/main.go":      "package main\n",
		"outside/main.go":            "package main\n",
		"tree/manifests/placeholder": "",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(root, "tree", "repos", "big")
	for i := 0; i <= maxPathFiles; i++ {
		d := filepath.Join(big, strconv.Itoa(i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		path, want string
	}{
		{"../repos/ok", ""},
		{"../../outside", "reaches outside the manifest's tree"},
		{filepath.ToSlash(filepath.Join(root, "outside")), ""},
		{"../repos/big", "more than 50000 files"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			manifest := filepath.Join(root, "tree", "manifests", "m.hcl")
			src := "repository \"r\" {\n  preset = \"go\"\n  source {\n    path = \"" + tt.path + "\"\n  }\n  migrate = [\"linux->windows\"]\n}\n"
			if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := Load([]string{manifest}, testOptions())
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Summary == "Invalid path source" {
					found = d
				}
			}
			switch {
			case tt.want == "" && found != nil:
				t.Errorf("error %s", found.Detail)
			case tt.want != "" && (found == nil || !strings.Contains(found.Detail, tt.want)):
				t.Errorf("diagnostics %v, want %q", diags, tt.want)
			case found != nil && found.Subject.Start.Line != 4:
				t.Errorf("error at line %d, want 4 (the path)", found.Subject.Start.Line)
			}
		})
	}
}
