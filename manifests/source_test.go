package manifests

import (
	"reflect"
	"testing"
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
