package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/osbench/osbench/plugins/executors"
)

// probe is one command whose output identifies a tool a test run uses.
type probe struct {
	argv []string
	// firstLine keeps only the first line of the output: the rest of
	// `cmake --version` is a link to a web page, not a version.
	firstLine bool
}

// probes lists, by language and then platform, the tools whose upgrade can
// change what a repository's tests report. Languages without a way to pick
// a version (unlike Go's GOTOOLCHAIN) are keyed by what is installed, so a
// tool upgrade reruns every step that used the tool. The windows rows are
// the tools of the wine executor: cross compilers and Wine itself; cmake
// drives the build on both platforms.
var probes = map[string]map[string][]probe{
	"c": {
		"linux": {
			{argv: []string{"gcc", "-dumpfullversion"}},
			{argv: []string{"cmake", "--version"}, firstLine: true},
		},
		"windows": {
			{argv: []string{"x86_64-w64-mingw32-gcc", "-dumpversion"}},
			{argv: []string{"wine", "--version"}},
			{argv: []string{"cmake", "--version"}, firstLine: true},
		},
	},
	"rust": {
		"linux": {
			{argv: []string{"rustc", "--version"}},
			{argv: []string{"cargo", "--version"}},
		},
		"windows": {
			{argv: []string{"rustc", "--version"}},
			{argv: []string{"cargo", "--version"}},
			{argv: []string{"x86_64-w64-mingw32-gcc", "-dumpversion"}},
			{argv: []string{"wine", "--version"}},
		},
	},
	"csharp": {
		"linux":   {{argv: []string{"dotnet", "--version"}}},
		"windows": {{argv: []string{"dotnet", "--version"}}},
	},
}

// probesFor returns the probes of a language on a platform; ok is false
// when osbench knows no tools for it.
func probesFor(language, platform string) (ps []probe, ok bool) {
	ps, ok = probes[language][platform]
	return ps, ok
}

// probeTimeout bounds one probe. The first command of the wine executor
// may create a Wine prefix, which takes a minute or two.
const probeTimeout = 5 * time.Minute

// fingerprintTools runs each probe through ex with the settings of base
// (environment, user, work dir) and returns one line per probe,
// "<command>: <output>". A probe that cannot run or fails is an error: a
// missing tool would fail the tests later with a less helpful message.
// When version is not empty it must appear, as a whole word, in the first
// probe's output (the compiler's version), so a manifest can pin the tools
// it was written for.
func fingerprintTools(ctx context.Context, ex executors.Executor, base executors.Cmd, ps []probe, version string) (string, error) {
	var fp strings.Builder
	for i, p := range ps {
		var stdout, stderr bytes.Buffer
		cmd := base
		cmd.Argv, cmd.Stdout, cmd.Stderr, cmd.Timeout = p.argv, &stdout, &stderr, probeTimeout
		name := strings.Join(p.argv, " ")
		res, err := ex.Run(ctx, cmd)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		if res.ExitCode != 0 || res.TimedOut {
			return "", fmt.Errorf("%s: exit %d (timed out: %v): %s", name, res.ExitCode, res.TimedOut, strings.TrimSpace(stderr.String()))
		}
		out := strings.TrimSpace(stdout.String())
		if p.firstLine {
			out, _, _ = strings.Cut(out, "\n")
			out = strings.TrimSpace(out)
		}
		if out == "" {
			return "", fmt.Errorf("%s printed nothing on stdout; stderr: %s", name, strings.TrimSpace(stderr.String()))
		}
		if i == 0 && version != "" && !containsWord(out, version) {
			return "", fmt.Errorf("toolchain %q is pinned, but %s says %q", version, name, out)
		}
		fmt.Fprintf(&fp, "%s: %s\n", name, out)
	}
	return fp.String(), nil
}

// containsWord reports whether word occurs in s with no letter, digit or
// dot right before or after it: "12.2" is in "gcc 12.2 (Debian)", but not
// in "12.20" or "112.2".
func containsWord(s, word string) bool {
	re := regexp.MustCompile(`(^|[^0-9A-Za-z.])` + regexp.QuoteMeta(word) + `($|[^0-9A-Za-z.])`)
	return re.MatchString(s)
}

// summary is the step's label: each probe's output, "12.2.0, cmake
// version 3.25.1".
func summary(fingerprint string) string {
	var parts []string
	for _, line := range strings.Split(strings.TrimSpace(fingerprint), "\n") {
		_, out, _ := strings.Cut(line, ": ")
		parts = append(parts, out)
	}
	return strings.Join(parts, ", ")
}
