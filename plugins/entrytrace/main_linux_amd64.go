package entrytrace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// selectors are the selectors -select= names.
var selectors = map[string]func(target string) func(string) (string, bool){
	"go":   func(string) func(string) (string, bool) { return GoTest },
	"rust": func(target string) func(string) (string, bool) { return RustTests(RustCrate(target)) },
	"c":    func(string) func(string) (string, bool) { return CMain },
}

func init() {
	if len(os.Args) > 1 && os.Args[1] == MainArg {
		os.Exit(tracerMain(os.Args[2:]))
	}
}

// tracerMain is the tracer process. Its record has one line per fact:
//
//	images N        processes that started the target
//	armed NAME      a test function a breakpoint was set on
//	entered NAME    a test function a thread executed (once per process)
//	untraced REASON the tracer could not trace; ARGV ran without it
//
// When tracing is impossible (no ptrace here), ARGV still runs, in place
// of this process, and the record says why: a run is never lost to its
// evidence, it only goes without it.
func tracerMain(args []string) int {
	kind := "go"
	if len(args) > 0 && strings.HasPrefix(args[0], "-select=") {
		kind, args = strings.TrimPrefix(args[0], "-select="), args[1:]
	}
	if kind == "c" && len(args) > 0 && args[0] == "-wine-program" {
		// The shim wineTree puts on a test command's PATH.
		if len(args) < 4 {
			fmt.Fprintf(os.Stderr, "osbench entrytrace: usage: %s -select=c -wine-program DIR REPO WINE ARGS...\n", MainArg)
			return 2
		}
		signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
		return wineProgram(args[1], args[2], args[3], args[4:])
	}
	if kind == "c" && len(args) > 0 && args[0] == "-wine-tree" {
		// TARGET is the repository: every Windows program below it
		// that the command runs through wine is traced (winetree).
		if len(args) < 4 {
			fmt.Fprintf(os.Stderr, "osbench entrytrace: usage: %s -select=c -wine-tree RECORD REPO ARGV...\n", MainArg)
			return 2
		}
		signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
		return wineTree(args[1], args[2], args[3:])
	}
	wine := false
	if len(args) > 0 && args[0] == "-wine" {
		wine, args = true, args[1:]
	}
	selector, known := selectors[kind]
	if len(args) < 3 || !known {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: usage: %s [-select=go|rust|c] [-wine] RECORD TARGET ARGV...\n", MainArg)
		return 2
	}
	record, target, argv := args[0], args[1], args[2:]
	if wine {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
		return wineTrace(selector(target), record, target, argv)
	}
	path, err := lookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
		return 127
	}
	// A signal the process group gets is the program's to act on: the
	// tracer catches it (a caught signal, unlike an ignored one, is not
	// inherited) and lives until the program ends.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	cmd := Command{
		Path: path, Args: argv, Env: os.Environ(),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Target: target, Select: selector(target),
	}
	if kind == "c" {
		cmd.Target, cmd.Within = "", target
	}
	res, err := Trace(context.Background(), cmd)
	if err != nil {
		if res == nil && !errors.Is(err, context.Canceled) {
			// Nothing ran yet: run it untraced, in place of the tracer.
			_ = os.WriteFile(record, []byte("untraced "+oneLine(err.Error())+"\n"), 0o644)
			signal.Reset()
			err = syscall.Exec(path, argv, os.Environ())
			fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
			return 127
		}
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", err)
	}
	var b strings.Builder
	if res != nil {
		fmt.Fprintf(&b, "images %d\n", res.Images)
		for _, n := range res.Armed {
			fmt.Fprintf(&b, "armed %s\n", n)
		}
		for _, n := range res.Entered {
			// One line per process that entered it.
			for i := 0; i < max(res.Entries[n], 1); i++ {
				fmt.Fprintf(&b, "entered %s\n", n)
			}
		}
	}
	if werr := os.WriteFile(record, []byte(b.String()), 0o644); werr != nil {
		fmt.Fprintf(os.Stderr, "osbench entrytrace: %v\n", werr)
	}
	if res == nil {
		return 1
	}
	if res.Signal != "" {
		// End the way the program ended, so whoever waits for the
		// tracer sees the same signal.
		if sig := signalNamed(res.Signal); sig != 0 {
			signal.Reset()
			_ = syscall.Kill(os.Getpid(), sig)
		}
		return 128 + int(signalNamed(res.Signal))
	}
	return res.ExitCode
}

func lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, dir := range strings.Split(os.Getenv("PATH"), ":") {
		p := dir + "/" + name
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in PATH", name)
}

func signalNamed(name string) syscall.Signal {
	for s := syscall.Signal(1); s < 32; s++ {
		if s.String() == name {
			return s
		}
	}
	return 0
}
