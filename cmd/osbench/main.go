// Command osbench builds and evaluates cross-OS code-migration benchmarks.
// This package holds flags, output and exit codes only; the work is done by
// manifests, engine, steps and plugins.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	_ "github.com/osbench/osbench/steps" // every step kind, for workers too
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // invalid manifests, failed steps, unformatted files
	exitUsage   = 2
)

// errSilent marks a failure whose details were already printed.
var errSilent = errors.New("failed")

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	root := newRootCommand()
	root.SetArgs(goStyleFlags(args))
	err := root.Execute()
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errSilent):
		return exitFailure
	case isUsageError(err):
		fmt.Fprintln(os.Stderr, "osbench:", err)
		return exitUsage
	default:
		fmt.Fprintln(os.Stderr, "osbench:", err)
		return exitFailure
	}
}

// goStyleFlags accepts the single-dash long flags Go tools use (`fmt -check`,
// like gofmt) by rewriting them to the double-dash form.
func goStyleFlags(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "-check" || a == "-json" || strings.HasPrefix(a, "-out=") {
			a = "-" + a
		}
		out[i] = a
	}
	return out
}
