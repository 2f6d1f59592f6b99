package checkout

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

type entry struct {
	name, body string
	link       string // symlink target
	hard       string // hard link target
}

func tarBytes(t *testing.T, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		switch {
		case e.link != "":
			h = &tar.Header{Name: e.name, Linkname: e.link, Typeflag: tar.TypeSymlink}
		case e.hard != "":
			h = &tar.Header{Name: e.name, Linkname: e.hard, Typeflag: tar.TypeLink}
		case strings.HasSuffix(e.name, "/"):
			h = &tar.Header{Name: e.name, Mode: 0o755, Typeflag: tar.TypeDir}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	tw.Close()
	return buf.Bytes()
}

func gzipped(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func xzed(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	xw, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	xw.Write(b)
	xw.Close()
	return buf.Bytes()
}

func zipped(t *testing.T, entries []entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	zw.Close()
	return buf.Bytes()
}

// Every format is told by its bytes; one top-level directory is stripped,
// several are kept as they are.
func TestUnpackArchiveFormats(t *testing.T) {
	wrapped := []entry{{name: "lib-1.0/"}, {name: "lib-1.0/src/a.c", body: "int a;"}, {name: "lib-1.0/README", body: "hi"}}
	flat := []entry{{name: "src/a.c", body: "int a;"}, {name: "README", body: "hi"}}
	tests := []struct {
		name  string
		bytes func(t *testing.T) []byte
		want  map[string]string
	}{
		{"tar", func(t *testing.T) []byte { return tarBytes(t, wrapped) }, map[string]string{"src/a.c": "int a;", "README": "hi"}},
		{"tar.gz", func(t *testing.T) []byte { return gzipped(t, tarBytes(t, wrapped)) }, map[string]string{"src/a.c": "int a;", "README": "hi"}},
		{"tar.xz", func(t *testing.T) []byte { return xzed(t, tarBytes(t, wrapped)) }, map[string]string{"src/a.c": "int a;", "README": "hi"}},
		{"zip", func(t *testing.T) []byte { return zipped(t, wrapped[1:]) }, map[string]string{"src/a.c": "int a;", "README": "hi"}},
		{"no single top dir", func(t *testing.T) []byte { return gzipped(t, tarBytes(t, flat)) }, map[string]string{"src/a.c": "int a;", "README": "hi"}},
		{"hard link copied", func(t *testing.T) []byte {
			return tarBytes(t, []entry{{name: "p/a", body: "x"}, {name: "p/b", hard: "p/a"}})
		}, map[string]string{"a": "x", "b": "x"}},
	}
	if _, err := exec.LookPath("bzip2"); err == nil {
		tests = append(tests, struct {
			name  string
			bytes func(t *testing.T) []byte
			want  map[string]string
		}{"tar.bz2", func(t *testing.T) []byte {
			cmd := exec.Command("bzip2", "-c")
			cmd.Stdin = bytes.NewReader(tarBytes(t, wrapped))
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			return out
		}, map[string]string{"src/a.c": "int a;", "README": "hi"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "download")
			os.WriteFile(file, tt.bytes(t), 0o644)
			dir := filepath.Join(t.TempDir(), "tree")
			if err := unpackArchive(file, dir); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					rel, _ := filepath.Rel(dir, p)
					got[filepath.ToSlash(rel)] = string(b)
				}
				return nil
			})
			if len(got) != len(tt.want) {
				t.Errorf("files = %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// An untrusted archive cannot write outside its tree, by name or by link.
func TestUnpackArchiveRefusesEscapes(t *testing.T) {
	tests := []struct {
		name    string
		entries []entry
		want    string
	}{
		{"dot-dot", []entry{{name: "p/../../evil", body: "x"}}, "escapes"},
		{"absolute", []entry{{name: "/tmp/evil", body: "x"}}, "escapes"},
		{"drive", []entry{{name: "C:/evil", body: "x"}}, "escapes"},
		{"backslash dot-dot", []entry{{name: "..\\evil", body: "x"}}, "escapes"},
		{"link out", []entry{{name: "p/a", body: "x"}, {name: "p/l", link: "../../etc"}}, "outside the tree"},
		{"absolute link", []entry{{name: "p/a", body: "x"}, {name: "p/l", link: "/etc/passwd"}}, "outside the tree"},
		{"named twice", []entry{{name: "p/a", body: "x"}, {name: "p/a", body: "y"}}, "twice"},
		{"not an archive", nil, "not a tarball"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			file := filepath.Join(root, "download")
			b := []byte("plain text, not an archive at all, long enough to be read")
			if tt.entries != nil {
				b = gzipped(t, tarBytes(t, tt.entries))
			}
			os.WriteFile(file, b, 0o644)
			err := unpackArchive(file, filepath.Join(root, "tree"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(root, "evil")); err == nil {
				t.Errorf("an entry was written outside the tree")
			}
		})
	}
	// A link that stays inside is kept.
	root := t.TempDir()
	file := filepath.Join(root, "download")
	os.WriteFile(file, tarBytes(t, []entry{{name: "p/a", body: "x"}, {name: "p/sub/l", link: "../a"}}), 0o644)
	if err := unpackArchive(file, filepath.Join(root, "tree")); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(root, "tree", "sub", "l")); err != nil || target != "../a" {
		t.Errorf("inner link = %q, %v", target, err)
	}
}

func TestUpstreamNames(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://github.com/gofrs/flock", "gofrs/flock"},
		{"https://github.com/gofrs/flock.git/", "gofrs/flock"},
		{"git@github.com:gofrs/flock.git", "gofrs/flock"},
		{"/srv/git/project.git", "git/project"},
		{"project", "project"},
	} {
		if got := gitRepoName(tt.in); got != tt.want {
			t.Errorf("gitRepoName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"https://zlib.net/zlib-1.3.1.tar.xz", "zlib-1.3.1"},
		{"https://example.com/dl/lib.zip?x=1", "lib"},
		{"file:///srv/a/pkg-2.tgz", "pkg-2"},
	} {
		if got := archiveName(tt.in); got != tt.want {
			t.Errorf("archiveName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"a", "1/a"}, {"ab", "2/ab"}, {"abc", "3/a/abc"}, {"Filetime", "fi/le/filetime"}, {"same-file", "sa/me/same-file"},
	} {
		if got := crateIndexPath(tt.in); got != tt.want {
			t.Errorf("crateIndexPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

const sampleDSC = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA256

Format: 3.0 (quilt)
Source: libyaml
Version: 0.2.5-1
Checksums-Sha1:
 1111111111111111111111111111111111111111 85055 libyaml_0.2.5.orig.tar.gz
Checksums-Sha256:
 c642ae9b75fee120b2d96c712538bd2cf283228d2337df2cf2988e3c02678ef4 85055 libyaml_0.2.5.orig.tar.gz
 fe1c5e2b8d0d3e4ba4bd0dd3e37bbc01bb2e3c2f36b0cbaf4bd76b5bd0ebdc77 5324 libyaml_0.2.5-1.debian.tar.xz
Files:
 bb15429d8fb787e7d3f1c83ae129a999 85055 libyaml_0.2.5.orig.tar.gz

-----BEGIN PGP SIGNATURE-----
iQ==
-----END PGP SIGNATURE-----
`

func TestParseDSC(t *testing.T) {
	d, err := parseDSC([]byte(sampleDSC))
	if err != nil {
		t.Fatal(err)
	}
	if d.format != "3.0 (quilt)" || len(d.files) != 2 || d.files[0].name != "libyaml_0.2.5.orig.tar.gz" || d.files[0].size != 85055 || d.files[1].name != "libyaml_0.2.5-1.debian.tar.xz" {
		t.Errorf("parsed %+v", d)
	}
	for name, bad := range map[string]string{
		"no checksums": "Format: 1.0\nSource: x\n",
		"path in name": strings.Replace(sampleDSC, " libyaml_0.2.5.orig.tar.gz\n fe1c", " ../../evil.tar.gz\n fe1c", 1),
		"bad digest":   strings.Replace(sampleDSC, "c642ae9b", "zz42ae9b", 1),
	} {
		if _, err := parseDSC([]byte(bad)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

// A package that ships its upstream tarball's signature (.orig.tar.xz.asc,
// listed after the tarball) unpacks the tarball, not the signature.
func TestUnpackDebianSkipsSignatures(t *testing.T) {
	pool := t.TempDir()
	orig := xzed(t, tarBytes(t, []entry{{name: "cmocka-1.1.5/CMakeLists.txt", body: "project(cmocka C)\n"}}))
	files := map[string][]byte{
		"cmocka_1.1.5.orig.tar.xz":       orig,
		"cmocka_1.1.5.orig.tar.xz.asc":   []byte("-----BEGIN PGP SIGNATURE-----\niQ==\n-----END PGP SIGNATURE-----\n"),
		"cmocka_1.1.5-2.1.debian.tar.xz": xzed(t, tarBytes(t, []entry{{name: "debian/control", body: "Source: cmocka\n"}})),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(pool, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := &dscFile{name: "cmocka_1.1.5-2.1.dsc", format: "3.0 (quilt)", files: []dscEntry{
		{name: "cmocka_1.1.5.orig.tar.xz"}, {name: "cmocka_1.1.5.orig.tar.xz.asc"}, {name: "cmocka_1.1.5-2.1.debian.tar.xz"},
	}}
	dir := filepath.Join(t.TempDir(), "tree")
	if err := unpackDebian(pool, d, dir, false); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "CMakeLists.txt")); err != nil || string(b) != "project(cmocka C)\n" {
		t.Errorf("CMakeLists.txt = %q, %v; want the upstream file", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "debian")); err == nil {
		t.Errorf("debian/ unpacked without packaging = true")
	}
}
