// Package golang is Go for osbench: its files, test-file rule, syntax,
// skip style, default build check and LM prompt material, its verify front
// end and its rules masker (MaskRules, go/parser):
//
// A function only the target compiles (no region
// touching it is SourceCompiled) loses its whole body as soon as a
// region covers one of its statements; in a function the source
// compiles too, each run of covered statements (the content of a
// guarded block, say) becomes an early return, so the code after it,
// which may depend on the run, is not reached on the masked path. A
// placeholder return gives the results' zero values, except that a
// last result of type error gets errors.New(lang.NeutralError) (errors is
// imported where the file lacks it, unless the name is taken): callers
// check that error before they touch the other results. A result of an
// interface the package declares gets a zero value of a package type
// implementing it (iface.go, over the files beside the masked one,
// lang.MaskInput.Dir), since callers that only note the error go on to
// call its methods. Local
// variables still referred to after an early return keep a zero-value
// declaration, variables that lost their last use get "_ = x", imports
// that lost their last use are removed. Top-level declarations are
// never removed, so files of the target only (attrs_windows.go) still
// compile. Input.Coarse also takes the bodies of target-only functions
// that a region touches without covering a statement (it never takes
// a function the source compiles), and returns plain zero values with
// a nil error: it is the retry of a mask whose target run crashed or
// hung, and what crashes on the neutral error is code that panics on
// any error (a test's if err != nil { panic(err) }). Its bool results
// beside that nil error are true, since false with a nil error is the
// "not yet" a polling caller retries forever.
//
// Its verify front end (ReadEvidence, verify.go) reads a file with
// go/parser into the guards (build tags, file suffixes, runtime.GOOS and
// separator tests) and facts (OS-specific selectors in verify_tables.go,
// telling literals) that plugins/verify's judge weighs.
package golang

import (
	"slices"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// Language is Go as registered.
var Language = lang.Language{
	Name:       lang.Go,
	Extensions: []string{".go"},
	// go build compiles x_tests.go into the package: only _test.go is a test.
	IsTestName: func(base string) bool { return lang.StemHasSuffix(base, "_test") },
	Syntax:     lang.Syntax{BacktickStrings: true},
	SkipStyles: []lang.SkipStyle{{Name: "go", Args: func(entries []string) []string {
		return []string{"-skip", skipPattern(entries)}
	}, EntryFor: skipEntry, SubtestEntryFor: subtestSkipEntry}},
	// Go's toolchain is pinned by version (GOTOOLCHAIN) and fingerprinted
	// by `go version` of that toolchain, so there is nothing to probe.
	Probes: map[string][]lang.Probe{"linux": {}, "windows": {}},
	// Go's test command compiles as it tests, so its presets need no build
	// command, and `go build` is the check.
	BuildCheck: func(string) []string { return []string{"go", "build", "./..."} },
	Prompt: lang.Prompt{
		Name:        "Go",
		Conditional: "build constraints (//go:build windows, file names ending in _windows.go or _unix.go), comparisons of runtime.GOOS, and branches on filepath.Separator or os.PathSeparator",
		API:         "package syscall, golang.org/x/sys/windows or golang.org/x/sys/unix, syscall.Stat_t, Win32 calls such as GetFileAttributes, os.Getuid and other calls that only work on one OS",
		Placeholders: `- Delete the statements, or end the function early with a zero-value return: return "", 0, false, nil, T{} or the function's named results.
- A local variable that code after the region still uses keeps a declaration with its type (var b []byte). A parameter or variable that loses its last use gets "_ = name".
- Do not call panic, log.Fatal or os.Exit, and do not return a new error: the code must fail quietly, not loudly.
- The import block lies outside the regions and cannot change: leave at least one use of every package the file imports, and do not use a package the file does not import.
- Keep every top-level declaration: a function covered whole keeps its signature and gets a placeholder body.`,
	},
	// steps/checkout points these at osbench's own module cache.
	CacheEnv: []string{"GOMODCACHE", "GOFLAGS"},
	Evidence: lang.EvidenceReader{Read: ReadEvidence, Version: "1"},
	TestCode: lang.TestCode{None: "Go tests live in _test.go files only"},
}

func init() {
	lang.Register(Language)
	lang.AttachMask(lang.Go, MaskRules{})
}

// skipPattern spells entries for go test's -skip, which splits its
// pattern at unbracketed '|' into alternatives and each alternative at
// unbracketed '/' into one regexp per level (test, subtest, …): so
// "TestA" and "TestB/sub" become ^TestA$|^TestB$/^sub$. One group around
// everything (^(TestA|TestB/sub)$) would never match a subtest, because
// its '/' is bracketed and so stays part of the top-level regexp.
//
// Shallower entries come first. go test stops at the first alternative
// that matches a name so far, and one with more levels than the name
// matches only partly, which skips nothing: with ^TestA$/^x$|^TestA$,
// TestA meets the subtest entry first and runs. An alternative with no
// more levels than the name matches it whole, so trying those first lets
// a whole-test entry win over its subtests' entries in any order.
func skipPattern(entries []string) string {
	split := make([][]string, len(entries))
	for i, e := range entries {
		split[i] = strings.Split(e, "/")
	}
	slices.SortStableFunc(split, func(a, b []string) int { return len(a) - len(b) })
	alts := make([]string, len(split))
	for i, levels := range split {
		for j, l := range levels {
			levels[j] = "^" + lang.GlobRegexp(l) + "$"
		}
		alts[i] = strings.Join(levels, "/")
	}
	return strings.Join(alts, "|")
}

// skipEntry is the top-level test of a result ID (package/TestX/sub →
// TestX), or "" for a package-level result, which no -skip names.
func skipEntry(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		if i > 0 && isTestName(p) {
			return p
		}
	}
	return ""
}

// subtestSkipEntry is the path of a subtest from its top-level test
// (package/TestX/case/inner → TestX/case/inner), which skipPattern spells
// one level at a time; "" for a top-level test or a package result, and
// for a name with '|', which go test would read as another alternative.
func subtestSkipEntry(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		if i > 0 && isTestName(p) {
			if i == len(parts)-1 {
				return ""
			}
			entry := strings.Join(parts[i:], "/")
			if strings.Contains(entry, "|") {
				return ""
			}
			return entry
		}
	}
	return ""
}

func isTestName(s string) bool {
	for _, prefix := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
