//go:build linux && amd64

package testrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// The C forgers of issue 21: constructors in library code, which run
// before the test program's main.
const (
	// cExitForger prints CTest-looking passes and ends the process with
	// _exit(0) before main: CTest grades by the exit status.
	cExitForger = "#include <stdio.h>\n#include <unistd.h>\n" +
		"__attribute__((constructor)) static void forge(void) {\n  printf(\"ok\\n\");\n  fflush(stdout);\n  _exit(0);\n}\n"
	// cForkForger runs the real main in a forked child, which writes the
	// real gcov counts (main entered, a test failed), waits for it and
	// exits 0 whatever it did: gcov's channel shows main entered once
	// per test, as for an honest pass.
	cForkForger = "#include <unistd.h>\n#include <sys/wait.h>\n" +
		"__attribute__((constructor)) static void forge(void) {\n  if (fork() == 0) return;\n  wait(0);\n  _exit(0);\n}\n"
)

// TestCEntryEvidence builds a small CMake project (with --coverage, as the
// c-cmake preset does) whose test two_is_two fails, and runs ctest and the
// preset's gcov export honest and with each forger, under the ctest
// runner's wrapper (the entry tracer over the whole command) and without
// it. With the tracer both forgers' passes are errors the evidence denies;
// without it the fork forger's passes are evidenced by gcov (main entered
// once per test), so the test can fail.
func TestCEntryEvidence(t *testing.T) {
	for _, tool := range []string{"cmake", "ctest", "gcc", "gcov"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	rn, err := runner.For("c", "ctest")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		variant string
		forger  string
		traced  bool
	}{
		{"honest", "", true},
		{"constructor exits", cExitForger, true},
		{"constructor forks", cForkForger, true},
		{"constructor forks, tracer off", cForkForger, false},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			work := t.TempDir()
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(ex C)\nenable_testing()\n" +
					"add_library(ex ex.c)\nadd_executable(ex_tests tests/ex_tests.c)\ntarget_link_libraries(ex_tests ex)\n" +
					"foreach(name one_is_one two_is_two)\n  add_test(NAME ${name} COMMAND ex_tests ${name})\nendforeach()\n",
				// The forger sits in the library's own file, which the
				// test program links (a static library's other members
				// would be left out).
				"ex.c":             tc.forger + "int ex_value(void) { return 1; }\n",
				"tests/ex_tests.c": "#include <string.h>\nint ex_value(void);\nint main(int argc, char **argv) {\n  if (argc > 1 && strcmp(argv[1], \"two_is_two\") == 0) return ex_value() == 2 ? 0 : 1;\n  return ex_value() == 1 ? 0 : 1;\n}\n",
			}
			writeFiles(t, repo, files)
			env := append(os.Environ(), "CFLAGS=--coverage", "LDFLAGS=--coverage")
			sh := func(script string) []byte {
				cmd := exec.Command("bash", "-c", script)
				cmd.Dir, cmd.Env = repo, env
				out, _ := cmd.CombinedOutput() // a failing test exits 8; the parser decides
				return out
			}
			if out := sh("cmake -S . -B _osbench_build -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build _osbench_build"); !bytes.Contains(out, []byte("Built target ex_tests")) {
				t.Fatalf("build:\n%s", out)
			}
			launch, err := rn.Launch(work)
			if err != nil || launch == nil || launch.Wrap == nil {
				t.Fatalf("Launch = %+v, %v", launch, err)
			}
			argv, records := []string{"ctest", "--test-dir", "_osbench_build"}, ""
			if tc.traced {
				argv, records = launch.Wrap(argv, "linux", repo), launch.Records
			}
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir, cmd.Env = repo, env
			out, _ := cmd.CombinedOutput()
			p, _ := parsers.Lookup(parsers.NameCTest)
			parsed, err := p.Parse(bytes.NewReader(out), parsers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			coverage := sh("find _osbench_build -name '*.gcda' -print0 | sort -z | xargs -0 -r gcov --json-format --stdout")
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{
				runner: rn, repo: repo, platform: "linux", records: records, coverage: coverage, ran: true, log: &log,
				list: hostLister(repo, nil, ""),
			}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			got := resultsByID(ev.results)
			one, two := got["one_is_one"], got["two_is_two"]
			switch {
			case tc.forger == "":
				if one.Status != schemas.StatusPass || one.Evidence != schemas.EvidenceRan || two.Status != schemas.StatusFail {
					t.Errorf("honest: one_is_one %+v, two_is_two %+v; want an evidenced pass and a failure\n%s", one, two, out)
				}
			case tc.traced:
				for _, r := range []schemas.TestResult{one, two} {
					if r.Status != schemas.StatusError || r.Evidence != schemas.EvidenceDenied || !strings.Contains(r.Reason, "entered main 0 time(s) for 2 passing test(s)") {
						t.Errorf("forged %s = %+v, want an error the entry tracer denies\n%s", r.ID, r, out)
					}
				}
				if !strings.Contains(log.String(), "two_is_two") {
					t.Errorf("log does not name the denied test:\n%s", log.String())
				}
			default:
				if two.Status != schemas.StatusPass || two.Evidence != schemas.EvidenceRan {
					t.Errorf("untraced forged two_is_two = %+v; gcov's counts should have evidenced it, or the test proves nothing\n%s", two, out)
				}
			}
		})
	}
}
