package ctest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/plugins/entrytrace"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// C and C++ entry evidence. CTest starts its test programs itself, with no
// launcher a variable could name (CMake 3.25 has no TEST_LAUNCHER), so the
// whole test command of a Linux run runs under the entry tracer (osbench
// itself, plugins/entrytrace, -select=c): it follows the shell, CTest and
// whatever they start, and in every process that executes a program from
// below the repository it arms main, counting the processes that entered
// it. A constructor that ends the process before main — printing the
// runner's lines, or letting a forked child run the real main and exiting
// 0 whatever it did — leaves its program's count short: a test program's
// passes are denied when its processes entered main fewer times than its
// tests passed (the rule of the gcov channel, whose counts the program
// writes itself; the tracer's it cannot).
//
// The tracer writes its record when the command's first process ends. The
// test programs run as the same user with the work dir writable (CTest
// programs have no test sandbox): a program may remove or spoil the record
// before that, which denies every pass (a record that should exist and
// does not is no evidence); a process of theirs that outlives the command
// and rewrites the record between the tracer's write and the executor's
// end-of-run kill is not stopped (docs/security.md).
//
// Under Wine the programs are PE images wine maps, not ELF images the
// Linux tracer could follow: the wrapper (-wine-tree) puts a wine of its
// own first on the command's PATH, which runs each Windows program of the
// tree under osbench's Windows debugger with main armed, through the wine
// executor's test launcher — so in the test sandbox, where the record's
// directory is read-only for them — and merges the programs' records into
// the one this file reads (entrytrace's winetree).

// cEvidenceDir is the tracer's record directory in the step's work dir.
const cEvidenceDir = "c-evidence"

// cRecord is the tracer's record file in it.
const cRecord = "entries"

// launch makes the record directory and the wrapper, where a tracer
// exists (Linux on amd64).
func launch(work string) (*runner.Launch, error) {
	tracer, err := runner.Tracer()
	if tracer == "" || err != nil {
		return nil, err
	}
	records := filepath.Join(work, cEvidenceDir)
	if err := os.RemoveAll(records); err != nil {
		return nil, fmt.Errorf("ctest runner: %w", err)
	}
	if err := os.MkdirAll(records, 0o755); err != nil {
		return nil, fmt.Errorf("ctest runner: %w", err)
	}
	return &runner.Launch{
		Env:      func(env []string) []string { return env },
		Writable: []string{records},
		Records:  records,
		Wrap: func(argv []string, platform, repo string) []string {
			switch platform {
			case "linux":
				return append([]string{tracer, entrytrace.MainArg, "-select=c", filepath.Join(records, cRecord), repo}, argv...)
			case "windows":
				// Windows programs run under Wine, not as ELF images of
				// the tree: a wine of the tracer's, first on the
				// command's PATH, runs each under the Windows debugger.
				return append([]string{tracer, entrytrace.MainArg, "-select=c", "-wine-tree", filepath.Join(records, cRecord), repo}, argv...)
			}
			return argv
		},
	}, nil
}

// mainEntries reads the tracer's record: per program (base name, without
// the ".exe" of a Windows one when trimExe), whether main was armed and
// how many processes entered it. ok is false when the
// record is missing or unreadable; a record of a tracer that could not
// trace, or of a run that ran no program of the tree, has no programs.
func mainEntries(records string, readUntrusted func(dir, name string) ([]byte, error), trimExe bool) (armed map[string]bool, entries map[string]int, ok bool) {
	b, err := readUntrusted(records, cRecord)
	if err != nil {
		return nil, nil, false
	}
	armed, entries = map[string]bool{}, map[string]int{}
	rec := entrytrace.ParseRecord(b)
	if rec == nil {
		return armed, entries, true
	}
	program := func(name string) (string, bool) {
		p, fn, ok := strings.Cut(name, ":")
		p = path.Base(p)
		if trimExe {
			p = strings.TrimSuffix(p, ".exe")
		}
		return p, ok && fn == "main"
	}
	for n := range rec.Armed {
		if p, ok := program(n); ok {
			armed[p] = true
		}
	}
	for n, c := range rec.Entries {
		if p, ok := program(n); ok {
			entries[p] += c
		}
	}
	return armed, entries, true
}

// traceEvidence denies the passes of every test whose program (the first
// argument of its CTest command that names a program the tracer armed)
// entered main in fewer processes than the program's tests passed; with
// the record gone, every pass.
func traceEvidence(results []schemas.TestResult, defs *schemas.TestDefinitions, records, platform string, readUntrusted func(dir, name string) ([]byte, error)) []schemas.TestResult {
	// A Windows test's command names its program with or without
	// ".exe" (CTest's emulator runs x.exe; a launcher x beside it, the
	// preset's, runs it through wine): both are the program x.
	trimExe := platform == "windows"
	armed, entries, ok := mainEntries(records, readUntrusted, trimExe)
	if !ok {
		for i := range results {
			if results[i].Status == schemas.StatusPass {
				runner.Deny(&results[i], "reported as passing, but the entry tracer's record of the run is gone (the tested programs can reach it; a run without it proves nothing)")
			}
		}
		return results
	}
	if defs == nil {
		return results
	}
	// Under Wine a program reaches the debugger only through the wine
	// the wrapper put on PATH: a test whose command names a Windows
	// program of the tree that was never armed (run through another
	// wine, as a CROSSCOMPILING_EMULATOR property of the patch's naming
	// /usr/bin/wine would) went untraced, and counts as never entering
	// main. On Linux every ELF program of the tree is followed.
	treeExe := map[string]bool{}
	if trimExe {
		for _, d := range defs.Tests {
			for _, arg := range d.Command {
				if strings.HasPrefix(arg, schemas.WorkToken+"/") && strings.HasSuffix(strings.ToLower(arg), ".exe") {
					treeExe[strings.TrimSuffix(path.Base(strings.ReplaceAll(arg, `\`, "/")), ".exe")] = true
				}
			}
		}
	}
	program, passes := testPrograms(defs, results, func(base string) bool { return armed[base] || treeExe[base] }, trimExe)
	for i := range results {
		r := &results[i]
		p, ok := program[r.ID]
		if ok && r.Status == schemas.StatusPass && int64(entries[p]) < passes[p] {
			runner.Deny(r, fmt.Sprintf("reported as passing, but processes of its program %s entered main %d time(s) for %d passing test(s) (seen from outside the programs by osbench's entry tracer)", p, entries[p], passes[p]))
		}
	}
	return results
}
