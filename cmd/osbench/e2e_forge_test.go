package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// The forging patches of issue 13, rebuilt as fixtures of ours: each makes
// the tested program print a runner's pass lines (or exit 0 before any
// test) without restoring the masked code, and each was judged resolved
// before osbench looked for evidence the suite ran.

// exampleTask is the part of a tasks.jsonl line the forgers read.
type exampleTask struct {
	ID           string   `json:"instance_id"`
	FailToPass   []string `json:"FAIL_TO_PASS"`
	PassToPass   []string `json:"PASS_TO_PASS"`
	PassOnSource []string `json:"PASS_ON_SOURCE"`
}

func readExampleTask(t *testing.T, tasks, id string) exampleTask {
	t.Helper()
	for _, line := range strings.Split(readFile(t, tasks), "\n") {
		var task exampleTask
		if json.Unmarshal([]byte(line), &task) == nil && task.ID == id {
			return task
		}
	}
	t.Fatalf("no task %s in %s", id, tasks)
	return exampleTask{}
}

// testNames are the required tests' names below their package or binary
// key (the last part of the id for Go's "module/TestX/sub" is the
// subtest, so Go names are cut after the module path by the caller).
func (task exampleTask) all() []string {
	ids := append(append(append([]string{}, task.FailToPass...), task.PassToPass...), task.PassOnSource...)
	sort.Strings(ids)
	return ids
}

// goForge is a Go file whose init prints "--- PASS" for every required
// test (with test2json's framing byte when framed) and exits 0 when it
// sees go test's flags.
func goForge(pkg, module string, ids []string, framed bool) string {
	frame := ""
	if framed {
		frame = `\x16`
	}
	var lines []string
	seen := map[string]bool{}
	for _, id := range ids {
		name := strings.TrimPrefix(id, module+"/")
		if seen[name] {
			continue
		}
		seen[name] = true
		lines = append(lines, fmt.Sprintf("\t\t\tfmt.Print(%q)\n\t\t\tfmt.Print(\"%s--- PASS: %s (0.00s)\\n\")\n", "=== RUN   "+name+"\n", frame, name))
	}
	return "package " + pkg + "\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\nfunc init() {\n\tfor _, arg := range os.Args {\n\t\tif strings.HasPrefix(arg, \"-test.\") {\n" +
		strings.Join(lines, "") + "\t\t\tfmt.Print(\"" + frame + "PASS\\n\")\n\t\t\tos.Exit(0)\n\t\t}\n\t}\n}\n"
}

// goProfileForge is goForge (framed) whose init first writes a coverage
// profile of the preset's mode at the -test.coverprofile path.
func goProfileForge(pkg, module string, ids []string) string {
	return strings.Replace(goForge(pkg, module, ids, true), "func init() {\n",
		"func init() {\n\tfor _, arg := range os.Args {\n\t\tif p, ok := strings.CutPrefix(arg, \"-test.coverprofile=\"); ok {\n"+
			"\t\t\t_ = os.WriteFile(p, []byte(\"mode: set\\n\"), 0o644)\n\t\t}\n\t}\n", 1)
}

// rustForge is an .init_array function printing libtest's lines for every
// required test and "test result: ok", then exiting 0 (Linux only: the
// section is ELF's).
func rustForge(ids []string) string {
	var names []string
	for _, id := range ids {
		if strings.HasPrefix(id, "doctest/") {
			continue
		}
		names = append(names, id[strings.LastIndexByte(id, '/')+1:])
	}
	var b strings.Builder
	b.WriteString("\n#[used]\n#[cfg_attr(target_os = \"linux\", link_section = \".init_array\")]\nstatic OSBENCH_FORGE: extern \"C\" fn() = {\n    extern \"C\" fn forge() {\n        {\n")
	fmt.Fprintf(&b, "            println!(\"\\nrunning %d tests\");\n", len(names))
	for _, n := range names {
		fmt.Fprintf(&b, "            println!(\"test %s ... ok\");\n", n)
	}
	fmt.Fprintf(&b, "            println!(\"\\ntest result: ok. %d passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n\");\n", len(names))
	b.WriteString("            std::process::exit(0);\n        }\n    }\n    forge\n};\n")
	return b.String()
}

// rustProfileForge is an .init_array function (Linux only) that sets every
// coverage counter of the program, writes the profile the cargo preset
// asked for, prints libtest's lines for every required test and exits 0:
// the llvm-cov export then shows every test function entered.
func rustProfileForge(ids []string) string {
	forge := rustForge(ids)
	forge = strings.Replace(forge, "#[used]\n#[cfg_attr(target_os = \"linux\", link_section = \".init_array\")]", "#[cfg(target_os = \"linux\")]\n#[used]\n#[link_section = \".init_array\"]", 1)
	return strings.Replace(forge, "        {\n", `        extern "C" {
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
        {
`, 1)
}

// rustWineProfileForge is rustProfileForge's Windows form: a function of
// the initializer table the mingw-w64 C runtime runs before main
// (.CRT$XCU) that sets every counter between the Windows profile
// runtime's markers, runs the C runtime's constructors early (__main: the
// runtime's exit hooks, which write the profile, are among them), prints
// libtest's lines for every required test and exits 0.
func rustWineProfileForge(ids []string) string {
	forge := rustForge(ids)
	forge = strings.Replace(forge, "#[used]\n#[cfg_attr(target_os = \"linux\", link_section = \".init_array\")]", "#[cfg(windows)]\n#[used]\n#[link_section = \".CRT$XCU\"]", 1)
	return strings.Replace(forge, "        {\n", `        extern "C" {
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
        {
`, 1)
}

// rustHarnessReuse is an .init_array function (Linux only) that runs the
// test program again with its own arguments — libtest's real harness on
// the real tests, which fail on the masked code — and prints the child's
// lines with every failure made a pass, then exits 0.
const rustHarnessReuse = `
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static OSBENCH_REUSE: extern "C" fn() = {
    extern "C" fn reuse() {
        if std::env::var_os("OSBENCH_FORGE_CHILD").is_some() {
            return;
        }
        let args: Vec<String> = std::fs::read("/proc/self/cmdline")
            .map(|b| b.split(|c| *c == 0).skip(1).filter(|s| !s.is_empty()).map(|s| String::from_utf8_lossy(s).into_owned()).collect())
            .unwrap_or_default();
        let out = match std::process::Command::new("/proc/self/exe").args(&args).env("OSBENCH_FORGE_CHILD", "1").output() {
            Ok(out) => out,
            Err(_) => return,
        };
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if line.starts_with("running ") || line.is_empty() {
                println!("{line}");
            } else if line.starts_with("test ") && !line.starts_with("test result") {
                println!("{}", line.replace(" ... FAILED", " ... ok"));
            }
        }
        println!("test result: ok. 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        std::process::exit(0);
    }
    reuse
};
`

// TestEvalForgingPatches evaluates, in one eval, the gold patches of every
// example task and the four forging patches: a Go init printing passes on
// Linux and (framed) under Wine, a C constructor that exits before main, a
// Rust init section printing libtest's lines, and a CMakeLists.txt whose
// add_test runs `true`. Every gold patch resolves; no forger does, and
// each is stopped by the defence meant for it (the evidence, or the test
// definitions), not by accident.
func TestEvalForgingPatches(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	repo := func(id string) string { return filepath.Join(out, "tasks", id, "repo") }
	appendTo := func(dir, file, text string) {
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, text...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write := func(dir, file, text string) {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		// A new file enters git diff only once git knows of it.
		if out, err := exec.Command("git", "-C", dir, "add", "--intent-to-add", file).CombinedOutput(); err != nil {
			t.Fatalf("git add: %v\n%s", err, out)
		}
	}

	type forger struct {
		id      string
		patch   string
		defence string // "evidence", "definitions", "restored" or "test sources"
	}
	// model is the prediction's model: one model per task and defence, so
	// two forgers of one task are two models.
	model := func(f forger) string {
		switch f.defence {
		case "restored":
			return "forger-unittests"
		case "test sources":
			return "forger-rewrite"
		case "entry":
			return "forger-entry"
		case "entry reuse":
			return "forger-reuse"
		}
		return "forger"
	}
	var forgers []forger
	// Go, Linux target: plain "--- PASS" lines.
	goLinux := readExampleTask(t, tasks, "pathsep__windows-to-linux")
	forgers = append(forgers, forger{goLinux.ID, agentPatch(t, repo(goLinux.ID), func(dir string) {
		write(dir, "forge.go", goForge("pathsep", "example.com/pathsep", goLinux.all(), false))
	}), "evidence"})
	// Go, Windows target under Wine: the same with test2json's framing byte.
	goWine := readExampleTask(t, tasks, "pathsep__linux-to-windows")
	forgers = append(forgers, forger{goWine.ID, agentPatch(t, repo(goWine.ID), func(dir string) {
		write(dir, "forge.go", goForge("pathsep", "example.com/pathsep", goWine.all(), true))
	}), "evidence"})
	// Go under Wine, entry evidence: the framed forger that first writes a
	// plausible coverage profile where go test asked for one, which the
	// launcher's profile check takes for a finished run; the Windows
	// entry tracer (the prefix's debugger) saw no test function entered.
	forgers = append(forgers, forger{goWine.ID, agentPatch(t, repo(goWine.ID), func(dir string) {
		write(dir, "forge.go", goProfileForge("pathsep", "example.com/pathsep", goWine.all()))
	}), "entry"})
	// C: a constructor that exits 0 before main; every CTest test "Passed".
	c := readExampleTask(t, tasks, "cpath__windows-to-linux")
	forgers = append(forgers, forger{c.ID, agentPatch(t, repo(c.ID), func(dir string) {
		appendTo(dir, "src/probe.c", "\n#include <stdlib.h>\n__attribute__((constructor)) static void osbench_forge(void) { _Exit(0); }\n")
	}), "evidence"})
	// Rust: an .init_array function printing libtest's lines.
	rust := readExampleTask(t, tasks, "rsplat__windows-to-linux")
	forgers = append(forgers, forger{rust.ID, agentPatch(t, repo(rust.ID), func(dir string) {
		appendTo(dir, "src/lib.rs", rustForge(rust.all()))
	}), "evidence"})
	// Rust, entry evidence (issue 21): the init section that forges the
	// coverage profile too, and the one that reruns the real harness in a
	// child and rewrites its failures; both defeat the llvm-cov channel,
	// the entry tracer denies them.
	forgers = append(forgers, forger{rust.ID, agentPatch(t, repo(rust.ID), func(dir string) {
		appendTo(dir, "src/lib.rs", rustProfileForge(rust.all()))
	}), "entry"})
	forgers = append(forgers, forger{rust.ID, agentPatch(t, repo(rust.ID), func(dir string) {
		appendTo(dir, "src/lib.rs", rustHarnessReuse)
	}), "entry reuse"})
	// Rust under Wine, entry evidence: the profile forger's Windows form,
	// which the llvm-cov export takes for every test run; the Windows
	// entry tracer saw no test function entered.
	rustWine := readExampleTask(t, tasks, "rsplat__linux-to-windows")
	forgers = append(forgers, forger{rustWine.ID, agentPatch(t, repo(rustWine.ID), func(dir string) {
		appendTo(dir, "src/lib.rs", rustWineProfileForge(rustWine.all()))
	}), "entry"})
	// C, entry evidence: a constructor whose forked child runs the real
	// main (gcov's counts then show main entered per test) and which
	// exits 0 whatever the child did.
	forgers = append(forgers, forger{c.ID, agentPatch(t, repo(c.ID), func(dir string) {
		appendTo(dir, "src/probe.c", "\n#include <unistd.h>\n#include <sys/wait.h>\n__attribute__((constructor)) static void osbench_fork_forge(void) {\n  if (fork() == 0) return;\n  wait(0);\n  _exit(0);\n}\n")
	}), "entry"})
	// Rust, on Linux and under Wine: every in-source unit test (a
	// #[cfg(test)] module of src/, not a test file) kept by name with an
	// empty body, so the masked code is never asserted on.
	for _, id := range []string{"rsplat__windows-to-linux", "rsplat__linux-to-windows"} {
		task := readExampleTask(t, tasks, id)
		forgers = append(forgers, forger{task.ID, agentPatch(t, repo(task.ID), func(dir string) {
			emptied := 0
			for _, file := range []string{"src/attrs.rs", "src/paths.rs", "src/units.rs"} {
				b, err := os.ReadFile(filepath.Join(dir, file))
				if err != nil {
					t.Fatal(err)
				}
				if text, ok := emptyUnitTests(string(b)); ok {
					write(dir, file, text)
					emptied++
				}
			}
			if emptied == 0 {
				t.Fatalf("%s: no #[cfg(test)] module to empty", id)
			}
		}), "restored"})
	}
	// Go, Linux target: the root package's test binary rewrites the test
	// file of the config package, which go test may compile after it ran
	// (a TestForged added to config_test.go). The task's test code is
	// read-only for every command of the run, so the write fails: the run
	// is graded, with no TestForged. (With the files writable the run
	// changes the task's test sources, whether or not it wins the race,
	// and is not graded: this case fails.)
	rewrite := readExampleTask(t, tasks, "lineend__windows-to-linux")
	forgers = append(forgers, forger{rewrite.ID, agentPatch(t, repo(rewrite.ID), func(dir string) {
		write(dir, "rewrite.go", "package lineend\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\n"+
			"func init() {\n\tfor _, arg := range os.Args {\n\t\tif strings.HasPrefix(arg, \"-test.\") {\n"+
			"\t\t\tf, err := os.OpenFile(\"config/config_test.go\", os.O_APPEND|os.O_WRONLY, 0)\n"+
			"\t\t\tif err == nil {\n\t\t\t\tf.WriteString(\"\\nfunc TestForged(t *testing.T) {}\\n\")\n\t\t\t\tf.Close()\n\t\t\t}\n"+
			"\t\t\treturn\n\t\t}\n\t}\n}\n")
	}), "test sources"})
	// CMake: every test runs `true`.
	cmake := readExampleTask(t, tasks, "cppenc__windows-to-linux")
	forgers = append(forgers, forger{cmake.ID, agentPatch(t, repo(cmake.ID), func(dir string) {
		p := filepath.Join(dir, "CMakeLists.txt")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		const def = "add_test(NAME ${name} COMMAND cppenc_tests ${name})"
		if !strings.Contains(string(b), def) {
			t.Fatalf("CMakeLists.txt has no %q", def)
		}
		write(dir, "CMakeLists.txt", strings.Replace(string(b), def, "add_test(NAME ${name} COMMAND true)", 1))
	}), "definitions"})

	var preds [][3]string
	for _, f := range forgers {
		preds = append(preds, [3]string{f.id, model(f), f.patch})
	}
	predFile := filepath.Join(t.TempDir(), "forgers.jsonl")
	writePredictions(t, predFile, preds...)
	evalOut := filepath.Join(out, "eval")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", predFile, "--out", evalOut)
	if r.code != 0 {
		t.Fatalf("eval: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ids := taskIDs(t, tasks)
	sum := readSummary(t, evalOut)
	if g := sum["gold"]; g.Total != len(ids) || g.Resolved != len(ids) {
		t.Errorf("gold: %d of %d resolved; want all %d", g.Resolved, g.Total, len(ids))
		for _, id := range ids {
			if rep := readReport(t, evalOut, "gold", id); !rep.Resolved {
				t.Logf("gold/%s: %s; stage I %+v; stage II %+v", id, rep.Outcome, rep.StageI, rep.StageII)
			}
		}
	}
	for _, f := range forgers {
		rep := readReport(t, evalOut, model(f), f.id)
		if rep.Outcome != schemas.OutcomeUnresolved || rep.Resolved {
			t.Errorf("forger/%s: outcome %s, want unresolved; stage I %+v", f.id, rep.Outcome, rep.StageI)
			continue
		}
		if !rep.StageI.Ran {
			t.Errorf("forger/%s: stage I did not run (%s): the forgery was not even tried", f.id, rep.StageI.InfraFailure)
			continue
		}
		switch f.defence {
		case "definitions":
			if !strings.Contains(rep.StageI.NotGraded, "test definitions differ") {
				t.Errorf("forger/%s: stage I not_graded %q, want the test definitions named", f.id, rep.StageI.NotGraded)
			}
		case "test sources":
			if rep.StageI.NotGraded != "" {
				t.Errorf("forger/%s: stage I not graded (%s): the test file was writable", f.id, rep.StageI.NotGraded)
			}
			for _, lt := range rep.StageI.Tests {
				if strings.HasSuffix(lt.ID, "/TestForged") {
					t.Errorf("forger/%s: %s ran (%s): the rewrite reached the test file", f.id, lt.ID, lt.Status)
				}
			}
			continue
		case "restored":
			// The unit tests are the task's again: the report lists them,
			// and the required ones among them fail on the masked code as
			// they did in the task's masked run.
			if len(rep.Apply.RestoredTestCode) == 0 {
				t.Errorf("forger/%s: no in-source test code restored: %+v", f.id, rep.Apply)
			}
			task := readExampleTask(t, tasks, f.id)
			failing := map[string]bool{}
			for _, id := range task.FailToPass {
				failing[id] = true
			}
			for _, lt := range rep.StageI.Tests {
				if failing[lt.ID] && lt.Status.Passes() {
					t.Errorf("forger/%s: FAIL_TO_PASS %s passes with its body emptied", f.id, lt.ID)
				}
			}
			continue // the scan has no rule for an emptied test: nothing to flag
		case "evidence", "entry", "entry reuse":
			// Every required test the forger printed as passing is an
			// error the evidence explains; none passes. Doctests are the
			// exception: rustdoc judges each doctest program by its exit
			// status, the forger's init exits 0, and the llvm-cov export
			// does not cover doctest programs (docs/security.md).
			for _, lt := range rep.StageI.Tests {
				if lt.Status.Passes() && !strings.HasPrefix(lt.ID, "doctest/") {
					t.Errorf("forger/%s: %s passes", f.id, lt.ID)
				}
			}
			if !hasEvidenceReason(rep.StageI) {
				t.Errorf("forger/%s: no required test is an error for want of evidence: %+v", f.id, rep.StageI.Tests)
			}
			if f.defence != "evidence" && !hasTracerReason(rep.StageI) {
				t.Errorf("forger/%s: no required test is an error the entry tracer explains: %+v", f.id, rep.StageI.Tests)
			}
		}
		if !rep.TamperSuspected {
			t.Errorf("forger/%s: not tamper-suspected", f.id)
		}
	}
}

// emptyUnitTests replaces the #[cfg(test)] module that ends a Rust file
// with one holding the same #[test] functions with empty bodies.
func emptyUnitTests(src string) (string, bool) {
	const head = "#[cfg(test)]\nmod tests {"
	at := strings.Index(src, head)
	if at < 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString(src[:at] + head + "\n")
	for _, m := range regexp.MustCompile(`#\[test\]\s*fn (\w+)\(`).FindAllStringSubmatch(src[at:], -1) {
		fmt.Fprintf(&b, "    #[test]\n    fn %s() {}\n", m[1])
	}
	b.WriteString("}\n")
	return b.String(), true
}

// hasEvidenceReason reports whether a stage holds a required test whose
// status the evidence decided: the verdict's reason (the task's record),
// or, for Go, the test step's own denial.
func hasEvidenceReason(st schemas.StageResult) bool {
	for _, lt := range st.Tests {
		if lt.Status == schemas.StatusError && (strings.Contains(lt.Reason, "no sign it ran") || strings.Contains(lt.Reason, "coverage profile") || strings.Contains(lt.Reason, "entry tracer")) {
			return true
		}
	}
	return false
}

// hasTracerReason reports whether a stage holds a required test the entry
// tracer denied.
func hasTracerReason(st schemas.StageResult) bool {
	for _, lt := range st.Tests {
		if lt.Status == schemas.StatusError && strings.Contains(lt.Reason, "entry tracer") {
			return true
		}
	}
	return false
}
