package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixture is a small task of one language: its masked repository, the
// complete files its gold patch restores, and the other direction's
// export, which keeps them whole.
type fixture struct {
	id, lang, direction, other string
	files                      map[string]string // the masked repository
	complete                   map[string]string // what the gold patch writes
	upstream                   map[string]string
	deps                       []string
}

var fixtures = []fixture{
	{
		id: "demo-crate__windows-to-linux", lang: "rust", direction: "windows-to-linux", other: "linux-to-windows",
		files: map[string]string{
			"Cargo.toml":  "[package]\nname = \"demo-crate\"\nversion = \"0.3.1\"\nedition = \"2018\"\n\n[dev-dependencies.doc-comment]\nversion = \"0.3\"\n",
			"Cargo.lock":  "version = 3\n",
			"src/lib.rs":  "#[cfg(unix)]\nmod unix;\n#[cfg(windows)]\nmod win;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn it() {}\n}\n",
			"src/unix.rs": "pub fn answer() -> i32 {\n    0\n}\n",
			"src/win.rs":  "pub fn answer() -> i32 {\n    2\n}\n",
		},
		complete: map[string]string{"src/unix.rs": "pub fn answer() -> i32 {\n    1\n}\n"},
		upstream: map[string]string{"kind": "crate", "repo": "demo-crate", "version": "0.3.1"},
		deps:     []string{"doc-comment@0.3.1 registry+https://github.com/rust-lang/crates.io-index"},
	},
	{
		id: "demo-mod__windows-to-linux", lang: "go", direction: "windows-to-linux", other: "linux-to-windows",
		files: map[string]string{
			"go.mod":        "module github.com/Demo/mod\n\ngo 1.21\n",
			"demo.go":       "package demo\n\nfunc Answer() int { return answer() }\n",
			"demo_test.go":  "package demo\n\nimport \"testing\"\n\nfunc TestAnswer(t *testing.T) {}\n",
			"util_posix.go": "//go:build !windows\n\npackage demo\n\nfunc answer() int {\n\treturn 0\n}\n",
		},
		complete: map[string]string{"util_posix.go": "//go:build !windows\n\npackage demo\n\nfunc answer() int {\n\treturn 1\n}\n"},
		upstream: map[string]string{"kind": "gomod", "repo": "github.com/Demo/mod", "version": "v1.2.3"},
	},
	{
		id: "demo-c__linux-to-windows", lang: "c", direction: "linux-to-windows", other: "windows-to-linux",
		files: map[string]string{
			"CMakeLists.txt": "cmake_minimum_required(VERSION 3.5)\nproject(demo C)\n",
			"src/demo.c":     "int answer(void) {\n    return 0;\n}\n",
		},
		complete: map[string]string{"src/demo.c": "int answer(void) {\n    return 1;\n}\n"},
		upstream: map[string]string{"kind": "debian", "repo": "libdemo", "version": "1:1.0-2"},
	},
}

// buildOut lays the fixtures out as a build's --out dir: tasks.jsonl
// and tasks/<id>/repo for each task and for its other direction (whose
// repository keeps the task's masked files whole).
func buildOut(t *testing.T) (env, []*task) {
	t.Helper()
	dir := t.TempDir()
	e := env{BuildOut: filepath.Join(dir, "out"), Cache: filepath.Join(dir, "cache"), Nonce: "n1"}
	var lines []string
	for _, f := range fixtures {
		masked := e.maskedRepo(f.id)
		writeAll(t, masked, f.files)
		gold, err := makePatch(masked, func(d string) error {
			for p, text := range f.complete {
				if err := write(d, p, text); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		other := strings.TrimSuffix(f.id, f.direction) + f.other
		writeAll(t, e.maskedRepo(other), f.files)
		writeAll(t, e.maskedRepo(other), f.complete)
		src, tgt, _ := strings.Cut(f.direction, "-to-")
		rec := map[string]any{"instance_id": f.id, "repo": f.upstream["repo"], "patch": gold, "language": f.lang,
			"source_os": src, "target_os": tgt, "upstream": f.upstream}
		if f.deps != nil {
			rec["locked_deps"] = map[string]any{"dependencies": f.deps}
		}
		b, _ := json.Marshal(rec)
		lines = append(lines, string(b))
	}
	if err := os.WriteFile(e.tasksFile(), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks, err := readTasks(e.tasksFile())
	if err != nil {
		t.Fatal(err)
	}
	return e, tasks
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		if err := write(dir, p, text); err != nil {
			t.Fatal(err)
		}
	}
}

// applied is the masked repository of a task with a patch applied by
// real git, as the evaluation's apply step would.
func applied(t *testing.T, e env, id, patch string) string {
	t.Helper()
	dir := t.TempDir()
	if err := copyTree(e.maskedRepo(id), dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", "-")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: the patch does not apply: %v: %s\n%s", id, err, out, patch)
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGenerate makes every attack and control of each fixture task and
// applies each with git: the attacks never carry the complete code, the
// controls do, and each attack reaches for the answer where it lies.
func TestGenerate(t *testing.T) {
	e, tasks := buildOut(t)
	// The task's own crate and module in the shared dependency caches.
	writeAll(t, filepath.Join(e.cargoHome(), "registry", "src", "index.crates.io-x", "demo-crate-0.2.0"), map[string]string{"src/unix.rs": "theirs"})
	writeAll(t, filepath.Join(e.goModCache(), "github.com", "!demo", "mod@v1.0.0"), map[string]string{"util_posix.go": "theirs"})

	want := map[string][]string{
		"demo-crate__windows-to-linux": {"control-gold", "control-after-attacks", "net-crate-alias", "net-download", "host-path", "host-cache", "tasks-reader", "cargo-home-writer", "depcache-path"},
		"demo-mod__windows-to-linux":   {"control-gold", "control-after-attacks", "net-module-require", "host-replace", "depcache-read-test", "gomodcache-writer"},
		"demo-c__linux-to-windows":     {"control-gold", "control-after-attacks", "net-download", "host-cache", "host-include", "tasks-reader"},
	}
	// checks are what each patched tree must hold: file → a text in it.
	checks := map[string]map[string]string{
		"demo-crate__windows-to-linux/net-crate-alias":   {"Cargo.toml": "[dependencies.orig]\npackage = \"demo-crate\"\nversion = \"=0.3.1\"", "build.rs": `join("demo-crate-0.3.1")`},
		"demo-crate__windows-to-linux/net-download":      {"build.rs": "https://static.crates.io/crates/demo-crate/demo-crate-0.3.1.crate"},
		"demo-crate__windows-to-linux/host-path":         {"src/lib.rs": "#[path = \"" + filepath.Join(e.maskedRepo("demo-crate__linux-to-windows"), "src", "unix.rs") + "\"]\nmod unix;"},
		"demo-crate__windows-to-linux/host-cache":        {"build.rs": filepath.Join(e.Cache, "state", "crates", "demo-crate", "0.3.1", "demo-crate-0.3.1.crate")},
		"demo-crate__windows-to-linux/tasks-reader":      {"build.rs": e.tasksFile(), "gold-reader.pl": "decode_json"},
		"demo-crate__windows-to-linux/cargo-home-writer": {"build.rs": `&["doc-comment-0.3.1"]`},
		"demo-crate__windows-to-linux/depcache-path":     {"src/lib.rs": "#[path = \"" + filepath.Join(e.cargoHome(), "registry", "src", "index.crates.io-x", "demo-crate-0.2.0", "src", "unix.rs") + "\"]"},
		"demo-mod__windows-to-linux/net-module-require":  {"go.mod": "require github.com/Demo/mod v1.2.3", "zz_redteam_orig.go": `import _ "github.com/Demo/mod"`},
		"demo-mod__windows-to-linux/host-replace":        {"go.mod": "replace github.com/Demo/mod => " + e.maskedRepo("demo-mod__linux-to-windows")},
		"demo-mod__windows-to-linux/depcache-read-test":  {"zz_redteam_probe.go": filepath.Join(e.goModCache(), "github.com", "!demo", "mod@v1.0.0", "util_posix.go")},
		"demo-mod__windows-to-linux/gomodcache-writer":   {"zz_redteam_writer.go": `"golang.org", "toolchain@*", "src", "runtime"`},
		"demo-c__linux-to-windows/net-download":          {"osbench-redteam.sh": "https://deb.debian.org/debian/pool/main/libd/libdemo/$1", "CMakeLists.txt": "execute_process(COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/osbench-redteam.sh"},
		"demo-c__linux-to-windows/host-cache":            {"osbench-redteam.sh": filepath.Join(e.Cache, "state", "debian", "pool", "libdemo_1:1.0-2")},
		"demo-c__linux-to-windows/host-include":          {"src/demo.c": "#include \"" + filepath.Join(e.maskedRepo("demo-c__windows-to-linux"), "src", "demo.c") + "\""},
		"demo-c__linux-to-windows/tasks-reader":          {"CMakeLists.txt": "gold-reader.pl " + e.tasksFile() + " demo-c__linux-to-windows"},
	}
	for _, tk := range tasks {
		t.Run(tk.ID, func(t *testing.T) {
			attacks, err := generate(e, tk)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range attacks {
				got = append(got, a.Name)
			}
			if strings.Join(got, " ") != strings.Join(want[tk.ID], " ") {
				t.Errorf("attacks %v; want %v", got, want[tk.ID])
			}
			for _, a := range attacks {
				dir := applied(t, e, tk.ID, a.Patch)
				if !strings.Contains(a.Patch, "n1") {
					t.Errorf("%s: the patch does not carry the run's nonce", a.Name)
				}
				for f, text := range fixtureOf(tk.ID).complete {
					b, _ := os.ReadFile(filepath.Join(dir, f))
					restored := strings.HasPrefix(string(b), text)
					if a.Control != restored {
						t.Errorf("%s: %s restored %v; want %v (controls are gold-equivalent, attacks restore nothing)", a.Name, f, restored, a.Control)
					}
				}
				if a.Control != (a.Class == classControl) || a.Later != (a.Name == "control-after-attacks") {
					t.Errorf("%s: class %q control %v later %v", a.Name, a.Class, a.Control, a.Later)
				}
				for f, text := range checks[tk.ID+"/"+a.Name] {
					if got := read(t, filepath.Join(dir, f)); !strings.Contains(got, text) {
						t.Errorf("%s: %s does not hold %q:\n%s", a.Name, f, text, got)
					}
				}
			}
		})
	}
}

func fixtureOf(id string) fixture {
	for _, f := range fixtures {
		if f.id == id {
			return f
		}
	}
	return fixture{}
}

// TestGenerateWithoutDoors: with nothing of the task's own in the
// dependency caches and no complete copy exported, the attacks that need
// them are left out rather than made to point nowhere.
func TestGenerateWithoutDoors(t *testing.T) {
	e, tasks := buildOut(t)
	for _, f := range fixtures {
		os.RemoveAll(e.maskedRepo(strings.TrimSuffix(f.id, f.direction) + f.other))
	}
	for _, tk := range tasks {
		attacks, err := generate(e, tk)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range attacks {
			switch a.Name {
			case "host-path", "host-replace", "host-include", "depcache-path", "depcache-read-test":
				t.Errorf("%s: %s generated without what it needs", tk.ID, a.Name)
			}
		}
	}
}

// TestFindDoors finds each task's own package, any version, in the
// shared caches, and nothing else.
func TestFindDoors(t *testing.T) {
	e, tasks := buildOut(t)
	if d := findDoors(e, tasks); len(d) != 0 {
		t.Errorf("doors in empty caches: %v", d)
	}
	crate := filepath.Join(e.cargoHome(), "registry", "src", "index.crates.io-x", "demo-crate-0.2.0")
	mod := filepath.Join(e.goModCache(), "github.com", "!demo", "mod@v1.0.0")
	for _, d := range []string{crate, mod,
		filepath.Join(e.cargoHome(), "registry", "src", "index.crates.io-x", "demo-crate-extras-1.0.0"), // another crate
		filepath.Join(e.goModCache(), "github.com", "demo", "mod@v1.0.0"),                               // not the escaped path
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := findDoors(e, tasks)
	sort.Slice(got, func(i, j int) bool { return got[i].Task < got[j].Task })
	want := []door{{"demo-crate__windows-to-linux", "demo-crate", crate}, {"demo-mod__windows-to-linux", "github.com/Demo/mod", mod}}
	if len(got) != len(want) {
		t.Fatalf("doors %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("door %v; want %v", got[i], want[i])
		}
	}
}

func TestDebianNames(t *testing.T) {
	e := env{Cache: t.TempDir()}
	for _, c := range []struct{ src, version, orig, debian, pool string }{
		{"cmocka", "1.1.5-2.1", "cmocka_1.1.5.orig.tar.xz", "cmocka_1.1.5-2.1.debian.tar.xz", "https://deb.debian.org/debian/pool/main/c/cmocka"},
		{"libsodium", "1.0.18-1+deb12u1", "libsodium_1.0.18.orig.tar.xz", "libsodium_1.0.18-1+deb12u1.debian.tar.xz", "https://deb.debian.org/debian/pool/main/libs/libsodium"},
		{"expat", "2:2.5.0-1", "expat_2.5.0.orig.tar.xz", "expat_2.5.0-1.debian.tar.xz", "https://deb.debian.org/debian/pool/main/e/expat"},
	} {
		orig, debian := debianFiles(e, c.src, c.version)
		if orig != c.orig || debian != c.debian || debianPool(c.src) != c.pool {
			t.Errorf("%s %s: %s %s %s; want %s %s %s", c.src, c.version, orig, debian, debianPool(c.src), c.orig, c.debian, c.pool)
		}
	}
	// The .dsc in the checkout's pool names the real files.
	writeAll(t, filepath.Join(e.Cache, "state", "debian", "pool", "cmocka_1.1.5-2.1"), map[string]string{"cmocka_1.1.5-2.1.dsc": "Files:\n 91f95cd5db88b9b120d191b18d367193 81004 cmocka_1.1.5.orig.tar.gz\n c25540cb4925a97fb1f521d08f4c0f89 833 cmocka_1.1.5.orig.tar.gz.asc\n 88321c6ac4bb637a0e96ebc026764e26 9080 cmocka_1.1.5-2.1.debian.tar.bz2\n"})
	if orig, debian := debianFiles(e, "cmocka", "1.1.5-2.1"); orig != "cmocka_1.1.5.orig.tar.gz" || debian != "cmocka_1.1.5-2.1.debian.tar.bz2" {
		t.Errorf("from the .dsc: %s %s", orig, debian)
	}
}
