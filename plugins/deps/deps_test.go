package deps

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const taskGoMod = `module example.com/pathsep

go 1.22

require golang.org/x/text v0.14.0

require golang.org/x/sys v0.15.0 // indirect
`

const taskGoSum = `golang.org/x/sys v0.15.0 h1:aaa=
golang.org/x/sys v0.15.0/go.mod h1:bbb=
golang.org/x/text v0.14.0 h1:ccc=
golang.org/x/text v0.14.0/go.mod h1:ddd=
golang.org/x/tools v0.1.0/go.mod h1:eee=
`

const taskCargoToml = `[package]
name = "rsplat"
version = "0.1.0"

[dependencies]
libc = "0.2"
helper = { path = "helper" }

[target.'cfg(windows)'.dependencies]
windows-sys = { version = "0.59", features = ["Win32_Foundation"] }
`

const taskCargoLock = `version = 3

[[package]]
name = "rsplat"
version = "0.1.0"

[[package]]
name = "helper"
version = "0.1.0"

[[package]]
name = "libc"
version = "0.2.150"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "abc"

[[package]]
name = "windows-sys"
version = "0.59.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "def"
`

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// with is files with some replaced ("" removes one).
func with(files map[string]string, changes map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	for k, v := range changes {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func TestOutside(t *testing.T) {
	goTask := map[string]string{"go.mod": taskGoMod, "go.sum": taskGoSum, "pathsep.go": "package pathsep\n"}
	rustTask := map[string]string{"Cargo.toml": taskCargoToml, "Cargo.lock": taskCargoLock, "src/lib.rs": "", "helper/Cargo.toml": "[package]\nname = \"helper\"\nversion = \"0.1.0\"\n"}
	tests := []struct {
		name    string
		task    map[string]string
		patched map[string]string
		want    []string
	}{
		{"go unchanged", goTask, goTask, nil},
		{"go code only", goTask, with(goTask, map[string]string{"pathsep.go": "package pathsep\n\nfunc X() {}\n"}), nil},
		{"go require of a module the task locks", goTask, with(goTask, map[string]string{"go.mod": taskGoMod + "require golang.org/x/sys v0.15.0\n"}), nil},
		{"go require of a new module", goTask,
			with(goTask, map[string]string{"go.mod": taskGoMod + "require github.com/gofrs/flock v0.12.1\n"}),
			[]string{"github.com/gofrs/flock@v0.12.1"}},
		{"go another version of a locked module", goTask,
			with(goTask, map[string]string{"go.mod": strings.Replace(taskGoMod, "v0.14.0", "v0.15.0", 1)}),
			[]string{"golang.org/x/text@v0.15.0"}},
		{"go a go.mod-only version is locked too", goTask,
			with(goTask, map[string]string{"go.mod": taskGoMod + "require golang.org/x/tools v0.1.0\n"}), nil},
		{"go replace", goTask,
			with(goTask, map[string]string{"go.mod": taskGoMod + "replace golang.org/x/text => ../text\n"}),
			[]string{"golang.org/x/text => ../text (a replace)"}},
		{"go new go.sum line", goTask,
			with(goTask, map[string]string{"go.sum": taskGoSum + "example.com/pathsep v1.0.0 h1:fff=\n"}),
			[]string{"example.com/pathsep@v1.0.0"}},
		{"go go.mod removed", goTask, with(goTask, map[string]string{"go.mod": ""}), nil},
		{"go go.mod garbage", goTask, with(goTask, map[string]string{"go.mod": "module (\n"}), []string{"go.mod that does not parse"}},

		{"cargo unchanged", rustTask, rustTask, nil},
		{"cargo a locked crate as a new direct dependency", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[dev-dependencies]\nwindows-sys = \"0.59\"\n"}), nil},
		{"cargo a new crate", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": strings.Replace(taskCargoToml, `libc = "0.2"`, "libc = \"0.2\"\nfiletime = \"0.2\"", 1)}),
			[]string{"crate filetime (crates.io)"}},
		{"cargo the task's own crate under another name", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": strings.Replace(taskCargoToml, `libc = "0.2"`, "libc = \"0.2\"\norig = { package = \"rsplat\", version = \"0.1\" }", 1)}),
			[]string{"crate rsplat (crates.io)"}},
		{"cargo a new crate in Cargo.lock only", rustTask,
			with(rustTask, map[string]string{"Cargo.lock": taskCargoLock + "\n[[package]]\nname = \"filetime\"\nversion = \"0.2.25\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"}),
			[]string{"filetime@0.2.25 (registry+https://github.com/rust-lang/crates.io-index)"}},
		{"cargo a git dependency", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[build-dependencies]\nx = { git = \"https://example.com/x\" }\n"}),
			[]string{"git https://example.com/x"}},
		{"cargo a path dependency the task has", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[dev-dependencies]\nhelper = { path = \"./helper\" }\n"}), nil},
		{"cargo a new path dependency", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[dev-dependencies]\norig = { path = \"vendor/orig\" }\n"}),
			[]string{"path vendor/orig"}},
		{"cargo a path out of the repository", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[dev-dependencies]\norig = { path = \"../../src/rsplat\" }\n"}),
			[]string{"path ../../src/rsplat (outside the repository)"}},
		{"cargo a [patch]", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[patch.crates-io]\nlibc = { path = \"libc\" }\n"}),
			[]string{`[patch.crates-io] libc = [["path","libc"]]`}},
		{"cargo a [patch] in .cargo/config.toml", rustTask,
			with(rustTask, map[string]string{".cargo/config.toml": "[patch.crates-io]\nlibc = { git = \"https://example.com/libc\" }\n"}),
			[]string{`[patch.crates-io] libc = [["git","https://example.com/libc"]] in .cargo/config.toml`}},
		{"cargo a registry of its own", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[dev-dependencies]\nx = { version = \"1\", registry = \"mine\" }\n"}),
			[]string{"registry mine (x)"}},
		{"cargo a workspace dependency", rustTask,
			with(rustTask, map[string]string{"Cargo.toml": taskCargoToml + "\n[workspace.dependencies]\nanyhow = \"1\"\n", "helper/Cargo.toml": "[package]\nname = \"helper\"\nversion = \"0.1.0\"\n[dependencies]\nanyhow = { workspace = true }\n"}),
			[]string{"crate anyhow (crates.io)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Outside(writeTree(t, tt.task), writeTree(t, tt.patched))
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.want) == 1 && strings.HasSuffix(tt.want[0], "does not parse") && len(got) == 1 && strings.HasPrefix(got[0], tt.want[0]) {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Outside = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	set, err := Read(Go, writeTree(t, map[string]string{"go.mod": taskGoMod, "go.sum": taskGoSum}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"golang.org/x/sys@v0.15.0", "golang.org/x/text@v0.14.0", "golang.org/x/tools@v0.1.0"}
	if !reflect.DeepEqual(set.Dependencies, want) || !reflect.DeepEqual(set.Files, []string{"go.mod", "go.sum"}) || !strings.HasPrefix(set.Digest, "sha256:") {
		t.Errorf("Go set = %+v", set)
	}
	// The digest is the set's, not the files' spelling.
	again, err := Read(Go, writeTree(t, map[string]string{"go.mod": taskGoMod + "\n// a comment\n", "go.sum": taskGoSum}))
	if err != nil || again.Digest != set.Digest {
		t.Errorf("digest changed with a comment: %v %v", again, err)
	}
	rust, err := Read(Rust, writeTree(t, map[string]string{"Cargo.toml": taskCargoToml, "Cargo.lock": taskCargoLock}))
	if err != nil {
		t.Fatal(err)
	}
	if len(rust.Dependencies) != 2 || !strings.HasPrefix(rust.Dependencies[0], "libc@0.2.150 registry+") {
		t.Errorf("Rust set = %+v", rust)
	}
	for _, tc := range []struct{ language, file string }{{Go, "main.go"}, {Rust, "Cargo.toml"}, {"c", "go.mod"}} {
		if set, err := Read(tc.language, writeTree(t, map[string]string{tc.file: "x"})); err != nil || set != nil {
			t.Errorf("%s without lock files: %v, %v", tc.language, set, err)
		}
	}
}

func TestSkeletonHoldsNoCode(t *testing.T) {
	tests := []struct {
		language, path string
		keep, empty    bool
	}{
		{Go, "go.mod", true, false},
		{Go, "sub/go.sum", true, false},
		{Go, "main.go", false, false},
		{Rust, "Cargo.toml", true, false},
		{Rust, "Cargo.lock", true, false},
		{Rust, "src/lib.rs", false, true},
		{Rust, "build.rs", false, true},
		{Rust, ".cargo/config.toml", false, false},
		{Rust, "x/.cargo/Cargo.toml", false, false},
		{Rust, ".git/Cargo.toml", false, false},
		{"c", "CMakeLists.txt", false, false},
	}
	for _, tt := range tests {
		keep, empty := SkeletonFile(tt.language, tt.path)
		if keep != tt.keep || empty != tt.empty {
			t.Errorf("SkeletonFile(%s, %s) = %v, %v; want %v, %v", tt.language, tt.path, keep, empty, tt.keep, tt.empty)
		}
	}
	dir := writeTree(t, map[string]string{"Cargo.toml": taskCargoToml, "Cargo.lock": taskCargoLock, "build.rs": "fn main() { download() }", ".cargo/config.toml": "[build]\nrustc-wrapper = \"x\"\n"})
	skel := filepath.Join(t.TempDir(), "skel")
	if err := WriteSkeleton(Rust, dir, skel); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(skel, "build.rs")); err != nil || len(b) != 0 {
		t.Errorf("build.rs in the skeleton: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(skel, ".cargo")); err == nil {
		t.Error("the skeleton holds the repository's .cargo/config")
	}
	if argv := FetchArgv(Rust, skel); len(argv) != 5 || argv[1] != "fetch" || argv[2] != "--locked" {
		t.Errorf("FetchArgv = %v", argv)
	}
	if argv := FetchArgv(Go, t.TempDir()); !reflect.DeepEqual(argv, []string{"go", "version"}) {
		t.Errorf("Go fetch without go.mod = %v (the toolchain must still be fetched)", argv)
	}
}

func TestClearCargoHome(t *testing.T) {
	home := writeTree(t, map[string]string{"config.toml": "[build]\njobs = 0\n", "credentials": "x", "registry/cache/a.crate": "crate"})
	if err := clearCargoHome([]string{"PATH=/bin", "CARGO_HOME=" + home}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"config.toml", "credentials"} {
		if _, err := os.Stat(filepath.Join(home, name)); err == nil {
			t.Errorf("%s left in the cargo home", name)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "registry/cache/a.crate")); err != nil {
		t.Errorf("the download cache went too: %v", err)
	}
}
