package initmanifest

import (
	"regexp"
	"strings"
)

// A run that reports no test has three stories a curator must tell apart
// (issue 22: a libuv build that timed out and a c-ares build with its
// tests switched off both read "0 tests: none" → "not worth a manifest"):
// the build failed, the build timed out, or it built and the suite has no
// tests (switched off by an option). The test step writes how its build
// command ended into the log; init reads it back, with the build's last
// lines of output.

// buildFailed is the test step's marker for a build command that failed
// (steps/testrun).
var buildFailed = regexp.MustCompile(`(?m)^\[osbench: build command failed: exit (-?[0-9]+), timed out (true|false)\]$`)

// buildEnd is the marker after the build command's output.
const buildEnd = "[osbench: build exit "

// buildTimedOut is that marker for a build that ran past its timeout: the
// test step stops there, an infrastructure failure (the machine was too
// slow; never cached), so no "build command failed" line follows and init
// reads the log of the failed run (Engine.StepRuns).
var buildTimedOut = regexp.MustCompile(`(?m)^\[osbench: build exit -?[0-9]+, timed out true, [^\]]*\]$`)

// tailLines is how many of the build's last lines init shows.
const tailLines = 12

// buildOutcome reads how the build command ended from a test step's log:
// "" when it passed (or there was none); else "the build failed (exit N)"
// or "the build timed out", and the last lines of its output (after the
// command line the log echoes, cmd, when it is found).
func buildOutcome(log []byte, cmd string) (string, []string) {
	var outcome string
	var end int
	if m := buildTimedOut.FindSubmatchIndex(log); m != nil {
		outcome, end = "the build timed out", m[0]
	} else if m := buildFailed.FindSubmatchIndex(log); m != nil {
		outcome, end = "the build failed (exit "+string(log[m[2]:m[3]])+")", m[0]
		if string(log[m[4]:m[5]]) == "true" {
			outcome = "the build timed out"
		}
	} else {
		return "", nil
	}
	out := string(log[:end])
	if i := strings.LastIndex(out, buildEnd); i >= 0 {
		out = out[:i]
	}
	if cmd != "" {
		if i := strings.Index(out, cmd); i >= 0 {
			out = out[i+len(cmd):]
		}
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimRight(l, "\r \t"); l != "" {
			lines = append(lines, clip(l))
		}
	}
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return outcome, lines
}
