package manifests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// TestCMakePresetCXXThreads builds testdata/cmake/cxxthreads, a C++17
// work queue on std::thread, std::mutex and std::condition_variable, with
// the c-cmake preset's commands for each platform, and runs its CTest
// tests: on Windows with the mingw-w64 compilers of the posix thread model
// (the preset's default) and the programs under Wine. The win32 thread
// model's g++ 12 has none of the three, so the same build fails there:
// what C++ libraries hit before the preset named its compilers.
func TestCMakePresetCXXThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a C++ project for Linux and Windows")
	}
	for _, tool := range []string{"cmake", "ctest", "g++", "gcov", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
		}
	}
	passed := map[string]schemas.Status{"sum_on_workers": schemas.StatusPass, "drain_on_stop": schemas.StatusPass}
	tests := []struct {
		name, platform string
		params         string // the manifest's params line, if any
		compiler       string // what the toolchain file must name ("" on Linux)
		buildFails     string // a line of the build's output when it must fail
	}{
		{name: "linux", platform: "linux"},
		{name: "windows, posix threads by default", platform: "windows", compiler: "x86_64-w64-mingw32-g++-posix"},
		{name: "windows, win32 threads", platform: "windows", params: `params = { mingw_threads = "win32" }`,
			compiler: "x86_64-w64-mingw32-g++-win32", buildFails: "'mutex' in namespace 'std' does not name a type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var env []string
			if tt.platform == "windows" {
				for _, tool := range []string{tt.compiler, "x86_64-w64-mingw32-gcov-posix", "wine"} {
					if _, err := exec.LookPath(tool); err != nil {
						t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
					}
				}
				env = ownWinePrefix(t)
			}
			dir := copyTestdataDir(t, filepath.Join("testdata", "cmake", "cxxthreads"))
			r := loadOne(t, `repository "cxxthreads" {
  preset = "c-cmake"
  source {
    path = "`+dir+`"
  }
  migrate = ["linux->windows"]
  `+tt.params+`
}
`)
			var p *Platform
			for _, candidate := range r.Platforms {
				if candidate.Name == tt.platform {
					p = candidate
				}
			}
			for k, v := range p.Env {
				env = append(env, k+"="+v)
			}
			// C locale: the compiler's quotes are ASCII.
			env = append(env, "LC_ALL=C")
			out, err := runInEnv(dir, env, p.Build.Argv)
			if tt.compiler != "" {
				toolchain, rerr := os.ReadFile(filepath.Join(dir, "_osbench_build", "mingw-w64.cmake"))
				if rerr != nil || !bytes.Contains(toolchain, []byte("set(CMAKE_CXX_COMPILER "+tt.compiler+")")) {
					t.Errorf("the toolchain file does not name %s (%v):\n%s", tt.compiler, rerr, toolchain)
				}
			}
			if tt.buildFails != "" {
				if err == nil || !strings.Contains(string(out), tt.buildFails) {
					t.Fatalf("build: err = %v, want a failure saying %q\n%s", err, tt.buildFails, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			out, err = runInEnv(dir, env, p.Test.Argv)
			if err != nil {
				t.Fatalf("test: %v\n%s", err, out)
			}
			parser, _ := parsers.Lookup(p.Test.Parser)
			results, err := parser.Parse(bytes.NewReader(out), parsers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := make(map[string]schemas.Status)
			for _, res := range results {
				got[res.ID] = res.Status
			}
			if !reflect.DeepEqual(got, passed) {
				t.Errorf("results = %v, want %v\noutput:\n%s", got, passed, out)
			}
			if executed := importGcov(t, dir, p.Coverage.Path); executed["workqueue.cpp"] == 0 {
				t.Errorf("no line of workqueue.cpp ran; coverage: %v", executed)
			}
		})
	}
}

// ownWinePrefix gives a test a Wine prefix of its own, as the wine
// executor gives each run one osbench owns, and stops its wineserver
// before the temporary directory goes: the server outlives the last
// program by a few seconds and writes the registry as it exits.
func ownWinePrefix(t *testing.T) []string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "wine")
	env := []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all"}
	t.Cleanup(func() {
		for _, arg := range []string{"-k", "-w"} {
			cmd := exec.Command("wineserver", arg)
			cmd.Env = append(os.Environ(), env...)
			_ = cmd.Run()
		}
	})
	return env
}

// copyTestdataDir copies a project under testdata into a fresh directory:
// its build writes beside its sources.
func copyTestdataDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
