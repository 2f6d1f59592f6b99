package executors

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/entrytrace"
)

// entryTracedC is a mingw C program for the Windows entry tracer: main
// calls helper and never never; it exits 7.
const entryTracedC = `#include <stdio.h>
int helper(int x) { return x * 2; }
int never(void) { return 3; }
int main(void) { printf("helper %d\n", helper(21)); return 7; }
`

// entryRaceC starts 16 threads that call work at once: threads that
// execute work's int3 before the debugger took it away for the first one
// must be rewound as well (an earlier debugger passed their breakpoints on
// to the program, which died of them in 2 of 3 runs).
const entryRaceC = `#include <windows.h>
#include <stdio.h>
static volatile LONG go;
__attribute__((noinline)) int work(int x) { return x + 1; }
static DWORD WINAPI run(LPVOID p) { while (!go) ; return work((int)(INT_PTR)p); }
int main(void) {
    HANDLE t[16];
    for (int i = 0; i < 16; i++) t[i] = CreateThread(NULL, 0, run, (LPVOID)(INT_PTR)i, 0, NULL);
    Sleep(100);
    go = 1;
    WaitForMultipleObjects(16, t, TRUE, INFINITE);
    printf("all threads done\n");
    return 0;
}
`

// TestWineEntryTracerThreadsEnterAtOnce runs entryRaceC ten times under
// the tracer (the plan written here, arming work): each run ends well and
// records work entered.
func TestWineEntryTracerThreadsEnterAtOnce(t *testing.T) {
	f := sharedWine(t)
	_, build := entryTracerPrograms(t, f)
	work := scratchDir(t)
	if err := os.WriteFile(filepath.Join(work, "race.c"), []byte(entryRaceC), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{mingwCC, "-O1", "-o", "race.exe", "race.c"}, Dir: work, WorkDir: work,
		Stdout: &out, Stderr: &out, Timeout: 5 * time.Minute,
	})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("building the C program: %+v, %v\n%s", res, err, out.String())
	}
	funcs, err := entrytrace.PEFuncs(filepath.Join(work, "race.exe"), func(s string) (string, bool) { return s, s == "work" })
	if err != nil || len(funcs) != 1 {
		t.Fatalf("PEFuncs = %v, %v", funcs, err)
	}
	plan := fmt.Sprintf("fd 9\narm %x work\nrun %s\n", funcs[0].RVA, windowsPath(filepath.Join(work, "race.exe")))
	if err := os.WriteFile(filepath.Join(work, "plan"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		record := filepath.Join(work, fmt.Sprint("record", i))
		var stdout, stderr bytes.Buffer
		res, err := f.wine.Run(context.Background(), Cmd{
			Argv: []string{"sh", "-c", `exec go_windows_amd64_exec "$0" "$1" 9>"$2"`, entrytrace.WineTracer, windowsPath(filepath.Join(work, "plan")), record},
			Dir:  build, WorkDir: work, Stdout: &stdout, Stderr: &stderr, Timeout: 5 * time.Minute,
		})
		b, _ := os.ReadFile(record)
		if err != nil || res.ExitCode != 0 || !strings.Contains(stdout.String(), "all threads done") || !strings.Contains(string(b), "entered work\nexit 0\n") {
			t.Fatalf("run %d: %+v, %v\n%s%s\nrecord:\n%s", i, res, err, stdout.String(), stderr.String(), b)
		}
	}
}

// TestWineEntryTracer runs Windows programs under the prefix's entry
// tracer (osbench-entrytrace.exe, built by the prefix's creation), through
// the tracer's Linux side (this test binary, which links
// plugins/entrytrace, as osbench does) and go_windows_amd64_exec: a Go
// 1.25 test binary whose tests start goroutines on many threads, are
// preempted and recover from an access violation (plugins/entrytrace/
// testdata/winsuite), and a mingw C program. The records name the
// functions entered and not the one never called, and each program's
// output and exit status are its own.
func TestWineEntryTracer(t *testing.T) {
	f := sharedWine(t)
	work := scratchDir(t)
	tracer, build := entryTracerPrograms(t, f)
	for _, tt := range []struct {
		name, selector, program string
		args                    []string
		exit                    int
		output                  []string
		entered, notEntered     []string
	}{
		{"go", "go", "winsuite.test.exe", []string{"-test.v", "-test.run=TestAdd|TestParallel|TestRecovered|TestExternal|ExampleAdd"}, 0,
			[]string{"--- PASS: TestParallel/7", "--- PASS: TestRecovered", "--- PASS: ExampleAdd", "\nPASS\n"},
			[]string{"TestAdd", "TestParallel", "TestRecovered", "TestExternal", "ExampleAdd"}, []string{"TestNeverSelected"}},
		{"c", "c", "c.exe", nil, 7, []string{"helper 42"}, []string{"main"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			records := filepath.Join(work, tt.name)
			if err := os.MkdirAll(records, 0o755); err != nil {
				t.Fatal(err)
			}
			record := filepath.Join(records, "entries")
			prog := filepath.Join(build, tt.program)
			argv := append([]string{tracer, entrytrace.MainArg, "-select=" + tt.selector, "-wine", record, prog, "go_windows_amd64_exec", prog}, tt.args...)
			var stdout, stderr bytes.Buffer
			res, err := f.wine.Run(context.Background(), Cmd{
				Argv: argv, Dir: build, WorkDir: work, Stdout: &stdout, Stderr: &stderr, Timeout: 5 * time.Minute,
			})
			if err != nil || res.TimedOut || res.ExitCode != tt.exit {
				t.Fatalf("traced %s = %+v, %v (want exit %d)\n%s%s", tt.program, res, err, tt.exit, stdout.String(), stderr.String())
			}
			for _, o := range tt.output {
				if !strings.Contains(stdout.String(), o) {
					t.Errorf("output lacks %q:\n%s", o, stdout.String())
				}
			}
			b, err := os.ReadFile(record)
			if err != nil {
				t.Fatal(err)
			}
			rec := entrytrace.ParseRecord(b)
			if rec == nil {
				t.Fatalf("no record of a traced run:\n%s\n%s", b, stderr.String())
			}
			for _, n := range tt.entered {
				if !rec.Entered[n] {
					t.Errorf("%s not entered:\n%s", n, b)
				}
			}
			for _, n := range tt.notEntered {
				if !rec.NotEntered(n) {
					t.Errorf("%s not armed, or entered:\n%s", n, b)
				}
			}
		})
	}
}

// entryTracerPrograms builds what the entry tracer's tests and benchmark
// run, once per fixture: the tracer's Linux side (this test binary, which
// links plugins/entrytrace as osbench does, copied where the run user may
// execute it), the winsuite test binary and the C program, in build.
func entryTracerPrograms(t testing.TB, f *wineFixture) (tracer, build string) {
	t.Helper()
	tracer = filepath.Join(f.stateDir, "entrytracer")
	build = filepath.Join(f.stateDir, "winsuite-build")
	if _, err := os.Stat(filepath.Join(build, "c.exe")); err == nil {
		return tracer, build
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tracer, b, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs(filepath.Join("..", "entrytrace", "testdata", "winsuite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{"go", "test", "-c", "-o", filepath.Join(build, "winsuite.test.exe"), "."}, Dir: src, WorkDir: build,
		Env: f.goEnv, WritableDirs: f.goCaches, Stdout: &out, Stderr: &out, Timeout: 10 * time.Minute,
	})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("building the Windows test suite: %+v, %v\n%s", res, err, out.String())
	}
	if err := os.WriteFile(filepath.Join(build, "c.c"), []byte(entryTracedC), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	res, err = f.wine.Run(context.Background(), Cmd{
		Argv: []string{mingwCC, "-O0", "-o", "c.exe", "c.c"}, Dir: build, WorkDir: build,
		Stdout: &out, Stderr: &out, Timeout: 5 * time.Minute,
	})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("building the C program: %+v, %v\n%s", res, err, out.String())
	}
	return tracer, build
}

// BenchmarkWineEntryTracer runs the winsuite test binary (its passing
// tests, parallel ones included) under Wine plainly and under the Windows
// entry tracer, side by side, each through go_windows_amd64_exec with a
// wineserver of its own as go test runs it: the cost of entry evidence
// for a Windows Go package (make bench).
func BenchmarkWineEntryTracer(b *testing.B) {
	f := sharedWine(b)
	tracer, build := entryTracerPrograms(b, f)
	work := scratchDir(b)
	prog := filepath.Join(build, "winsuite.test.exe")
	args := []string{prog, "-test.run=TestAdd|TestParallel|TestRecovered|TestExternal|ExampleAdd"}
	for _, traced := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "traced"}[traced], func(b *testing.B) {
			argv := append([]string{"go_windows_amd64_exec"}, args...)
			if traced {
				argv = append([]string{tracer, entrytrace.MainArg, "-wine", filepath.Join(work, "entries"), prog}, argv...)
			}
			for b.Loop() {
				var out bytes.Buffer
				res, err := f.wine.Run(context.Background(), Cmd{
					Argv: argv, Dir: build, WorkDir: work, Stdout: &out, Stderr: &out, Timeout: 5 * time.Minute,
				})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%+v %v\n%s", res, err, out.String())
				}
			}
		})
	}
}
