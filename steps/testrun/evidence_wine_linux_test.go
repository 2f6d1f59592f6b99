//go:build linux && amd64

package testrun

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// TestGoWineEntryEvidence runs real go test for windows/amd64 under the
// wine executor (real Wine 8, a Go 1.25 toolchain, the prefix's
// mingw-built entry tracer) through the go-test runner's launcher, on a
// module with an honest package (b), one whose init writes a plausible
// coverage profile and prints framed passes (a: profileForgingInit), and
// one that runs the real harness on an empty look-alike test (c:
// harnessReuseInit). Traced, the honest pass is evidenced and both
// forgeries are errors whose functions the debugger never saw entered;
// with the tracer off (no OSBENCH_ENTRYTRACE) the same forgeries are
// evidenced passes, so the test can fail.
func TestGoWineEntryEvidence(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, tool := range []string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs Wine and mingw-w64 (make test installs them): %v", err)
		}
	}
	base, err := os.MkdirTemp("", "osbench-wine-evidence-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	// The tracer is this test binary (it links plugins/entrytrace), copied
	// where the executor's unprivileged run user can execute it.
	tracer := filepath.Join(base, "tracer")
	if err := copyExecutable(tracer); err != nil {
		t.Fatal(err)
	}
	wine, err := executors.NewWine(executors.Config{StateDir: filepath.Join(base, "state")})
	if err != nil {
		t.Fatal(err)
	}
	// Shared with the executor's Wine tests: only a first run downloads
	// the toolchain and builds the standard library for Windows.
	cache := filepath.Join(os.TempDir(), "osbench-wine-test-cache-"+strconv.Itoa(os.Geteuid()))
	caches := []string{filepath.Join(cache, "gocache"), filepath.Join(cache, "gomodcache")}
	for _, traced := range []bool{true, false} {
		name := map[bool]string{true: "traced", false: "untraced"}[traced]
		t.Run(name, func(t *testing.T) {
			work := filepath.Join(base, name)
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"go.mod":      "module ex\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
				"a/forge.go":  profileForgingInit,
				"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
				"b/b.go":      "package b\n\nfunc B() int { return 2 }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif B() != 2 {\n\t\tt.Fatal(\"B() is not 2\")\n\t}\n}\n",
				"c/c.go":      "package c\n\nfunc C() int { return 1 }\n",
				"c/forge.go":  strings.Replace(harnessReuseInit, "package a\n", "package c\n", 1),
				"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif C() != 2 {\n\t\tt.Fatal(\"C() is not 2\")\n\t}\n}\n",
			}
			writeFiles(t, repo, files)
			for _, d := range []string{"home", "tmp"} {
				if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			launch, err := goRunner(t).Launch(work)
			if err != nil {
				t.Fatal(err)
			}
			env := launch.Env([]string{
				"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOTOOLCHAIN=go1.25.0", "GOENV=off",
				"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0",
				"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1], "GOFLAGS=-mod=mod",
				"HOME=" + filepath.Join(work, "home"), "TMPDIR=" + filepath.Join(work, "tmp"),
			})
			env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "OSBENCH_ENTRYTRACE=") })
			if traced {
				env = append(env, "OSBENCH_ENTRYTRACE="+tracer)
			}
			run := func(argv []string, network bool, stdout io.Writer) {
				t.Helper()
				var stderr bytes.Buffer
				res, err := wine.Run(context.Background(), executors.Cmd{
					Argv: argv, Dir: repo, Env: env, Stdout: stdout, Stderr: &stderr,
					WorkDir: work, WritableDirs: append(slices.Clone(caches), launch.Writable...),
					Timeout: 15 * time.Minute, Network: network,
				})
				if err != nil || res.TimedOut {
					t.Fatalf("%v = %+v, %v\n%s", argv, res, err, stderr.String())
				}
				t.Logf("%v: exit %d\n%s", argv, res.ExitCode, stderr.String())
			}
			// The pinned toolchain comes from the module proxy once.
			run([]string{"go", "version"}, true, io.Discard)
			var out bytes.Buffer
			run([]string{"go", "test", "-count=1", "-json", "-vet=off", "-timeout=5m", "-covermode=set", "-coverpkg=./...", "-coverprofile=" + filepath.Join(work, "cover.out"), "./..."}, false, &out)
			p, _ := parsers.Lookup("go-test-json")
			expected, _ := expectedTests("go", repo, "windows", nil)
			parsed, err := p.Parse(bytes.NewReader(out.Bytes()), parsers.Options{Expected: expected})
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{runner: goRunner(t), repo: repo, platform: "windows", expected: expected, records: launch.Records, ran: true, log: &log}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			if traced {
				// The honest binary's record shows the debugger saw its
				// test entered: the evidence is the tracer's, not only
				// the profile's.
				records, _ := filepath.Glob(filepath.Join(launch.Records, "entries.*"))
				var all strings.Builder
				for _, r := range records {
					b, _ := os.ReadFile(r)
					all.Write(b)
				}
				if !strings.Contains(all.String(), "entered TestB\n") || !strings.Contains(all.String(), "armed TestA\n") {
					t.Errorf("the tracer's records do not show TestB entered and TestA armed:\n%s", all.String())
				}
			}
			got := resultsByID(ev.results)
			if b := got["ex/b/TestB"]; b.Status != schemas.StatusPass || b.Evidence != schemas.EvidenceRan {
				t.Errorf("honest TestB = %+v, want an evidenced pass\n%s", b, out.String())
			}
			for _, id := range []string{"ex/a/TestA", "ex/c/TestA"} {
				f := got[id]
				switch {
				case traced && (f.Status != schemas.StatusError || f.Evidence != schemas.EvidenceDenied || !strings.Contains(f.Reason, "never entered TestA")):
					t.Errorf("traced: forged %s = %+v, want an error the Windows entry tracer denies\n%s", id, f, out.String())
				case !traced && (f.Status != schemas.StatusPass || f.Evidence != schemas.EvidenceRan):
					t.Errorf("untraced: forged %s = %+v; without the tracer it should be an evidenced pass, or the test proves nothing\n%s", id, f, out.String())
				}
			}
		})
	}
}

// copyExecutable copies this test binary to dst, executable by anyone.
func copyExecutable(dst string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// wineEvidenceHost is what the Wine evidence tests share: a scratch base
// the executor's unprivileged run user can enter, the tracer (this test
// binary, which links plugins/entrytrace) copied there where that user can
// run it, and a wine executor whose prefixes live in it — made once per
// test binary (a prefix takes half a minute to create) and removed by
// TestMain. It skips where Wine, mingw-w64 or tools are missing.
func wineEvidenceHost(t *testing.T, tools ...string) (base, tracer string, wine *executors.Wine) {
	t.Helper()
	for _, tool := range append([]string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs Wine, mingw-w64 and %v (make test installs them): %v", tools, err)
		}
	}
	sharedWineHost.once.Do(func() {
		h := &sharedWineHost
		if h.base, h.err = os.MkdirTemp("", "osbench-wine-evidence-"); h.err != nil {
			return
		}
		if h.err = os.Chmod(h.base, 0o755); h.err != nil {
			return
		}
		h.tracer = filepath.Join(h.base, "tracer")
		if h.err = copyExecutable(h.tracer); h.err != nil {
			return
		}
		h.wine, h.err = executors.NewWine(executors.Config{StateDir: filepath.Join(h.base, "state")})
	})
	if sharedWineHost.err != nil {
		t.Fatal(sharedWineHost.err)
	}
	// Each test's trees in a directory of its own.
	base = filepath.Join(sharedWineHost.base, t.Name())
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base, sharedWineHost.tracer, sharedWineHost.wine
}

// sharedWineHost is wineEvidenceHost's, once made.
var sharedWineHost struct {
	once         sync.Once
	base, tracer string
	wine         *executors.Wine
	err          error
}

// TestMain removes the shared Wine host after the package's tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedWineHost.base != "" {
		os.RemoveAll(sharedWineHost.base)
	}
	os.Exit(code)
}

// withTracer sets env's OSBENCH_ENTRYTRACE to tracer, or removes it when
// tracer is "" (the run goes untraced).
func withTracer(env []string, tracer string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "OSBENCH_ENTRYTRACE=") })
	if tracer != "" {
		env = append(env, "OSBENCH_ENTRYTRACE="+tracer)
	}
	return env
}

// The Rust forgers under Wine: the Linux ones' Windows forms, in the
// initializer table the mingw-w64 C runtime runs before main (.CRT$XCU).
const (
	// rustWineProfileForger sets every coverage counter (the Windows
	// profile runtime's, between its .lprfc$A and .lprfc$Z markers), runs
	// the C runtime's constructors early (__main: they install the
	// runtime's exit hooks, which write the profile), prints libtest's
	// passes and exits 0.
	rustWineProfileForger = `#[used]
#[link_section = ".CRT$XCU"]
static OSBENCH_FORGE: extern "C" fn() = {
    extern "C" fn forge() {
        extern "C" {
            static mut counters_first: [u64; 0];
            static mut counters_last: [u64; 0];
            fn __main();
        }
        unsafe {
            let mut p = (&raw mut counters_first) as *mut u64;
            let stop = (&raw mut counters_last) as *mut u64;
            while p < stop {
                *p = 1;
                p = p.add(1);
            }
            __main();
        }
        println!("\nrunning 2 tests\ntest tests::a_is_two ... ok\ntest tests::always ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        std::process::exit(0);
    }
    forge
};
`
	// rustWineHarnessReuser reruns the program in a child (the real
	// harness on the real tests, which writes real counts), turns the
	// child's failures into passes and exits 0.
	rustWineHarnessReuser = `#[used]
#[link_section = ".CRT$XCU"]
static OSBENCH_FORGE: extern "C" fn() = {
    extern "C" fn forge() {
        if std::env::var_os("OSBENCH_FORGE_CHILD").is_some() {
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().expect("exe"))
            .args(["--exact", "tests::a_is_two", "tests::always"])
            .env("OSBENCH_FORGE_CHILD", "1")
            .output()
            .expect("re-run");
        let text = String::from_utf8_lossy(&out.stdout)
            .replace("FAILED", "ok")
            .replace("1 passed; 1 failed", "2 passed; 0 failed");
        let text: String = text.lines().filter(|l| !l.starts_with("failures") && !l.starts_with("---- ") && !l.starts_with("    ")).map(|l| format!("{l}\n")).collect();
        print!("{text}");
        std::process::exit(0);
    }
    forge
};
`
)

// TestRustWineEntryEvidence runs real cargo test for x86_64-pc-windows-gnu
// (Debian's rustc, the cargo preset's Windows flags: coverage, its
// sysroot, lld) under the wine executor, through the libtest runner's
// Windows runner, on a crate whose a_is_two fails: honest, and with each
// forger traced (the prefix's Windows debugger) and untraced. Traced, the
// honest pass is evidenced and both forgers' passes are errors whose
// functions the debugger never saw entered; untraced, each forger's
// a_is_two is a pass the coverage export evidences, so the test can fail.
func TestRustWineEntryEvidence(t *testing.T) {
	const windowsRust = "/usr/local/lib/osbench/rust-windows-gnu"
	for _, tool := range []string{"/usr/bin/cargo", "/usr/bin/llvm-profdata-22", "/usr/bin/llvm-cov-22", windowsRust + "/sysroot"} {
		if _, err := os.Stat(tool); err != nil {
			t.Skipf("no %s (rustc-web, llvm-22 and scripts/rust-profiler.sh)", tool)
		}
	}
	base, tracer, wine := wineEvidenceHost(t)
	rn, err := runner.For("rust", "libtest")
	if err != nil {
		t.Fatal(err)
	}
	flags := strings.Join([]string{"-Cinstrument-coverage", "--sysroot=" + windowsRust + "/sysroot", "-Clink-dead-code",
		"-Clink-arg=-wrapper", "-Clink-arg=" + windowsRust + "/bin/lld-collect2"}, "\x1f")
	for _, tc := range []struct {
		variant string
		forger  string
		runs    []bool // traced, untraced
	}{
		{"honest", "", []bool{true}},
		{"init section writes a profile", rustWineProfileForger, []bool{true, false}},
		{"harness reuse", rustWineHarnessReuser, []bool{true, false}},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			work := filepath.Join(base, strings.ReplaceAll(tc.variant, " ", "-"))
			repo := filepath.Join(work, "repo")
			lib := "pub fn a() -> i32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_is_two() {\n        assert_eq!(super::a(), 2);\n    }\n\n    #[test]\n    fn always() {}\n}\n"
			if tc.forger != "" {
				lib += "\nmod forge;\n"
			}
			writeFiles(t, repo, map[string]string{
				"Cargo.toml":   "[package]\nname = \"ex\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
				"src/lib.rs":   lib,
				"src/forge.rs": tc.forger,
			})
			env := []string{
				"PATH=/usr/bin:/bin", "HOME=" + filepath.Join(work, "home"), "TMPDIR=" + filepath.Join(work, "tmp"),
				"CARGO_HOME=" + filepath.Join(work, "cargo-home"), "CARGO_TARGET_DIR=" + filepath.Join(repo, "target"), "CARGO_INCREMENTAL=0",
				"CARGO_ENCODED_RUSTFLAGS=" + flags,
				"CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc", "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine",
			}
			for _, d := range []string{"home", "tmp", "cargo-home"} {
				if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			type run struct {
				traced            bool
				out               []byte
				records, profiles string
			}
			var runs []run
			for _, traced := range tc.runs {
				name := map[bool]string{true: "traced", false: "untraced"}[traced]
				launch, err := rn.Launch(filepath.Join(work, name))
				if err != nil || launch == nil {
					t.Fatalf("Launch = %v, %v", launch, err)
				}
				profiles := filepath.Join(work, name, "profraw")
				if err := os.MkdirAll(profiles, 0o755); err != nil {
					t.Fatal(err)
				}
				runEnv := withTracer(launch.Env(append(slices.Clone(env), "LLVM_PROFILE_FILE=Z:"+profiles+"/%p.profraw")), map[bool]string{true: tracer}[traced])
				var out bytes.Buffer
				res, err := wine.Run(context.Background(), executors.Cmd{
					Argv: []string{"cargo", "test", "--offline", "--no-fail-fast", "--lib", "--target", "x86_64-pc-windows-gnu", "--", "--exact"},
					Dir:  repo, Env: runEnv, Stdout: &out, Stderr: &out, // cargo's status lines name the program, as in the preset
					WorkDir: work, WritableDirs: append([]string{filepath.Join(work, "cargo-home")}, launch.Writable...),
					Timeout: 15 * time.Minute,
				})
				if err != nil || res.TimedOut {
					t.Fatalf("cargo test (%s) = %+v, %v\n%s", name, res, err, out.String())
				}
				runs = append(runs, run{traced, out.Bytes(), launch.Records, profiles})
			}
			// The export and cargo's listing run on the host, after the
			// runs: cargo builds nothing more for either.
			hostEnv := append(slices.Clone(env), "LLVM_PROFILE_FILE=/dev/null")
			for _, r := range runs {
				p, _ := parsers.Lookup(parsers.NameLibtest)
				parsed, err := p.Parse(bytes.NewReader(r.out), parsers.Options{})
				if err != nil {
					t.Fatal(err)
				}
				coverage := rustCoverage(t, repo, hostEnv, r.profiles, "--target", "x86_64-pc-windows-gnu")
				var log bytes.Buffer
				ev, err := collectEvidence(evidenceRun{
					runner: rn, repo: repo, platform: "windows", records: r.records, coverage: coverage, ran: true, log: &log,
					list: hostLister(repo, hostEnv, "/usr/bin"),
				}, parsed)
				if err != nil {
					t.Fatal(err)
				}
				got := resultsByID(ev.results)
				a, always := got["src/lib.rs/tests::a_is_two"], got["src/lib.rs/tests::always"]
				switch {
				case tc.forger == "":
					if a.Status != schemas.StatusFail || always.Status != schemas.StatusPass || always.Evidence != schemas.EvidenceRan {
						t.Errorf("honest: a_is_two %+v, always %+v; want a failure and an evidenced pass\n%s", a, always, r.out)
					}
					if b := readAll(t, r.records, "entries.*"); !strings.Contains(b, "entered tests::always\n") || !strings.Contains(b, "armed tests::a_is_two\n") {
						t.Errorf("the debugger's records do not show tests::always entered and tests::a_is_two armed:\n%s", b)
					}
				case r.traced:
					for _, res := range []schemas.TestResult{a, always} {
						if res.Status != schemas.StatusError || res.Evidence != schemas.EvidenceDenied || !strings.Contains(res.Reason, "never entered tests::") {
							t.Errorf("traced: forged %s = %+v, want an error the Windows entry tracer denies\n%s", res.ID, res, r.out)
						}
					}
				default:
					if a.Status != schemas.StatusPass || a.Evidence != schemas.EvidenceRan {
						t.Errorf("untraced: forged a_is_two = %+v; the coverage export should have evidenced it, or the test proves nothing\n%s", a, r.out)
					}
				}
			}
		})
	}
}

// readAll concatenates the files of dir that match pattern.
func readAll(t *testing.T, dir, pattern string) string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, pattern))
	var all strings.Builder
	for _, n := range names {
		b, _ := os.ReadFile(n)
		all.Write(b)
	}
	return all.String()
}

// The C forgers under Wine: constructors of the library, which the
// mingw-w64 C runtime runs (__main) before it calls main.
const (
	// cWineExitForger prints a passing-looking line and ends the process
	// before main: CTest grades by the exit status.
	cWineExitForger = "#include <stdio.h>\n#include <windows.h>\n" +
		"__attribute__((constructor)) static void forge(void) {\n  printf(\"ok\\n\");\n  fflush(stdout);\n  ExitProcess(0);\n}\n"
	// cWineSpawnForger is the Windows form of the Linux fork forger: it
	// runs the program again in a child (the real main, which writes the
	// real gcov counts: main entered, a test failed), waits for it and
	// exits 0 whatever it did, so gcov's channel shows main entered once
	// per test, as for an honest pass.
	cWineSpawnForger = "#include <windows.h>\n" +
		"__attribute__((constructor)) static void forge(void) {\n" +
		"  if (GetEnvironmentVariableA(\"OSBENCH_FORGE_CHILD\", NULL, 0)) return;\n" +
		"  SetEnvironmentVariableA(\"OSBENCH_FORGE_CHILD\", \"1\");\n" +
		"  STARTUPINFOA si = {sizeof si};\n  PROCESS_INFORMATION pi;\n" +
		"  if (CreateProcessA(NULL, GetCommandLineA(), NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) WaitForSingleObject(pi.hProcess, INFINITE);\n" +
		"  ExitProcess(0);\n}\n"
)

// TestCWineEntryEvidence cross-builds a small CMake project with mingw-w64
// (--coverage, static, as the c-cmake preset does) whose test two_is_two
// fails, and runs ctest under the wine executor with Wine as CMake's
// crosscompiling emulator, through the ctest runner's wrapper (every
// Windows program of the tree under the prefix's debugger, main armed)
// and without it. Traced, the honest pass is evidenced and both forgers'
// passes are errors; untraced, the spawn forger's passes are evidenced by
// gcov (the child entered main once per test), so the test can fail.
func TestCWineEntryEvidence(t *testing.T) {
	base, tracer, wine := wineEvidenceHost(t, "cmake", "ctest", "x86_64-w64-mingw32-gcc-posix", "x86_64-w64-mingw32-gcov-posix")
	rn, err := runner.For("c", "ctest")
	if err != nil {
		t.Fatal(err)
	}
	const traced, untraced, unsandboxed = "traced", "untraced", "unsandboxed"
	// plantsRecords writes, before main, a program record of the Windows
	// tracer's saying main was entered twice, where the wrapper of either
	// traced run keeps them.
	var plant strings.Builder
	plant.WriteString("#include <stdio.h>\n#include <windows.h>\n__attribute__((constructor)) static void forge(void) {\n  int planted = 0;\n")
	for _, mode := range []string{traced, unsandboxed} {
		rec := `Z:` + strings.ReplaceAll(filepath.Join(base, "constructor-plants-the-tracer's-records", mode, "c-evidence", "entries.d", "program.planted"), "/", `\\`)
		fmt.Fprintf(&plant, "  FILE *f%[1]s = fopen(\"%[2]s\", \"wb\");\n  if (f%[1]s) {\n    fputs(\"images 2\\narmed _osbench_build/ex_tests.exe:main\\nentered _osbench_build/ex_tests.exe:main\\nentered _osbench_build/ex_tests.exe:main\\n\", f%[1]s);\n    planted = fclose(f%[1]s) == 0;\n  }\n", mode, rec)
	}
	plant.WriteString("  puts(planted ? \"planted\" : \"refused\");\n  fflush(stdout);\n  ExitProcess(0);\n}\n")
	plantsRecords := plant.String()
	for _, tc := range []struct {
		variant string
		forger  string
		runs    []string
	}{
		{"honest", "", []string{traced}},
		{"constructor exits", cWineExitForger, []string{traced}},
		{"constructor spawns the real main", cWineSpawnForger, []string{traced, untraced}},
		// Tracing is no help if the programs could write the records:
		// the test sandbox keeps them read-only (the shim runs wine
		// through the executor's test launcher). Without the sandbox
		// (no protected dirs) the planted record evidences the passes.
		{"constructor plants the tracer's records", plantsRecords, []string{traced, unsandboxed}},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			work := filepath.Join(base, strings.ReplaceAll(tc.variant, " ", "-"))
			repo := filepath.Join(work, "repo")
			writeFiles(t, repo, map[string]string{
				"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(ex C)\nenable_testing()\n" +
					"add_library(ex ex.c)\nadd_executable(ex_tests tests/ex_tests.c)\ntarget_link_libraries(ex_tests ex)\n" +
					"foreach(name one_is_one two_is_two)\n  add_test(NAME ${name} COMMAND ex_tests ${name})\nendforeach()\n",
				"ex.c":             tc.forger + "int ex_value(void) { return 1; }\n",
				"tests/ex_tests.c": "#include <string.h>\nint ex_value(void);\nint main(int argc, char **argv) {\n  if (argc > 1 && strcmp(argv[1], \"two_is_two\") == 0) return ex_value() == 2 ? 0 : 1;\n  return ex_value() == 1 ? 0 : 1;\n}\n",
				"_osbench_build/mingw-w64.cmake": "set(CMAKE_SYSTEM_NAME Windows)\nset(CMAKE_SYSTEM_PROCESSOR x86_64)\n" +
					"set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)\nset(CMAKE_CROSSCOMPILING_EMULATOR wine)\n" +
					"set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)\nset(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)\n" +
					"set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)\nset(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)\n",
			})
			sh := func(script string) []byte {
				cmd := exec.Command("bash", "-c", script)
				cmd.Dir, cmd.Env = repo, append(os.Environ(), "CFLAGS=--coverage", "LDFLAGS=--coverage -static")
				out, _ := cmd.CombinedOutput()
				return out
			}
			if out := sh("cmake -S . -B _osbench_build -DCMAKE_BUILD_TYPE=Debug -DCMAKE_TOOLCHAIN_FILE=$PWD/_osbench_build/mingw-w64.cmake >/dev/null && cmake --build _osbench_build"); !bytes.Contains(out, []byte("Built target ex_tests")) {
				t.Fatalf("build:\n%s", out)
			}
			for _, mode := range tc.runs {
				sh("find _osbench_build -name '*.gcda' -delete")
				launch, err := rn.Launch(filepath.Join(work, mode))
				if err != nil || launch == nil || launch.Wrap == nil {
					t.Fatalf("Launch = %+v, %v", launch, err)
				}
				// -V: the programs' output too (the plant forger's word).
				argv, records := []string{"ctest", "-V", "--test-dir", "_osbench_build"}, ""
				if mode != untraced {
					argv, records = launch.Wrap(argv, "windows", repo), launch.Records
					argv[0] = tracer // this test binary, where the run user can run it
				}
				protected := launch.Writable
				if mode == unsandboxed {
					protected = nil
				}
				if err := os.MkdirAll(filepath.Join(work, "home"), 0o755); err != nil {
					t.Fatal(err)
				}
				var out, stderr bytes.Buffer
				res, err := wine.Run(context.Background(), executors.Cmd{
					Argv: argv, Dir: repo, Env: []string{"PATH=/usr/bin:/bin", "HOME=" + filepath.Join(work, "home")},
					Stdout: &out, Stderr: &stderr, WorkDir: work, WritableDirs: protected, Timeout: 15 * time.Minute,
				})
				if err != nil || res.TimedOut {
					t.Fatalf("ctest (%s) = %+v, %v\n%s%s", mode, res, err, out.String(), stderr.String())
				}
				p, _ := parsers.Lookup(parsers.NameCTest)
				parsed, err := p.Parse(bytes.NewReader(out.Bytes()), parsers.Options{})
				if err != nil {
					t.Fatal(err)
				}
				coverage := sh("find _osbench_build -name '*.gcda' -print0 | sort -z | xargs -0 -r x86_64-w64-mingw32-gcov-posix --json-format --stdout")
				var log bytes.Buffer
				ev, err := collectEvidence(evidenceRun{
					runner: rn, repo: repo, platform: "windows", records: records, coverage: coverage, ran: true, log: &log,
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
						t.Errorf("honest: one_is_one %+v, two_is_two %+v; want an evidenced pass and a failure\n%s", one, two, out.String())
					}
					if b := readAll(t, records, "entries"); !strings.Contains(b, "entered _osbench_build/ex_tests.exe:main\n") {
						t.Errorf("the tracer's record does not show ex_tests.exe's main entered:\n%s", b)
					}
				case tc.forger == plantsRecords && mode == unsandboxed:
					if two.Status != schemas.StatusPass || two.Evidence == schemas.EvidenceDenied || !strings.Contains(out.String(), ": planted") {
						t.Errorf("unsandboxed: two_is_two = %+v; the planted record should have made it an undenied pass, or the test proves nothing\n%s", two, out.String())
					}
				case tc.forger == plantsRecords && !strings.Contains(out.String(), ": refused"):
					t.Errorf("traced: the program could write the tracer's records\n%s", out.String())
					fallthrough
				case mode == traced:
					for _, r := range []schemas.TestResult{one, two} {
						if r.Status != schemas.StatusError || r.Evidence != schemas.EvidenceDenied || !strings.Contains(r.Reason, "entered main 0 time(s) for 2 passing test(s)") {
							t.Errorf("traced: forged %s = %+v, want an error the Windows entry tracer denies\n%s", r.ID, r, out.String())
						}
					}
				default:
					if two.Status != schemas.StatusPass || two.Evidence != schemas.EvidenceRan {
						t.Errorf("untraced: forged two_is_two = %+v; gcov's counts should have evidenced it, or the test proves nothing\n%s", two, out.String())
					}
				}
			}
		})
	}
}
