//go:build linux && amd64

package entrytrace

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// Under Wine a test driver that starts its programs itself (CTest, whose
// CMAKE_CROSSCOMPILING_EMULATOR is wine, and the c-cmake preset's
// launchers beside each .exe, which exec wine) has no launcher hook for
// the Windows debugger. The ctest runner therefore runs the whole test
// command under wineTree: it puts a `wine` of its own first on the
// command's PATH, which runs every Windows program from below the
// repository under the debugger (wineProgram, main armed, named by the
// program's path below the repository as the Linux tracer's Within names
// it) and anything else through the real wine untouched. When the command
// ends, wineTree merges the programs' records into one, in the Linux
// tracer's format, so the ctest runner reads both platforms' records
// alike.

// WineTestLauncher is the wine executor's launcher of Windows test
// programs (plugins/executors/winelauncher.go), found on the PATH of its
// commands: it runs wine in the executor's test sandbox when the command
// has one, and plain wine otherwise.
const WineTestLauncher = "osbench-wine-test"

// wineShimScript is the `wine` the test command finds first: %[1]s this
// program, %[2]s MainArg, %[3]s the programs' record directory, %[4]s the
// repository, %[5]s the real wine.
const wineShimScript = `#!/bin/sh
# Written by osbench's entry tracer: Windows programs from below the
# repository run under osbench's Windows debugger, anything else as it would.
exec %[1]s %[2]s -select=c -wine-program %[3]s %[4]s %[5]s "$@"
`

// wineTree runs argv with the shim first on its PATH, then writes record
// from the records of the programs the shim traced, and returns argv's
// exit status. The shim and the programs' records live in record+".d".
// A shim rewritten during the run (a test program can: CTest's programs
// have no test sandbox) may have let later programs run untraced, so the
// record is then not written at all, which the ctest runner takes as a
// run that proves nothing (every pass denied).
func wineTree(record, repo string, argv []string) int {
	dir := record + ".d"
	realWine, err := lookPath("wine")
	self, serr := os.Executable()
	if err == nil {
		err = serr
	}
	if err == nil {
		err = os.RemoveAll(dir)
	}
	if err == nil {
		err = os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	}
	shim := filepath.Join(dir, "bin", "wine")
	script := fmt.Sprintf(wineShimScript, shellQuote(self), MainArg, shellQuote(dir), shellQuote(repo), shellQuote(realWine))
	if err == nil {
		err = os.WriteFile(shim, []byte(script), 0o755)
	}
	if err != nil {
		_ = os.WriteFile(record, []byte("untraced "+oneLine(err.Error())+"\n"), 0o644)
		return runPlain(argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = withPathFirst(os.Environ(), filepath.Dir(shim))
	status := exitStatus(cmd.Run())
	if b, err := os.ReadFile(shim); err != nil || string(b) != script {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: the wine of the entry tracer was changed during the run; no record\n")
		_ = os.Remove(record)
		return status
	}
	if werr := os.WriteFile(record, []byte(mergeProgramRecords(dir)), 0o644); werr != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", werr)
	}
	return status
}

// wineProgram is the shim: a Windows program from below repo (args[0],
// relative to the working directory or absolute) runs under the Windows
// debugger with its main armed, named "PATH:main" by its path below repo,
// its record a new "program.*" file of dir; anything else is the real
// wine's, run in place of this process.
func wineProgram(dir, repo, realWine string, args []string) int {
	if len(args) > 0 {
		target := args[0]
		if !filepath.IsAbs(target) {
			if wd, err := os.Getwd(); err == nil {
				target = filepath.Join(wd, target)
			}
		}
		rel, err := filepath.Rel(repo, filepath.Clean(target))
		if st, serr := os.Stat(target); err == nil && serr == nil && st.Mode().IsRegular() && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			name := filepath.ToSlash(rel) + ":main"
			f, err := os.CreateTemp(dir, "program.*")
			if err != nil {
				fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
				return 125
			}
			f.Close()
			sel := func(symbol string) (string, bool) { return name, symbol == "main" }
			// The wine executor's test launcher, where there is one, runs
			// the debugger and the program in the executor's test
			// sandbox, in which the records' directory, this shim and
			// the prefix's C:\windows (the debugger) are read-only.
			launcher := realWine
			if p, err := lookPath(WineTestLauncher); err == nil {
				launcher = p
			}
			return wineTrace(sel, f.Name(), target, append([]string{launcher, target}, args[1:]...))
		}
	}
	err := syscall.Exec(realWine, append([]string{realWine}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
	return 127
}

// mergeProgramRecords is one record of the programs' records in dir:
// their processes summed, their armed functions and their entries. A
// program record that says nothing (untraced, never started, cut off
// before the debugger wrote it) adds nothing.
func mergeProgramRecords(dir string) string {
	names, _ := filepath.Glob(filepath.Join(dir, "program.*"))
	images, armed, entries := 0, map[string]bool{}, map[string]int{}
	for _, n := range names {
		if strings.HasSuffix(n, ".plan") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			continue
		}
		rec := ParseRecord(b)
		if rec == nil {
			continue
		}
		images += rec.Images
		for a := range rec.Armed {
			armed[a] = true
		}
		for e, c := range rec.Entries {
			entries[e] += c
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "images %d\n", images)
	for _, a := range sortedKeys(armed) {
		fmt.Fprintf(&b, "armed %s\n", a)
	}
	for _, e := range sortedKeys(entries) {
		for i := 0; i < entries[e]; i++ {
			fmt.Fprintf(&b, "entered %s\n", e)
		}
	}
	return b.String()
}

// withPathFirst puts dir first on env's PATH.
func withPathFirst(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	seen := false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok && !seen {
			kv, seen = "PATH="+dir+":"+v, true
		}
		out = append(out, kv)
	}
	if !seen {
		out = append(out, "PATH="+dir+":/usr/bin:/bin")
	}
	return out
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
