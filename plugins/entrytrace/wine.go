package entrytrace

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Under Wine the tracer is a Windows program: osbench-entrytrace.exe, a
// small debugger built with mingw-w64 into osbench's Wine prefixes
// (plugins/executors/wineshim/entrytrace.c). It starts the test program
// as its debuggee (the Win32 debugging API, which Wine implements), puts
// an int3 on the entry of each function this side names and records the
// ones a thread executed. This side — osbench, outside the test sandbox —
// reads the PE image's functions (PEFuncs), writes the debugger's plan
// next to the record, where the test program cannot write (the record
// directory is read-only in the sandbox), hands the debugger a pipe as
// Unix descriptor WineRecordFD, and turns what comes out of it into the
// record tracerMain writes on Linux. The debugger is the only process
// that writes that pipe from inside Wine; see entrytrace.c for how the
// debuggee is kept from it, and docs/security.md for what the record
// proves under Wine and what it does not.

// WineTracer is the debugger's file name in the prefix's system32, where
// wine finds it by name and test programs cannot replace it (the
// prefix's C:\windows is read-only for them).
const WineTracer = "osbench-entrytrace.exe"

// wineTracerPath is how the launcher names the debugger to wine: by its
// full path, since wine looks for a bare program name in the current
// directory first, where a test program (or the patch) can put an
// osbench-entrytrace.exe of its own (tried: wine runs that one).
const wineTracerPath = `C:\windows\system32\` + WineTracer

// WineRecordFD is the Unix descriptor the debugger writes its record to:
// above the ones the Wine launchers' shells juggle (0 to 3).
const WineRecordFD = 9

// wineTrace runs argv — a Wine launcher (go_windows_amd64_exec), then the
// Windows program target and its arguments — with the debugger between
// the launcher and the program, and writes record. It returns the
// launcher's exit status.
func wineTrace(sel func(string) (string, bool), record, target string, argv []string) int {
	if len(argv) < 2 {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: -wine needs a launcher and a program\n")
		return 2
	}
	funcs, err := PEFuncs(target, sel)
	if err != nil {
		// Nothing to arm: the program runs as it would untraced, and the
		// record says why (no entry is judged).
		_ = os.WriteFile(record, []byte("untraced "+oneLine(err.Error())+"\n"), 0o644)
		return runPlain(argv)
	}
	cmdline := windowsCommandLine(append([]string{windowsPath(argv[1])}, argv[2:]...))
	if strings.ContainsAny(cmdline, "\r\n") {
		_ = os.WriteFile(record, []byte("untraced a line break in the program's arguments\n"), 0o644)
		return runPlain(argv)
	}
	plan := record + ".plan"
	var b strings.Builder
	fmt.Fprintf(&b, "fd %d\n", WineRecordFD)
	for _, f := range funcs {
		fmt.Fprintf(&b, "arm %x %s\n", f.RVA, f.Name)
	}
	fmt.Fprintf(&b, "run %s\n", cmdline)
	if err := os.WriteFile(plan, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
		return 125
	}
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
		return 125
	}
	cmd := exec.Command(argv[0], wineTracerPath, windowsPath(plan))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = make([]*os.File, WineRecordFD-2)
	cmd.ExtraFiles[WineRecordFD-3] = w
	if err := cmd.Start(); err != nil {
		w.Close()
		r.Close()
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
		return 127
	}
	w.Close()
	// Read to the end before waiting: the pipe ends when the debugger
	// and every process that inherited it (the launchers' shells, the
	// wineserver they start) are gone.
	lines, _ := io.ReadAll(io.LimitReader(r, 16<<20))
	r.Close()
	status := exitStatus(cmd.Wait())
	werr := os.WriteFile(record, []byte(wineRecord(funcs, lines)), 0o644)
	if werr != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", werr)
	}
	return status
}

// wineRecord is the record (tracerMain's format) of what the debugger
// wrote. A debuggee that was created ("images 1") but whose end the
// debugger never saw ("exit": the debugger was killed, or the program
// detached it) has every function armed and none entered: the program ran
// out of sight, so none of its passes is evidenced. One never created
// ran no code of its own, and the record says so (untraced).
func wineRecord(funcs []PEFunc, out []byte) string {
	var images bool
	var armed, entered []string
	complete := false
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "images":
			images = val == "1"
		case "armed":
			armed = append(armed, val)
		case "entered":
			entered = append(entered, val)
		case "exit":
			complete = true
		}
	}
	if !images {
		return "untraced the Windows debugger did not start the program\n"
	}
	var b strings.Builder
	b.WriteString("images 1\n")
	if !complete {
		for _, f := range funcs {
			fmt.Fprintf(&b, "armed %s\n", f.Name)
		}
		b.WriteString("lost the Windows debugger did not see the program end\n")
		return b.String()
	}
	for _, n := range armed {
		fmt.Fprintf(&b, "armed %s\n", n)
	}
	for _, n := range entered {
		fmt.Fprintf(&b, "entered %s\n", n)
	}
	return b.String()
}

// runPlain runs argv as it is and returns its exit status.
func runPlain(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return exitStatus(cmd.Run())
}

// exitStatus is the status of a finished command, 127 when it never ran.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		if code := ee.ExitCode(); code >= 0 {
			return code
		}
		return 128 + 9 // killed by a signal: a failure, as the shell says
	}
	fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
	return 127
}

// windowsPath is how a Windows program under Wine names the absolute
// host path p (Wine maps the host's root to drive Z:); a relative path
// keeps its form with Windows separators.
func windowsPath(p string) string {
	if filepath.IsAbs(p) {
		return "Z:" + strings.ReplaceAll(filepath.Clean(p), "/", `\`)
	}
	return strings.ReplaceAll(p, "/", `\`)
}

// windowsCommandLine joins args into one command line that the Microsoft
// C runtime's rules (which Go's Windows runtime follows) split back into
// the same args.
func windowsCommandLine(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n\v\"") {
			b.WriteString(a)
			continue
		}
		b.WriteByte('"')
		slashes := 0
		for _, c := range []byte(a) {
			switch c {
			case '\\':
				slashes++
			case '"':
				b.WriteString(strings.Repeat(`\`, slashes+1))
				slashes = 0
			default:
				slashes = 0
			}
			b.WriteByte(c)
		}
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}

// oneLine keeps a message on one line of a record or a log.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
