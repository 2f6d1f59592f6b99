package gotest

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

// Go evidence. A Go test binary writes its -test.coverprofile only at the
// end of testing.M.Run, after the tests ran; a patch whose init prints
// "--- PASS" lines and exits never gets there. The go command runs every
// test binary through osbench's launcher (GOFLAGS=-exec=…), which waits for
// the binary and then records, outside the repository, the package
// directory, the exit status and whether the profile was written. A test
// reported as passing whose package has no such record is not a pass.
//
// The launcher and the binary run as the same user. What keeps the binary
// from writing a record itself, pre-planting a profile for another package
// or rewriting the launcher is the executor's test sandbox: the launcher
// runs each binary through the program TestSandboxVar names (directly, or
// through the executor's cross launcher go_$GOOS_$GOARCH_exec, which
// chains to it), and the record directory and the launcher's own directory
// are among the command's writable dirs, which the sandbox mounts
// read-only for the binary. The profile the go command asks for is removed
// before the binary starts, so only what this binary wrote counts. A
// binary can still write its own profile before it exits (what the tamper
// scan's probes of -test. flags look for); see docs/security.md.

// goEvidenceDir is the launcher's record directory, inside the step's work
// dir and outside the repository.
const goEvidenceDir = "go-evidence"

// goLauncherScript runs one test binary (through the cross-platform
// launcher go_$GOOS_$GOARCH_exec when one is on PATH, as the go command
// would without -exec) and writes one record: "dir\tstatus\tprofile", where
// profile is "written", "missing" or "none" (no -test.coverprofile asked).
// %[1]s is the record directory, %[2]s the executor's TestSandboxVar; the
// cross launcher, when there is one, applies the sandbox itself.
const goLauncherScript = `#!/bin/sh
# Written by osbench's test step: go test runs every test binary through this
# launcher (GOFLAGS=-exec), which records whether the binary ran its tests to
# the end (its coverage profile, written at the end of testing.M.Run).
records=%[1]s
profile=
for arg in "$@"; do
  case $arg in -test.coverprofile=*) profile=${arg#-test.coverprofile=} ;; esac
done
status=0
runner=
if [ -n "${GOOS:-}" ] && [ -n "${GOARCH:-}" ] && command -v "go_${GOOS}_${GOARCH}_exec" >/dev/null 2>&1; then
  runner=go_${GOOS}_${GOARCH}_exec
fi
if [ -n "$profile" ]; then rm -f -- "$profile"; fi
# The entry tracer (osbench itself, named by OSBENCH_ENTRYTRACE) runs the
# binary's whole launch under ptrace and records which test functions it
# entered. A Windows binary under Wine (the wine executor's cross launcher)
# runs under osbench's Windows debugger instead, which records the same
# (-wine); another cross launcher's binary runs without either.
target=$1
entries=-
if [ -n "${OSBENCH_ENTRYTRACE:-}" ] && { [ -z "$runner" ] || [ "$runner" = go_windows_amd64_exec ]; }; then
  entries=$(mktemp "$records/entries.XXXXXXXX") || entries=-
fi
if [ -n "$runner" ]; then
  if [ "$entries" != - ]; then set -- "$OSBENCH_ENTRYTRACE" %[3]s -wine "$entries" "$target" "$runner" "$@"; else set -- "$runner" "$@"; fi
  "$@" || status=$?
else
  if [ -n "${%[2]s:-}" ]; then set -- "$%[2]s" "$@"; fi
  if [ "$entries" != - ]; then set -- "$OSBENCH_ENTRYTRACE" %[3]s "$entries" "$target" "$@"; fi
  "$@" || status=$?
fi
state=none
if [ -n "$profile" ]; then
  state=missing
  if [ -f "$profile" ] && [ ! -L "$profile" ] && head -c 5 "$profile" | grep -q '^mode:'; then state=written; fi
fi
record=$(mktemp "$records/record.XXXXXXXX") && printf '%%s\t%%s\t%%s\t%%s\n' "$PWD" "$status" "$state" "${entries##*/}" >"$record"
exit "$status"
`

// goLauncher writes the launcher and its record directory under work and
// returns the launcher's path and the directories the caller passes as
// writable dirs: the record directory, which the launcher writes, and the
// launcher's own; the test sandbox keeps both read-only for test binaries.
func goLauncher(work string) (launcher string, dirs goLauncherDirs, err error) {
	records := filepath.Join(work, goEvidenceDir)
	bin := filepath.Join(work, "osbench-bin")
	for _, d := range []string{records, bin} {
		if err := os.RemoveAll(d); err != nil {
			return "", goLauncherDirs{}, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", goLauncherDirs{}, err
		}
	}
	launcher = filepath.Join(bin, "go-test-exec")
	script := fmt.Sprintf(goLauncherScript, shellQuote(records), executors.TestSandboxVar, entrytrace.MainArg)
	if err := os.WriteFile(launcher, []byte(script), 0o755); err != nil {
		return "", goLauncherDirs{}, err
	}
	return launcher, goLauncherDirs{Records: records, Bin: bin}, nil
}

// goLauncherDirs are the launcher's directories in the step's work dir.
type goLauncherDirs struct {
	Records string // the records, one file per test binary
	Bin     string // the launcher itself
}

// withGoExec adds -exec=launcher to GOFLAGS, keeping the flags already there.
func withGoExec(env []string, launcher string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			env[i] = strings.TrimSpace("GOFLAGS=" + v + " -exec=" + launcher)
			return env
		}
	}
	return append(env, "GOFLAGS=-exec="+launcher)
}

// goRecord is what the launcher recorded for one test binary.
type goRecord struct {
	status  string
	profile string // written | missing | none
	// entries is what the entry tracer saw of the binary, nil when it was
	// not traced (a cross launcher, no tracer on this host).
	entries *entrytrace.Record
}

// good is a binary that ran its tests to the end and exited 0.
func (r goRecord) good() bool { return r.profile == "written" && r.status == "0" }

// rank orders records of one directory: a binary that did not finish
// outweighs one that did, which outweighs a program run without a profile
// (go run, which GOFLAGS sends through the launcher too).
func (r goRecord) rank() int {
	switch {
	case r.profile == "none":
		return 0
	case r.good():
		return 1
	}
	return 2
}

// readGoRecords reads the launcher's records, by package directory
// relative to the repository ("." for the root). A directory with more
// than one record (one go test runs each package's binary once) keeps the
// one that ranks highest.
func readGoRecords(records, repo string, readUntrusted func(dir, name string) ([]byte, error)) (map[string]goRecord, error) {
	entries, err := os.ReadDir(records)
	if err != nil {
		return nil, err
	}
	out := map[string]goRecord{}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), "entries.") {
			continue
		}
		b, err := readUntrusted(records, e.Name())
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 3 && len(f) != 4 {
				continue
			}
			rel, err := filepath.Rel(repo, f[0])
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			rel = filepath.ToSlash(rel)
			r := goRecord{status: f[1], profile: f[2]}
			if len(f) == 4 && strings.HasPrefix(f[3], "entries.") && !strings.ContainsRune(f[3], '/') {
				if b, err := readUntrusted(records, f[3]); err == nil {
					r.entries = entrytrace.ParseRecord(b)
				}
			}
			if old, ok := out[rel]; ok && old.rank() >= r.rank() {
				continue
			}
			out[rel] = r
		}
	}
	return out, nil
}

// goEvidence marks each Go test with what its package's record says: a
// passing test whose binary wrote its coverage profile and exited 0 ran. A
// passing test whose package has no record, or whose binary exited 0
// without writing the profile it was asked for (what an init that prints
// passes and exits does; testing itself never does it), is an error. A
// binary that failed (a panicking test takes its package's binary down
// before the profile is written) gives its passes no evidence, but leaves
// them passes: the task's record decides at evaluation whether they needed
// it. Packages run without a coverage profile (a manifest that asks for
// none) give no evidence either way. Where the entry tracer watched the
// binary (Linux), a passing test whose function it armed and never saw
// entered is an error whatever the binary printed or wrote: that is the
// evidence the tested process cannot forge (an init that writes a
// plausible profile, a harness of its own running look-alike tests).
// pkgDirs maps import paths to their directories.
func goEvidence(results []schemas.TestResult, records map[string]goRecord, pkgDirs map[string]string) []schemas.TestResult {
	for i := range results {
		r := &results[i]
		pkg, ok := owningPackage(r.ID, pkgDirs)
		if !ok {
			continue
		}
		rec, seen := records[pkgDirs[pkg]]
		switch {
		case seen && rec.good() && r.Status == schemas.StatusPass && notEntered(rec, r.ID, pkg):
			runner.Deny(r, fmt.Sprintf("reported as passing, but the test binary of package %s never entered %s (seen from outside the binary by osbench's entry tracer)", pkg, topLevel(r.ID, pkg)))
		case seen && rec.good():
			r.Evidence = schemas.EvidenceRan
		case r.Status != schemas.StatusPass:
			// Not a pass anyway; the output's own status stands.
		case !seen:
			runner.Deny(r, fmt.Sprintf("reported as passing, but no test binary of package %s was run by go test's launcher", pkg))
		case rec.profile == "missing" && rec.status == "0":
			runner.Deny(r, fmt.Sprintf("reported as passing, but the test binary of package %s exited 0 without writing the coverage profile testing writes after the tests ran", pkg))
		}
	}
	return results
}

// notEntered reports a test whose function the entry tracer armed in its
// package's binary and never saw entered.
func notEntered(rec goRecord, id, pkg string) bool {
	return rec.entries.NotEntered(topLevel(id, pkg))
}

// topLevel is the test function of a test id: "pkg/TestX/sub" → "TestX".
func topLevel(id, pkg string) string {
	name := strings.TrimPrefix(strings.TrimPrefix(id, pkg), "/")
	name, _, _ = strings.Cut(name, "/")
	return name
}

// owningPackage finds the longest import path of pkgDirs that id starts
// with (test ids are "import/path/TestName/subtest").
func owningPackage(id string, pkgDirs map[string]string) (string, bool) {
	for p := id; ; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return "", false
		}
		p = p[:i]
		if _, ok := pkgDirs[p]; ok {
			return p, true
		}
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
