package manifests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/coverage"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// These tests run the c-autotools preset's build and test commands, as
// resolved for a manifest, on a small real autotools project: autoreconf
// (the tree has only configure.ac), configure, make, make check through
// automake's parallel harness with the preset's test driver, and the .trs
// files read back as TAP by the tap parser.

// autotoolsProject has a libtool library at the top and its tests in a
// subdirectory: one passing, one failing, one that skips itself (exit 77),
// one listed in XFAIL_TESTS, one the manifest skips, and a shell script
// run through TEST_EXTENSIONS' own driver variable.
var autotoolsProject = map[string]string{
	"configure.ac": `AC_INIT([demo], [1.0])
AC_CONFIG_AUX_DIR([build-aux])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AM_PROG_AR
LT_INIT
AC_CONFIG_FILES([Makefile tests/Makefile])
AC_OUTPUT
`,
	"Makefile.am": `SUBDIRS = . tests
lib_LTLIBRARIES = libdemo.la
libdemo_la_SOURCES = demo.c demo.h
`,
	"demo.h": "int demo_add(int a, int b);\n",
	"demo.c": "#include \"demo.h\"\nint demo_add(int a, int b) { return a + b; }\n",
	"tests/Makefile.am": `check_PROGRAMS = adds wrong skips_itself known_bug needs_network
LDADD = ../libdemo.la
AM_CPPFLAGS = -I$(top_srcdir)
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
TESTS = $(check_PROGRAMS) script.sh
XFAIL_TESTS = known_bug
EXTRA_DIST = script.sh
`,
	"tests/adds.c":          "#include \"demo.h\"\nint main(void) { return demo_add(2, 2) == 4 ? 0 : 1; }\n",
	"tests/wrong.c":         "#include \"demo.h\"\nint main(void) { return demo_add(2, 2) == 5 ? 0 : 1; }\n",
	"tests/skips_itself.c":  "int main(void) { return 77; }\n",
	"tests/known_bug.c":     "int main(void) { return 1; }\n",
	"tests/needs_network.c": "int main(void) { return 1; }\n",
	"tests/script.sh":       "test 4 -eq $((2 + 2))\n",
}

func TestAutotoolsPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an autotools project")
	}
	for _, tool := range []string{"autoreconf", "automake", "libtoolize", "make", "gcc", "gcov", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
		}
	}
	want := map[string]schemas.Status{
		"tests/adds":          schemas.StatusPass,
		"tests/wrong":         schemas.StatusFail,
		"tests/skips_itself":  schemas.StatusSkip,
		"tests/known_bug":     schemas.StatusSkip,
		"tests/needs_network": schemas.StatusSkip,
		"tests/script":        schemas.StatusPass,
	}
	for i, platform := range []string{"linux", "windows"} {
		t.Run(platform, func(t *testing.T) {
			// The platforms build apart, each in its own tree.
			t.Parallel()
			var env []string
			if platform == "windows" {
				for _, tool := range []string{"x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-gcov", "wine"} {
					if _, err := exec.LookPath(tool); err != nil {
						t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
					}
				}
				// A Wine prefix of the test's own, as the wine executor
				// gives each run one osbench owns.
				prefix := filepath.Join(t.TempDir(), "wine")
				env = []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all"}
				// The prefix's wineserver outlives the last program by a
				// few seconds and writes the registry as it exits: stop it
				// before the temporary directory is removed (cleanups run
				// last-registered first), or the removal races its writes.
				t.Cleanup(func() {
					kill := exec.Command("wineserver", "-k")
					kill.Env = append(os.Environ(), "WINEPREFIX="+prefix)
					_ = kill.Run()
					wait := exec.Command("wineserver", "-w")
					wait.Env = kill.Env
					_ = wait.Run()
				})
			}
			dir := t.TempDir()
			for name, content := range autotoolsProject {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := loadOne(t, `repository "demo" {
  preset = "c-autotools"
  source {
    path = "`+dir+`"
  }
  migrate = ["linux->windows"]
  platform "`+platform+`" {
    test { skip = ["tests/needs_*"] }
  }
}
`)
			p := r.Platforms[i]
			if p.Name != platform || p.Test.Parser != "tap" {
				t.Fatalf("platform %d is %q with parser %q, want %s with tap", i, p.Name, p.Test.Parser, platform)
			}
			for k, v := range p.Env {
				env = append(env, k+"="+v)
			}
			if out, err := runInEnv(dir, env, p.Build.Argv); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			out, err := runInEnv(dir, env, p.Test.Argv)
			if _, failed := err.(*exec.ExitError); !failed {
				t.Fatalf("make check with a failing test: err = %v, want an exit status\n%s", err, out)
			}
			parser, _ := parsers.Lookup("tap")
			results, err := parser.Parse(bytes.NewReader(out), parsers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := make(map[string]schemas.Status)
			for _, res := range results {
				got[res.ID] = res.Status
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("results = %v, want %v\noutput:\n%s", got, want, out)
			}
			// The skip list keeps a test from running at all.
			if log, err := os.ReadFile(filepath.Join(dir, "tests", "needs_network.log")); err != nil || !bytes.Contains(log, []byte("skip list")) {
				t.Errorf("needs_network.log = %q (%v), want the skip list's note", log, err)
			}
			if executed := importGcov(t, dir, p.Coverage.Path); executed["demo.c"] == 0 {
				t.Errorf("no line of demo.c ran; coverage: %v", executed)
			}
		})
	}
}

// runInEnv is runIn with extra environment variables.
func runInEnv(dir string, env, argv []string) ([]byte, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.Bytes()...), err
	}
	return out, nil
}

// importGcov reads the coverage file the test command wrote with the gcov
// importer and returns the number of executed lines per repo-relative file.
func importGcov(t *testing.T, dir, file string) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		t.Fatalf("no coverage written: %v", err)
	}
	defer f.Close()
	importer, _ := coverage.Lookup("gcov")
	files, err := importer.Import(f, coverage.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	executed := make(map[string]int)
	for _, fc := range files {
		executed[fc.Path] = len(fc.Executed)
	}
	return executed
}
