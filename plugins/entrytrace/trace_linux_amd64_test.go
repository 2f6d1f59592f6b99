package entrytrace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// testBinary compiles a fixture package's tests with the real go command.
func testBinary(t *testing.T, fixture string, flags ...string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), fixture+".test")
	args := append([]string{"test", "-c", "-o", out}, flags...)
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = filepath.Join("testdata", fixture)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, b)
	}
	return out
}

// traced runs a test binary under the tracer with its output in a file.
func traced(t *testing.T, ctx context.Context, bin string, env []string, args ...string) (*Result, string, error) {
	t.Helper()
	outPath := filepath.Join(t.TempDir(), "out")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	res, err := Trace(ctx, Command{
		Path: bin, Args: append([]string{bin}, args...),
		Env: append(os.Environ(), env...), Dir: t.TempDir(),
		Stdout: out, Stderr: out, Select: GoTest,
	})
	b, _ := os.ReadFile(outPath)
	return res, string(b), err
}

func TestTraceSeesTheTestsThatRan(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
	}{
		{"exe", nil},
		{"pie", []string{"-buildmode=pie"}},
		// go test links the binaries it runs without a symbol table.
		{"stripped", []string{"-ldflags=-s -w"}},
		{"stripped pie", []string{"-buildmode=pie", "-ldflags=-s -w"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := testBinary(t, "suite", tc.flags...)
			res, out, err := traced(t, context.Background(), bin, nil,
				"-test.v", "-test.run", "^(TestAdd|TestSkipped|TestParallel|TestNilRecovered|TestSpawns|TestStopsChild|TestExternal|ExampleAdd)$")
			if err != nil {
				t.Fatalf("trace: %v\n%s", err, out)
			}
			if res.ExitCode != 0 || !strings.Contains(out, "\nPASS\n") {
				t.Fatalf("exit %d, want 0 and PASS:\n%s", res.ExitCode, out)
			}
			// TestSpawns runs the binary again as a child with TestChild:
			// a process the target starts is let go, so its entries are
			// not seen (and TestStopsChild's child stops for real).
			want := []string{"ExampleAdd", "TestAdd", "TestExternal", "TestNilRecovered", "TestParallel", "TestSkipped", "TestSpawns", "TestStopsChild"}
			if !slices.Equal(res.Entered, want) {
				t.Errorf("entered %v, want %v", res.Entered, want)
			}
			for _, name := range []string{"TestNeverSelected", "TestChild", "BenchmarkAdd", "TestAdd", "TestExternal"} {
				if !slices.Contains(res.Armed, name) {
					t.Errorf("%s not armed (armed: %v)", name, res.Armed)
				}
			}
			if res.Images != 1 {
				t.Errorf("%d processes ran the binary under the tracer, want 1 (its child is let go)", res.Images)
			}
		})
	}
}

// The test step runs a test binary behind launchers: a shell that execs
// it or waits for it, and the sandbox's unshare into new user, mount and
// PID namespaces. The tracer follows the tree to the binary.
func TestTraceThroughLaunchers(t *testing.T) {
	bin := testBinary(t, "suite")
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	for _, tc := range []struct {
		name   string
		argv   []string
		images int
	}{
		{"sh exec", []string{"/bin/sh", "-c", `exec "$0" "$@"`}, 1},
		{"sh child", []string{"/bin/sh", "-c", `"$0" "$@"; exit $?`}, 1},
		{"unshare namespaces", []string{unshare, "--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child", "--"}, 1},
		{"never runs it", []string{"/bin/sh", "-c", "exit 3"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.argv...), bin, "-test.run", "^(TestAdd|TestExternal)$")
			res, err := Trace(context.Background(), Command{
				Path: tc.argv[0], Args: args, Env: os.Environ(), Dir: t.TempDir(),
				Target: bin, Select: GoTest,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Images != tc.images {
				t.Fatalf("%d processes ran the target, want %d (%+v)", res.Images, tc.images, res)
			}
			want := []string{"TestAdd", "TestExternal"}
			if tc.images == 0 {
				want = nil
				if res.ExitCode != 3 {
					t.Errorf("exit %d, want 3", res.ExitCode)
				}
			} else if res.ExitCode != 0 {
				t.Errorf("exit %d, want 0", res.ExitCode)
			}
			if !slices.Equal(res.Entered, want) {
				t.Errorf("entered %v, want %v", res.Entered, want)
			}
		})
	}
}

func TestTraceFailingTestStillEntered(t *testing.T) {
	bin := testBinary(t, "suite")
	res, out, err := traced(t, context.Background(), bin, []string{"ENTRYTRACE_FAIL=1"}, "-test.run", "^TestFails$")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || !slices.Equal(res.Entered, []string{"TestFails"}) {
		t.Fatalf("exit %d entered %v; want 1 and [TestFails]:\n%s", res.ExitCode, res.Entered, out)
	}
}

// The forger of issue 21 prints passing framing and writes a profile from
// init: the tracer sees no test function entered.
func TestTraceForgerEntersNoTest(t *testing.T) {
	bin := testBinary(t, "forger")
	profile := filepath.Join(t.TempDir(), "cover.out")
	res, out, err := traced(t, context.Background(), bin, nil, "-test.v", "-test.coverprofile="+profile)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || !strings.Contains(out, "--- PASS: TestMasked") {
		t.Fatalf("the forger did not forge (exit %d):\n%s", res.ExitCode, out)
	}
	if _, err := os.Stat(profile); err != nil {
		t.Fatalf("the forger wrote no profile: %v", err)
	}
	if len(res.Entered) != 0 {
		t.Errorf("entered %v; the forger ran no test", res.Entered)
	}
	if !slices.Equal(res.Armed, []string{"TestAlsoMasked", "TestMasked"}) {
		t.Errorf("armed %v", res.Armed)
	}
}

func TestTraceCancelKills(t *testing.T) {
	bin := testBinary(t, "suite")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	res, _, err := traced(t, ctx, bin, []string{"ENTRYTRACE_SLEEP=1"}, "-test.run", "^TestSleeps$")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("took %s to stop a cancelled run", d)
	}
	if res == nil || res.Signal != "killed" || !slices.Contains(res.Entered, "TestSleeps") {
		t.Fatalf("result %+v; want killed after entering TestSleeps", res)
	}
}

func TestTraceNotAnELF(t *testing.T) {
	script := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Trace(context.Background(), Command{Path: script, Args: []string{script}, Select: GoTest})
	if err == nil || !strings.Contains(err.Error(), "entrytrace") {
		t.Fatalf("err %v, want a clear refusal", err)
	}
}

// cProgram compiles a C program with the real gcc into dir.
func cProgram(t *testing.T, dir, name, src string) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	c := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if b, err := exec.Command("gcc", "-o", out, c).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	return out
}

// TestTraceWithinCountsMains runs a shell that runs C programs of a build
// tree three times each: an honest one enters main in each process; one
// whose constructor exits 0 before main, and one whose constructor lets a
// forked child run main and exits 0 after it whatever it did, never do in
// a process the tracer follows. A program outside the tree is not armed.
func TestTraceWithinCountsMains(t *testing.T) {
	tree := t.TempDir()
	honest := cProgram(t, tree, "honest", "int main(void) { return 0; }\n")
	exits := cProgram(t, tree, "exits", "#include <unistd.h>\n__attribute__((constructor)) static void forge(void) { _exit(0); }\nint main(void) { return 1; }\n")
	forks := cProgram(t, tree, "forks", "#include <unistd.h>\n#include <sys/wait.h>\n__attribute__((constructor)) static void forge(void) {\n  if (fork() == 0) return;\n  wait(0);\n  _exit(0);\n}\nint main(void) { return 1; }\n")
	outside := cProgram(t, t.TempDir(), "outside", "int main(void) { return 0; }\n")
	script := strings.Join([]string{honest, honest, honest, exits, exits, exits, forks, forks, forks, outside}, " && ")
	res, err := Trace(context.Background(), Command{Path: "/bin/sh", Args: []string{"sh", "-c", script}, Within: tree, Select: CMain})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Trace = %+v, %v", res, err)
	}
	want := map[string]int{"honest:main": 3}
	if !slices.Equal(res.Armed, []string{"exits:main", "forks:main", "honest:main"}) || len(res.Entries) != 1 || res.Entries["honest:main"] != want["honest:main"] {
		t.Errorf("armed %v, entries %v; want three programs armed and %v", res.Armed, res.Entries, want)
	}
}
