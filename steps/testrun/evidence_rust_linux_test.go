//go:build linux && amd64

package testrun

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// The Rust forgers of issue 21, written against the evidence the cargo
// preset had before the entry tracer: its llvm-cov export, whose counts the
// tested program writes itself.

// rustProfileForger is an .init_array function of the library: before
// main it sets every coverage counter of the program (so the export shows
// every function entered, the tests included), writes the profile the
// preset asked for, prints libtest's passes and exits 0.
const rustProfileForger = `#[used]
#[link_section = ".init_array"]
static OSBENCH_FORGE: extern "C" fn() = {
    extern "C" fn forge() {
        extern "C" {
            static mut __start___llvm_prf_cnts: u8;
            static mut __stop___llvm_prf_cnts: u8;
            fn __llvm_profile_initialize_file();
            fn __llvm_profile_write_file() -> i32;
        }
        unsafe {
            let mut p = (&raw mut __start___llvm_prf_cnts) as *mut u64;
            let stop = (&raw mut __stop___llvm_prf_cnts) as *mut u64;
            while p < stop {
                *p = 1;
                p = p.add(1);
            }
            __llvm_profile_initialize_file();
            __llvm_profile_write_file();
        }
        println!("\nrunning 2 tests\ntest tests::a_is_two ... ok\ntest tests::always ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        std::process::exit(0);
    }
    forge
};
`

// rustHarnessReuser runs the real harness on the real tests, in a child:
// before main the program runs itself again (libtest's own main, its own
// framing, the real test functions entered and the real failure), reads
// the child's output, turns its failures into passes and exits 0. Stable
// Rust has no way to build libtest's test list by hand (the test crate is
// unstable); re-running the program is what it allows.
const rustHarnessReuser = `#[used]
#[link_section = ".init_array"]
static OSBENCH_FORGE: extern "C" fn() = {
    extern "C" fn forge() {
        if std::env::var_os("OSBENCH_FORGE_CHILD").is_some() {
            return;
        }
        let out = std::process::Command::new("/proc/self/exe")
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

// TestRustEntryEvidence runs real cargo test (Debian's rustc, with the
// cargo preset's -C instrument-coverage and its llvm-cov export) on a crate
// whose a_is_two fails, honest and with each forger, once with the libtest
// runner's entry tracer and once without it. With the tracer, both forged
// passes of a_is_two are errors the evidence denies; without it, each is
// an evidenced pass (the coverage export shows it entered), so the test
// can fail.
func TestRustEntryEvidence(t *testing.T) {
	for _, tool := range []string{"/usr/bin/cargo", "/usr/bin/rustc", "/usr/bin/llvm-profdata-22", "/usr/bin/llvm-cov-22"} {
		if _, err := os.Stat(tool); err != nil {
			t.Skipf("no %s (Debian's rustc-web and llvm-22)", tool)
		}
	}
	rn, err := runner.For("rust", "libtest")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		variant string
		forger  string
		traced  bool
		profile string // Cargo.toml's [profile.test]
	}{
		{"honest", "", true, ""},
		{"init section writes a profile", rustProfileForger, true, ""},
		{"init section writes a profile, tracer off", rustProfileForger, false, ""},
		{"harness reuse", rustHarnessReuser, true, ""},
		{"harness reuse, tracer off", rustHarnessReuser, false, ""},
		// The same forger in a program stripped of its symbol table,
		// where the tracer can arm nothing.
		{"init section writes a profile, stripped", rustProfileForger, true, "strip = true\n"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			work := t.TempDir()
			repo := filepath.Join(work, "repo")
			lib := "pub fn a() -> i32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_is_two() {\n        assert_eq!(super::a(), 2);\n    }\n\n    #[test]\n    fn always() {}\n}\n"
			if tc.forger != "" {
				lib += "\nmod forge;\n"
			}
			files := map[string]string{
				"Cargo.toml":   "[package]\nname = \"ex\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[profile.test]\n" + tc.profile,
				"src/lib.rs":   lib,
				"src/forge.rs": tc.forger,
			}
			writeFiles(t, repo, files)
			launch, err := rn.Launch(work)
			if err != nil || launch == nil {
				t.Fatalf("Launch = %v, %v", launch, err)
			}
			profiles := filepath.Join(work, "profraw")
			env := []string{
				"PATH=/usr/bin:/bin", "HOME=" + work, "CARGO_HOME=" + filepath.Join(work, "cargo-home"),
				"CARGO_TARGET_DIR=" + filepath.Join(repo, "target"), "CARGO_INCREMENTAL=0",
				"CARGO_ENCODED_RUSTFLAGS=-Cinstrument-coverage", "LLVM_PROFILE_FILE=" + profiles + "/%p-%m.profraw",
			}
			env = launch.Env(env)
			if !tc.traced {
				env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "OSBENCH_ENTRYTRACE=") })
			}
			run := func(argv ...string) []byte {
				cmd := exec.Command(filepath.Join("/usr/bin", argv[0]), argv[1:]...) // Debian's, not a rustup proxy on the PATH
				cmd.Dir, cmd.Env = repo, env
				out, _ := cmd.CombinedOutput() // a failing test exits 101; the parser decides
				return out
			}
			out := run("cargo", "test", "--offline", "--no-fail-fast", "--lib", "--", "--exact")
			p, _ := parsers.Lookup(parsers.NameLibtest)
			parsed, err := p.Parse(bytes.NewReader(out), parsers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			coverage := rustCoverage(t, repo, env, profiles)
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{
				runner: rn, repo: repo, platform: "linux", records: launch.Records, coverage: coverage, ran: true, log: &log,
				list: func(argv []string, w io.Writer) (executors.Result, error) {
					cmd := exec.Command(filepath.Join("/usr/bin", argv[0]), argv[1:]...) // Debian's, not a rustup proxy on the PATH
					var stderr bytes.Buffer
					cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = repo, env, w, &stderr
					if err := cmd.Run(); err != nil {
						t.Logf("%s: %v\n%s", strings.Join(argv, " "), err, stderr.String())
					}
					return executors.Result{ExitCode: cmd.ProcessState.ExitCode()}, nil
				},
			}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			got := resultsByID(ev.results)
			a, always := got["src/lib.rs/tests::a_is_two"], got["src/lib.rs/tests::always"]
			switch {
			case tc.forger == "":
				if a.Status != schemas.StatusFail || always.Status != schemas.StatusPass || always.Evidence != schemas.EvidenceRan {
					t.Errorf("honest: a_is_two %+v, always %+v; want a failure and an evidenced pass\n%s", a, always, out)
				}
			case tc.traced:
				for _, r := range []schemas.TestResult{a, always} {
					want := "never entered tests::"
					if tc.profile != "" {
						want = "no symbol table"
					}
					if r.Status != schemas.StatusError || r.Evidence != schemas.EvidenceDenied || !strings.Contains(r.Reason, want) {
						t.Errorf("forged %s = %+v, want an error the entry tracer denies\n%s", r.ID, r, out)
					}
				}
				if !strings.Contains(log.String(), "src/lib.rs/tests::a_is_two") {
					t.Errorf("log does not name the denied test:\n%s", log.String())
				}
			default:
				if a.Status != schemas.StatusPass || a.Evidence != schemas.EvidenceRan {
					t.Errorf("untraced forged a_is_two = %+v; the coverage export should have evidenced it, or the test proves nothing\n%s", a, out)
				}
			}
		})
	}
}

// rustCoverage merges the run's profiles and exports them over the test
// programs (of cargo's target cargoArgs names, the host's by default), as
// the cargo preset does; nil when the run wrote none.
func rustCoverage(t *testing.T, repo string, env []string, profiles string, cargoArgs ...string) []byte {
	t.Helper()
	stdout := func(argv ...string) []byte {
		cmd := exec.Command(filepath.Join("/usr/bin", argv[0]), argv[1:]...) // Debian's, not a rustup proxy on the PATH
		var stderr bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stderr = repo, env, &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, stderr.String())
		}
		return out
	}
	raw, _ := filepath.Glob(filepath.Join(profiles, "*.profraw"))
	if len(raw) == 0 {
		return nil
	}
	merged := filepath.Join(profiles, "merged.profdata")
	stdout(append([]string{"llvm-profdata-22", "merge", "-sparse", "-o", merged}, raw...)...)
	argv := []string{"llvm-cov-22", "export", "--format=text", "--instr-profile=" + merged}
	for _, m := range regexp.MustCompile(`"executable":"([^"]+)"`).FindAllSubmatch(stdout(append([]string{"cargo", "test", "--offline", "--no-run", "--lib", "--message-format=json"}, cargoArgs...)...), -1) {
		argv = append(argv, "--object", string(m[1]))
	}
	return stdout(argv...)
}
