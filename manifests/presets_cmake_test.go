package manifests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// These tests run the c-cmake preset's Linux build and test commands, as
// resolved for a manifest, on small real CMake projects, and read the
// results with the parser the preset chose: each of its runners, its
// parameters and its skip styles, end to end through cmake, gcc, ctest and
// (for the gtest runner) Debian's GoogleTest.

// demoSuite is a test program in the manner of libuv's and expat's: one
// program holds the suite; "--list" names its tests and an argument runs
// one, whose exit status says how it went. Its list has what real ones
// print: indentation, a note after the name, a Windows line end. Like
// libuv's, it says a test skipped itself with a TAP line of its own and a
// non-zero exit status, or (automake's way) with exit status 77, and it
// reads a fixture relative to the directory CTest runs it in.
const demoSuite = `#include <stdio.h>
#include <string.h>
#include "demo.h"
int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    puts("adds");
    puts("  fails_on_purpose (helpers: none)");
    puts("slow_one\r");
    puts("needs_tty");
    puts("self_skip");
    puts("reads_fixture");
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--run") == 0) {
    if (strcmp(argv[2], "adds") == 0) return demo_add(2, 2) == 4 ? 0 : 1;
    if (strcmp(argv[2], "fails_on_purpose") == 0) return 1;
    if (strcmp(argv[2], "slow_one") == 0) return 0;
    if (strcmp(argv[2], "needs_tty") == 0) {
      fprintf(stderr, "ok 1 - needs_tty # SKIP Cannot open /dev/tty\n");
      return 1;
    }
    if (strcmp(argv[2], "self_skip") == 0) return 77;
    if (strcmp(argv[2], "reads_fixture") == 0) {
      FILE *f = fopen("fixture.txt", "r");
      char line[16] = "";
      if (f == NULL) return 1;
      fgets(line, sizeof line, f);
      fclose(f);
      return strcmp(line, "fixture\n") == 0 ? 0 : 1;
    }
  }
  fprintf(stderr, "usage: suite --list | suite --run NAME\n");
  return 2;
}
`

// demoProject registers its tests only when DEMO_TESTS is on, as many
// projects do: without the cmake_options parameter ctest finds none.
var demoProject = map[string]string{
	"CMakeLists.txt": `cmake_minimum_required(VERSION 3.13)
project(demo C)
option(DEMO_TESTS "build the tests" OFF)
add_library(demo demo.c)
if(DEMO_TESTS)
  enable_testing()
  add_executable(suite suite.c)
  target_link_libraries(suite demo)
  add_test(NAME suite COMMAND suite WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  add_executable(unit_adds unit.c)
  target_link_libraries(unit_adds demo)
  add_test(NAME unit_adds COMMAND unit_adds 4)
  add_test(NAME unit_wrong COMMAND unit_adds 5)
  add_test(NAME generated_1 COMMAND unit_adds 4)
  add_test(NAME generated_2 COMMAND unit_adds 5)
endif()
`,
	"demo.h":  "int demo_add(int a, int b);\n",
	"demo.c":  "#include \"demo.h\"\nint demo_add(int a, int b) { return a + b; }\n",
	"unit.c":  "#include <stdlib.h>\n#include \"demo.h\"\nint main(int argc, char **argv) { return argc == 2 && demo_add(2, 2) == atoi(argv[1]) ? 0 : 1; }\n",
	"suite.c": demoSuite,
	// suite's fixture, found from the source directory.
	"fixture.txt": "fixture\n",
}

// gtestProject links Debian's GoogleTest (libgtest-dev).
var gtestProject = map[string]string{
	"CMakeLists.txt": `cmake_minimum_required(VERSION 3.13)
project(gdemo CXX)
find_package(GTest REQUIRED)
add_executable(gdemo_test gdemo_test.cc)
target_link_libraries(gdemo_test GTest::gtest_main)
enable_testing()
add_test(NAME gdemo_test COMMAND gdemo_test)
`,
	"gdemo_test.cc": `#include <gtest/gtest.h>
TEST(Math, Adds) { EXPECT_EQ(4, 2 + 2); }
TEST(Math, FailsOnPurpose) { EXPECT_EQ(5, 2 + 2); }
TEST(Live, NeedsNetwork) { FAIL() << "no network here"; }
`,
}

// gtestCrashProject's program dies in two of its tests, a segfault and an
// abort, as c-ares' arestest did in a masked run: a GoogleTest program
// that dies writes no XML report.
var gtestCrashProject = map[string]string{
	"CMakeLists.txt": gtestProject["CMakeLists.txt"],
	"gdemo_test.cc": `#include <gtest/gtest.h>
#include <cstdlib>
TEST(Math, Adds) { EXPECT_EQ(4, 2 + 2); }
TEST(Math, FailsOnPurpose) { EXPECT_EQ(5, 2 + 2); }
TEST(Crash, Segfaults) { volatile int *p = nullptr; *p = 1; }
TEST(Live, NeedsNetwork) { FAIL() << "no network here"; }
class Sizes : public testing::TestWithParam<int> {};
TEST_P(Sizes, AbortsOnTwo) { if (GetParam() == 2) std::abort(); }
INSTANTIATE_TEST_SUITE_P(Some, Sizes, testing::Values(1, 2, 3));
TEST(Zlast, RunsAfterTheCrashes) { EXPECT_TRUE(true); }
`,
}

func TestCMakePresetRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("builds CMake projects")
	}
	for _, tool := range []string{"cmake", "ctest", "gcc", "gcov", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	tests := []struct {
		name    string
		project map[string]string
		body    string // after source and migrate
		parser  string
		want    map[string]schemas.Status
		// notBuilt is a program the targets parameter leaves unbuilt.
		notBuilt string
	}{{
		name:    "ctest with cmake_options, the targets it needs, a glob skip",
		project: demoProject,
		body: `params = {
    cmake_options = ["-DDEMO_TESTS=ON"]
    targets       = ["unit_adds"]
  }
  platform "linux" {
    test { skip = ["generated_*", "suite"] }
  }`,
		parser:   "ctest",
		want:     map[string]schemas.Status{"unit_adds": schemas.StatusPass, "unit_wrong": schemas.StatusFail},
		notBuilt: "suite",
	}, {
		name:    "each: list, then run every test alone where CTest runs the suite; the program's skips",
		project: demoProject,
		body: `params = {
    cmake_options  = ["-DDEMO_TESTS=ON"]
    runner         = "each"
    programs       = ["suite"]
    list_args      = ["--list"]
    run_args       = ["--run"]
    skip_exit_code = 77
  }
  platform "linux" {
    test { skip = ["suite/slow_*"] }
  }`,
		parser: "tap",
		want: map[string]schemas.Status{
			"suite/adds": schemas.StatusPass, "suite/fails_on_purpose": schemas.StatusFail, "suite/slow_one": schemas.StatusSkip,
			"suite/needs_tty": schemas.StatusSkip, "suite/self_skip": schemas.StatusSkip, "suite/reads_fixture": schemas.StatusPass,
		},
	}, {
		name:    "each: a working_dir of its own, a bare skip entry, no skip exit code",
		project: demoProject,
		body: `params = {
    cmake_options = ["-DDEMO_TESTS=ON"]
    runner        = "each"
    programs      = ["suite"]
    list_args     = ["--list"]
    run_args      = ["--run"]
    working_dir   = "_osbench_build"
  }
  platform "linux" {
    test { skip = ["slow_one"] }
  }`,
		parser: "tap",
		want: map[string]schemas.Status{
			"suite/adds": schemas.StatusPass, "suite/fails_on_purpose": schemas.StatusFail, "suite/slow_one": schemas.StatusSkip,
			"suite/needs_tty": schemas.StatusSkip, "suite/self_skip": schemas.StatusFail, "suite/reads_fixture": schemas.StatusFail,
		},
	}, {
		name:    "gtest: the XML report, a --gtest_filter skip",
		project: gtestProject,
		body: `params = { runner = "gtest", programs = ["gdemo_test"] }
  platform "linux" {
    test { skip = ["Live.*"] }
  }`,
		parser: "junit",
		want:   map[string]schemas.Status{"Math/Adds": schemas.StatusPass, "Math/FailsOnPurpose": schemas.StatusFail},
	}, {
		name:    "gtest: a program that dies in a test; the test is an error, the rest still report",
		project: gtestCrashProject,
		body: `params = { runner = "gtest", programs = ["gdemo_test"] }
  platform "linux" {
    test { skip = ["Live.*"] }
  }`,
		parser: "junit",
		want: map[string]schemas.Status{
			"Math/Adds": schemas.StatusPass, "Math/FailsOnPurpose": schemas.StatusFail, "Crash/Segfaults": schemas.StatusError,
			"Some/Sizes/AbortsOnTwo/0": schemas.StatusPass, "Some/Sizes/AbortsOnTwo/1": schemas.StatusError,
			"Some/Sizes/AbortsOnTwo/2": schemas.StatusPass, "Zlast/RunsAfterTheCrashes": schemas.StatusPass,
		},
	}, {
		name:    "gtest: a program that dies, no skip filter",
		project: gtestCrashProject,
		body:    `params = { runner = "gtest", programs = ["gdemo_test"] }`,
		parser:  "junit",
		want: map[string]schemas.Status{
			"Math/Adds": schemas.StatusPass, "Math/FailsOnPurpose": schemas.StatusFail, "Crash/Segfaults": schemas.StatusError,
			"Live/NeedsNetwork": schemas.StatusFail, "Some/Sizes/AbortsOnTwo/0": schemas.StatusPass,
			"Some/Sizes/AbortsOnTwo/1": schemas.StatusError, "Some/Sizes/AbortsOnTwo/2": schemas.StatusPass,
			"Zlast/RunsAfterTheCrashes": schemas.StatusPass,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.project["gdemo_test.cc"] != "" {
				if _, err := os.Stat("/usr/include/gtest/gtest.h"); err != nil {
					t.Skip("GoogleTest not installed (Debian: apt-get install libgtest-dev)")
				}
			}
			dir := writeFiles(t, tt.project)
			r := loadOne(t, `repository "demo" {
  preset = "c-cmake"
  source {
    path = "`+dir+`"
  }
  migrate = ["linux->windows"]
  `+tt.body+`
}
`)
			linux := r.Platforms[0]
			if linux.Test.Parser != tt.parser {
				t.Fatalf("parser = %q, want %q", linux.Test.Parser, tt.parser)
			}
			if out, err := runIn(dir, linux.Build.Argv); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			if tt.notBuilt != "" {
				if _, err := os.Stat(filepath.Join(dir, "_osbench_build", tt.notBuilt)); err == nil {
					t.Errorf("%s was built, though not among the targets", tt.notBuilt)
				}
			}
			// The parser reads stdout alone, as the test step's does: what
			// the programs print goes to stderr, the log.
			out, stderr, err := runStdout(dir, linux.Test.Argv)
			if _, failed := err.(*exec.ExitError); err != nil && !failed {
				t.Fatal(err)
			}
			if linux.Test.Report != "" {
				if out, err = os.ReadFile(filepath.Join(dir, linux.Test.Report)); err != nil {
					t.Fatalf("report: %v", err)
				}
			}
			parser, _ := parsers.Lookup(tt.parser)
			results, err := parser.Parse(bytes.NewReader(out), parsers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := make(map[string]schemas.Status)
			for _, res := range results {
				got[res.ID] = res.Status
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results = %v, want %v\noutput:\n%s\nstderr:\n%s", got, tt.want, out, stderr)
			}
			if cov, err := os.Stat(filepath.Join(dir, linux.Coverage.Path)); err != nil || cov.Size() == 0 {
				t.Errorf("no coverage written: %v", err)
			}
		})
	}
}

// runIn runs argv in dir and returns its stdout; stderr goes to the error.
func runIn(dir string, argv []string) ([]byte, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.Bytes()...), err
	}
	return out, nil
}

// runStdout runs argv in dir and returns its stdout and stderr apart.
func runStdout(dir string, argv []string) (stdout, stderr []byte, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	stdout, err = cmd.Output()
	return stdout, errBuf.Bytes(), err
}

// TestCMakePresetEachUnderWine: the each runner on Windows finds the
// program CTest registered behind its emulator (wine PROGRAM.exe), runs it
// in the registered WORKING_DIRECTORY through Wine, and reads its skips.
func TestCMakePresetEachUnderWine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a CMake project for Windows")
	}
	for _, tool := range []string{"cmake", "ctest", "bash", "x86_64-w64-mingw32-gcc-posix", "x86_64-w64-mingw32-gcov-posix", "wine"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
		}
	}
	env := ownWinePrefix(t)
	dir := writeFiles(t, demoProject)
	r := loadOne(t, `repository "demo" {
  preset = "c-cmake"
  source {
    path = "`+dir+`"
  }
  migrate = ["linux->windows"]
  params = {
    cmake_options  = ["-DDEMO_TESTS=ON"]
    runner         = "each"
    programs       = ["suite"]
    list_args      = ["--list"]
    run_args       = ["--run"]
    skip_exit_code = 77
  }
  platform "windows" {
    test { skip = ["suite/slow_*"] }
  }
}
`)
	windows := r.Platforms[1]
	for k, v := range windows.Env {
		env = append(env, k+"="+v)
	}
	if out, err := runInEnv(dir, env, windows.Build.Argv); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(windows.Test.Argv[0], windows.Test.Argv[1:]...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatal(err)
	}
	parser, _ := parsers.Lookup(windows.Test.Parser)
	results, err := parser.Parse(bytes.NewReader(out), parsers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]schemas.Status)
	for _, res := range results {
		got[res.ID] = res.Status
	}
	want := map[string]schemas.Status{
		"suite/adds": schemas.StatusPass, "suite/fails_on_purpose": schemas.StatusFail, "suite/slow_one": schemas.StatusSkip,
		"suite/needs_tty": schemas.StatusSkip, "suite/self_skip": schemas.StatusSkip, "suite/reads_fixture": schemas.StatusPass,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results = %v, want %v\noutput:\n%s\nstderr:\n%s", got, want, out, stderr.String())
	}
}

// TestBuildTimeoutSetting: the C presets bound their builds apart from the
// tests (30m), and a manifest's build block overrides it per platform.
func TestBuildTimeoutSetting(t *testing.T) {
	r := loadOne(t, `repository "demo" {
  preset = "c-cmake"
  source {
    path = "."
  }
  migrate = ["linux->windows"]
  platform "windows" {
    build { timeout = "45m" }
  }
}
`)
	got := map[string]time.Duration{}
	for _, p := range r.Platforms {
		got[p.Name] = p.BuildTimeout
	}
	if want := map[string]time.Duration{"linux": 30 * time.Minute, "windows": 45 * time.Minute}; !reflect.DeepEqual(got, want) {
		t.Errorf("build timeouts = %v, want %v", got, want)
	}
	if r.Platforms[1].Build == nil || len(r.Platforms[1].Build.Argv) == 0 {
		t.Errorf("the windows build lost the preset's command: %+v", r.Platforms[1].Build)
	}
}
