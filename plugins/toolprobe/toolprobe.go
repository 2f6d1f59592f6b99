// Package toolprobe fingerprints the installed tools a language's test
// runs use (compilers, build tools, Wine): the commands each language's
// package under plugins/lang lists as its Probes, run through an executor,
// their outputs normalised. The toolchain step records them as its result;
// the compiler puts the same fingerprint into the toolchain steps' keys, and
// a Temporal worker computes it to name the queues it serves — all three
// through this package, so they cannot disagree.
package toolprobe

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages' probes
	"github.com/osbench/osbench/plugins/toolenv"
)

// For returns the probes of a language on a platform run with executor;
// ok is false when osbench knows no tools for it. A language lists them
// per platform ("windows": what runs it on a Linux host, the wine
// executor's mingw-w64 and Wine) and, where an executor needs others, per
// platform and executor ("windows/local": a real Windows machine's native
// compilers); the executor's own row wins. Languages without a way to pick
// a version (unlike Go's GOTOOLCHAIN) are keyed by what is installed, so a
// tool upgrade reruns every step that used the tool.
func For(language, platform, executor string) (ps []lang.Probe, ok bool) {
	l, known := lang.Lookup(language)
	if !known {
		return nil, false
	}
	ps, ok = l.Probes[platform+"/"+executor]
	if !ok {
		ps = l.Probes[platform]
	}
	return ps, len(ps) > 0
}

// Prober fingerprints installed tools for the compiler: the same probes
// the toolchain step runs, as one line, run as one user from the root
// directory (reading nothing of a work dir). Each command runs once per
// Prober, however many languages and platforms use it.
//
// The compiler puts these fingerprints into the toolchain steps' keys, the
// way it puts in the executor's: without them, a toolchain step cached
// before gcc or rustc was upgraded would never run again, and nothing
// downstream would learn of the upgrade.
type Prober struct {
	ex   executors.Executor
	user string
	seen map[string]string // command → its normalised output
}

// NewProber returns a Prober that runs its commands through ex as user.
func NewProber(ex executors.Executor, user string) *Prober {
	return &Prober{ex: ex, user: user, seen: map[string]string{}}
}

// Tools fingerprints the tools of language on platform run with executor;
// "" for a language without probes (Go is pinned by version instead).
func (pr *Prober) Tools(ctx context.Context, language, platform, executor string) (string, error) {
	ps, ok := For(language, platform, executor)
	if !ok {
		return "", nil
	}
	versions, err := Run(ctx, pr.ex, executors.Cmd{Dir: "/", Env: toolenv.BaseEnv(), User: pr.user}, ps, "", pr.seen)
	if err != nil {
		return "", err
	}
	return versions.OneLine(), nil
}

// KeyedTools is the tools' fingerprint as the compiler puts it into a
// toolchain step's key (Env["tools"]): Tools, or "unavailable: <why>"
// when a probe fails — not an error of the compilation (which would stop
// every repository), since the toolchain step runs the same probes and
// fails with that error, stopping only its own repository. A Temporal
// worker computes the same string to serve the queue of such steps, so
// the two must come from here.
func (pr *Prober) KeyedTools(ctx context.Context, language, platform, executor string) string {
	tools, err := pr.Tools(ctx, language, platform, executor)
	if err != nil {
		return "unavailable: " + err.Error()
	}
	return tools
}

// Languages lists, sorted, the languages whose tools are probed on
// platform with executor: those whose toolchain steps carry a tools
// fingerprint.
func Languages(platform, executor string) []string {
	var out []string
	for _, name := range lang.Names() {
		if _, ok := For(name, platform, executor); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Timeout bounds one probe. The first command of the wine executor may
// create a Wine prefix, which takes a minute or two.
const Timeout = 5 * time.Minute

// Version is what one probe said.
type Version struct {
	Command string // "gcc -dumpfullversion"
	Output  string // "12.2.0"
}

// Versions are the answers of a language's probes, in their order.
type Versions []Version

// Lines is the toolchain step's fingerprint: "<command>: <output>" per
// probe, one per line.
func (vs Versions) Lines() string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s: %s\n", v.Command, v.Output)
	}
	return b.String()
}

// OneLine is the same on one line, for the step's key, which plan and
// explain print.
func (vs Versions) OneLine() string {
	return strings.ReplaceAll(strings.TrimSuffix(vs.Lines(), "\n"), "\n", "; ")
}

// Summary is the step's label: the outputs alone, "12.2.0, cmake version
// 3.25.1".
func (vs Versions) Summary() string {
	outs := make([]string, len(vs))
	for i, v := range vs {
		outs[i] = v.Output
	}
	return strings.Join(outs, ", ")
}

// Run runs each probe through ex with the settings of base (environment,
// user, work dir). A probe that cannot run or fails is an error: a missing
// tool would fail the tests later with a less helpful message. When
// version is not empty it must appear, as a whole word, in the first
// probe's output (the compiler's version), so a manifest can pin the tools
// it was written for. seen, when not nil, holds outputs by command: a
// command found there is not run again, and one that runs is added.
func Run(ctx context.Context, ex executors.Executor, base executors.Cmd, ps []lang.Probe, version string, seen map[string]string) (Versions, error) {
	versions := make(Versions, 0, len(ps))
	for i, p := range ps {
		name := strings.Join(p.Argv, " ")
		out, ok := seen[name]
		if !ok {
			var err error
			if out, err = runProbe(ctx, ex, base, p); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if seen != nil {
				seen[name] = out
			}
		}
		if i == 0 && version != "" && !containsWord(out, version) {
			return nil, fmt.Errorf("toolchain %q is pinned, but %s says %q", version, name, out)
		}
		versions = append(versions, Version{Command: name, Output: out})
	}
	return versions, nil
}

// runProbe runs one probe and returns its output on one line, with single
// spaces: the fingerprint holds a line per tool.
func runProbe(ctx context.Context, ex executors.Executor, base executors.Cmd, p lang.Probe) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := base
	cmd.Argv, cmd.Stdout, cmd.Stderr, cmd.Timeout = p.Argv, &stdout, &stderr, Timeout
	res, err := ex.Run(ctx, cmd)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 || res.TimedOut {
		return "", fmt.Errorf("exit %d (timed out: %v): %s", res.ExitCode, res.TimedOut, strings.TrimSpace(stderr.String()))
	}
	out := strings.TrimSpace(stdout.String())
	if p.FirstLine {
		out, _, _ = strings.Cut(out, "\n")
	}
	out = strings.Join(strings.Fields(out), " ")
	if out == "" {
		return "", fmt.Errorf("printed nothing on stdout; stderr: %s", strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// containsWord reports whether word occurs in s with no letter, digit or
// dot right before or after it: "12.2" is in "gcc 12.2 (Debian)", but not
// in "12.20" or "112.2".
func containsWord(s, word string) bool {
	re := regexp.MustCompile(`(^|[^0-9A-Za-z.])` + regexp.QuoteMeta(word) + `($|[^0-9A-Za-z.])`)
	return re.MatchString(s)
}
