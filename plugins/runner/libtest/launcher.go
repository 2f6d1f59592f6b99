package libtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/plugins/entrytrace"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// Rust entry evidence. cargo runs every test program of the host target
// through the target's runner (CARGO_TARGET_<TRIPLE>_RUNNER); the runner
// osbench installs runs the program under the entry tracer (osbench
// itself, plugins/entrytrace), which arms every function of the program's
// crate and records those a thread of the program entered. A #[test]
// function is reached from libtest's harness through a function pointer
// to the closure wrapping it, so both have bodies of their own in the
// program, whatever the test profile's optimisation; a pass whose test
// function was armed and never entered did not run, whatever the program
// printed or wrote (its .profraw included). The tracer sees the program,
// not the processes the program starts: a program that runs its own
// harness again in a child (re-executing itself with a filter) and
// rewrites that child's output has entered nothing in the process cargo
// started.
//
// Like the Go launcher, the runner and its records live in the step's
// work dir, outside the repository, in directories the executor's test
// sandbox mounts read-only for the test programs (the runner chains to
// the program TestSandboxVar names). Unlike go test, cargo runs the
// package's build scripts inside the same command, before the tests and
// outside that sandbox: a build.rs can rewrite the runner or plant
// records (docs/security.md says so).

// rustEvidenceDir is the runner's record directory, inside the step's
// work dir and outside the repository.
const rustEvidenceDir = "rust-evidence"

// cargoRunnerVar is cargo's runner variable of the Linux x86-64 target,
// the one host with a tracer (entrytrace.Program).
const cargoRunnerVar = "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"

// cargoWindowsRunnerVar is cargo's runner variable of the Windows target
// the cargo preset builds under Wine, and cargoWindowsRunnerWine its
// value there: plain wine, which the wine executor turns into its test
// launcher (wineTestLauncher, named on the command's PATH).
const (
	cargoWindowsRunnerVar  = "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER"
	cargoWindowsRunnerWine = "wine"
	wineTestLauncher       = "osbench-wine-test"
)

// cargoRunnerScript runs one test program under the entry tracer, in the
// executor's test sandbox, and writes one record: "program\tstatus\tentries",
// entries naming the tracer's record file. %[1]s is the record
// directory, %[2]s the executor's TestSandboxVar, %[3]s entrytrace.MainArg.
const cargoRunnerScript = `#!/bin/sh
# Written by osbench's test step: cargo runs every test program through
# this runner (CARGO_TARGET_…_RUNNER), which runs it under osbench's entry
# tracer (OSBENCH_ENTRYTRACE) and records which test functions it entered.
records=%[1]s
target=$1
entries=-
if [ -n "${OSBENCH_ENTRYTRACE:-}" ]; then
  entries=$(mktemp "$records/entries.XXXXXXXX") || entries=-
fi
if [ -n "${%[2]s:-}" ]; then set -- "$%[2]s" "$@"; fi
if [ "$entries" != - ]; then set -- "$OSBENCH_ENTRYTRACE" %[3]s -select=rust "$entries" "$target" "$@"; fi
status=0
"$@" || status=$?
record=$(mktemp "$records/record.XXXXXXXX") && printf '%%s\t%%s\t%%s\n' "$target" "$status" "${entries##*/}" >"$record"
exit "$status"
`

// cargoWineRunnerScript is the Windows target's runner: the wine
// executor's test launcher (which runs wine in the test sandbox) running
// osbench's Windows debugger (entrytrace's -wine), which starts the test
// program with every function of its crate armed (the PE image's COFF
// symbols, Rust manglings read as on Linux). The record is the Linux
// runner's. %[1]s is the record directory, %[2]s entrytrace.MainArg,
// %[3]s the launcher.
const cargoWineRunnerScript = `#!/bin/sh
# Written by osbench's test step: cargo runs every Windows test program
# through this runner (CARGO_TARGET_…_RUNNER), which runs it under Wine and
# osbench's Windows debugger (OSBENCH_ENTRYTRACE) and records which test
# functions it entered.
records=%[1]s
target=$1
entries=-
if [ -n "${OSBENCH_ENTRYTRACE:-}" ]; then
  entries=$(mktemp "$records/entries.XXXXXXXX") || entries=-
fi
if [ "$entries" != - ]; then set -- "$OSBENCH_ENTRYTRACE" %[2]s -select=rust -wine "$entries" "$target" %[3]s "$@"; else set -- %[3]s "$@"; fi
status=0
"$@" || status=$?
record=$(mktemp "$records/record.XXXXXXXX") && printf '%%s\t%%s\t%%s\n' "$target" "$status" "${entries##*/}" >"$record"
exit "$status"
`

// launch writes the runner and its record directory, where a tracer
// exists (Linux on amd64); elsewhere Rust runs have no launcher. A runner
// the run's environment names already (a manifest's own) is kept, and the
// run goes without entry evidence.
func launch(work string) (*runner.Launch, error) {
	tracer, err := runner.Tracer()
	if tracer == "" || err != nil {
		return nil, err
	}
	records := filepath.Join(work, rustEvidenceDir)
	bin := filepath.Join(work, "osbench-cargo-bin")
	for _, d := range []string{records, bin} {
		if err := os.RemoveAll(d); err != nil {
			return nil, fmt.Errorf("libtest runner: %w", err)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("libtest runner: %w", err)
		}
	}
	script := filepath.Join(bin, "cargo-test-runner")
	wineScript := filepath.Join(bin, "cargo-test-runner-wine")
	for p, body := range map[string]string{
		script:     fmt.Sprintf(cargoRunnerScript, shellQuote(records), executors.TestSandboxVar, entrytrace.MainArg),
		wineScript: fmt.Sprintf(cargoWineRunnerScript, shellQuote(records), entrytrace.MainArg, wineTestLauncher),
	} {
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			return nil, fmt.Errorf("libtest runner: %w", err)
		}
	}
	return &runner.Launch{
		Env: func(env []string) []string {
			env = withRunner(env, cargoRunnerVar, "", script)
			// Under Wine (the cargo preset's Windows runner, plain
			// wine) the Windows debugger's runner takes its place.
			env = withRunner(env, cargoWindowsRunnerVar, cargoWindowsRunnerWine, wineScript)
			return append(env, "OSBENCH_ENTRYTRACE="+tracer)
		},
		Writable: []string{records, bin},
		Records:  records,
	}, nil
}

// withRunner sets cargo's runner variable name to script: where env has
// none when from is "", where its value is from otherwise. A runner of
// the manifest's own is kept, and its programs go without entry evidence.
func withRunner(env []string, name, from, script string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			if from != "" && v == from {
				env[i] = name + "=" + script
			}
			return env
		}
	}
	if from == "" {
		env = append(env, name+"="+script)
	}
	return env
}

// readRustRecords reads the runner's records: the tracer's record of
// every test program it ran, by the program's crate (a lib and a bin of
// one package can share a crate name; their records are merged, since
// their tests' ids cannot tell them apart by crate either). Programs the
// tracer could not trace are left out: they prove nothing either way.
func readRustRecords(records string, readUntrusted func(dir, name string) ([]byte, error)) map[string][]*entrytrace.Record {
	entries, err := os.ReadDir(records)
	if err != nil {
		return nil
	}
	out := map[string][]*entrytrace.Record{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), "record.") {
			continue
		}
		b, err := readUntrusted(records, e.Name())
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 3 || !strings.HasPrefix(f[2], "entries.") || strings.ContainsRune(f[2], '/') {
				continue
			}
			eb, err := readUntrusted(records, f[2])
			if err != nil {
				continue
			}
			if rec := entrytrace.ParseRecord(eb); rec != nil {
				crate := entrytrace.RustCrate(f[0])
				out[crate] = append(out[crate], rec)
			}
		}
	}
	return out
}

// traceEvidence denies every libtest pass whose test function the tracer
// armed in its program and never saw entered. A test's program is found
// by its id's source path ("src/lib.rs/paths::tests::separators": the
// targets cargo metadata lists with that path; "unittests/foo/…" of old
// cargo names the crate itself). A pass is denied too when its program
// was traced with nothing of its crate to arm (a stripped program).
// Doctests have no program of cargo's; a test whose program left no traced
// record is not judged here.
func traceEvidence(results []schemas.TestResult, records map[string][]*entrytrace.Record, defs *schemas.TestDefinitions) []schemas.TestResult {
	if len(records) == 0 {
		return results
	}
	crates := map[string][]string{} // source path → crates
	if defs != nil {
		for _, d := range defs.Tests {
			parts := strings.Split(d.Name, "/")
			if len(d.Command) == 0 || len(parts) < 3 {
				continue
			}
			crates[d.Command[0]] = append(crates[d.Command[0]], strings.ReplaceAll(parts[len(parts)-1], "-", "_"))
		}
	}
	for i := range results {
		r := &results[i]
		slash := strings.LastIndexByte(r.ID, '/')
		if r.Status != schemas.StatusPass || slash < 0 || strings.HasPrefix(r.ID, "doctest/") {
			continue
		}
		src, name := r.ID[:slash], r.ID[slash+1:]
		cs := crates[src]
		if c, ok := strings.CutPrefix(src, "unittests/"); ok {
			cs = append(cs, c)
		} else if !strings.ContainsAny(src, "/.") {
			cs = append(cs, src) // "Running target/debug/deps/foo-…": the crate
		}
		armed, entered, traced, blind := "", false, "", true
		for _, c := range cs {
			for _, rec := range records[c] {
				traced = c
				blind = blind && len(rec.Armed) == 0
				if rec.Armed[name] {
					armed = c
				}
				entered = entered || rec.Entered[name]
			}
		}
		switch {
		case armed != "" && !entered:
			runner.Deny(r, fmt.Sprintf("reported as passing, but the test program of crate %s never entered %s (seen from outside the program by osbench's entry tracer)", armed, name))
		case traced != "" && blind:
			// A program with no function of its crate to arm has had
			// its symbol table stripped (a profile's strip, a linker
			// argument of a build script): nothing could be seen, and
			// a test program is never built that way but on purpose.
			runner.Deny(r, fmt.Sprintf("reported as passing, but the test program of crate %s has no symbol table the entry tracer could read (stripped), so no test of it can be seen to run", traced))
		}
	}
	return results
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
