package testrun

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/plugins/runner/ctest"
	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// The runners' golden: what every (language, parser) pair the step can
// meet does with one run's fixture — the tests it expects, the launcher it
// installs, the evidence and definitions it collects, the log lines it
// writes, the tests it knows for the skip check — and what each skip style
// spells. It was recorded before the runners moved to plugins/runner
// (issue 21), and must stay byte-identical: the move changes no result.

// goldenLanguages and goldenParsers are crossed: a manifest may pair any
// language with any parser.
var (
	goldenLanguages = []string{"go", "rust", "c", "csharp", ""}
	goldenParsers   = []string{"go-test-json", "libtest", "ctest", "junit", "tap", "trx", "regex"}
)

// goldenRepo writes the fixture repository every pair runs on: a Go module
// with tests in two packages, a crate, a CTest build directory.
func goldenRepo(t *testing.T, work string) string {
	t.Helper()
	repo := filepath.Join(work, "repo")
	files := map[string]string{
		"go.mod":             "module ex\n\ngo 1.22\n",
		"a_test.go":          "package ex\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n",
		"sub/b_test.go":      "package sub\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n",
		"win/w_test.go":      "//go:build windows\n\npackage win\n\nimport \"testing\"\n\nfunc TestW(t *testing.T) {}\n",
		"Cargo.toml":         "[package]\nname = \"rsplat\"\nversion = \"0.1.0\"\n\n[[test]]\nname = \"platform\"\nharness = false\n",
		".cargo/config.toml": "[env]\nFOO = \"1\"\n[alias]\nt = \"test\"\n",
		ctest.CTestBuildDir + "/CTestTestfile.cmake": "# generated\n",
	}
	writeFiles(t, repo, files)
	return repo
}

// goldenListings are what the listing commands print, by program.
func goldenListings(repo string) map[string]string {
	return map[string]string{
		"ctest": `{"kind":"ctestInfo","version":{"major":1,"minor":0},"tests":[
 {"name":"sep","command":["` + repo + `/_osbench_build/cpath_tests","sep"],"backtrace":1,"properties":[{"name":"WORKING_DIRECTORY","value":"` + repo + `/_osbench_build"},{"name":"LABELS","value":["a","b"]}]},
 {"name":"abs","command":["` + repo + `/_osbench_build/cpath_tests.exe","abs"]},
 {"name":"script","command":["/bin/true"]}]}`,
		"cargo": `{"packages":[{"name":"rsplat","manifest_path":"` + repo + `/Cargo.toml","targets":[
 {"name":"rsplat","kind":["lib"],"src_path":"` + repo + `/src/lib.rs","test":true,"doctest":true},
 {"name":"platform","kind":["test"],"src_path":"` + repo + `/tests/platform.rs","test":true,"doctest":false}]}]}`,
	}
}

// goldenCoverage is the run's raw coverage: what each runner's evidence
// reads (gcov JSON lines, an llvm-cov export), concatenated the way no
// real run would, so one fixture serves every pair; each reader takes what
// it understands.
func goldenCoverage(language string) []byte {
	switch language {
	case "c":
		return []byte(`{"data_file":"_osbench_build/CMakeFiles/cpath_tests.dir/tests/main.c.gcda","files":[{"functions":[{"name":"main","execution_count":2}]}]}
{"data_file":"_osbench_build/CMakeFiles/cpath.dir/src/a.c.gcda","files":[{"functions":[{"name":"f","execution_count":5}]}]}
`)
	case "rust":
		return []byte(`{"data":[{"functions":[{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators","count":1},{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_13drive_letters","count":0},{"name":"_ZN6rsplat5tests4legacy17h0123456789abcdefE","count":3}]}]}`)
	}
	return []byte("mode: set\n")
}

// goldenResults are the parsed results every pair starts from: ids in each
// runner's spelling, passes and failures.
func goldenResults() []schemas.TestResult {
	return []schemas.TestResult{
		{ID: "abs", Status: schemas.StatusPass},
		{ID: "doctest/src/paths.rs - paths::separators", Status: schemas.StatusPass},
		{ID: "ex/TestA", Status: schemas.StatusPass},
		{ID: "ex/TestB", Status: schemas.StatusFail},
		{ID: "ex/sub/TestC", Status: schemas.StatusPass},
		{ID: "ex/sub/TestC/case", Status: schemas.StatusPass},
		{ID: "other/TestZ", Status: schemas.StatusPass},
		{ID: "script", Status: schemas.StatusPass},
		{ID: "sep", Status: schemas.StatusPass},
		{ID: "src/lib.rs/paths::tests::drive_letters", Status: schemas.StatusPass},
		{ID: "src/lib.rs/paths::tests::separators", Status: schemas.StatusPass},
		{ID: "src/lib.rs/tests::legacy", Status: schemas.StatusPass},
		{ID: "suite/adds", Status: schemas.StatusPass},
		{ID: "suite/slow", Status: schemas.StatusSkip},
	}
}

// goldenPair is one pair's outcome.
type goldenPair struct {
	Language     string                   `json:"language"`
	Parser       string                   `json:"parser"`
	Expected     []string                 `json:"expected"`
	ExpectedErr  string                   `json:"expected_error,omitempty"`
	Launcher     *goldenLauncher          `json:"launcher,omitempty"`
	Listed       []string                 `json:"listed,omitempty"`
	Results      []schemas.TestResult     `json:"results"`
	Definitions  *schemas.TestDefinitions `json:"definitions"`
	Log          string                   `json:"log"`
	Known        []string                 `json:"known"`
	Complete     bool                     `json:"complete"`
	Unmatched    []string                 `json:"unmatched_skips"`
	EvidenceErr  string                   `json:"evidence_error,omitempty"`
	FailedListed *schemas.TestDefinitions `json:"definitions_when_listing_fails"`
}

type goldenLauncher struct {
	Env      []string `json:"env"`
	Writable []string `json:"writable"`
	Records  string   `json:"records"`
	Script   string   `json:"script"`
}

// goldenSkip is one skip style's spelling of sample entries and ids.
type goldenSkip struct {
	Style    string            `json:"style"`
	Args     []string          `json:"args"`
	Problems map[string]string `json:"problems"`
	EntryFor map[string]string `json:"entry_for"`
	Subtest  map[string]string `json:"subtest_entry_for"`
}

var goldenSkipEntries = []string{"TestA", "TestB/case", "paths::tests::sep*", "suite/adds", "a b", "Suite.Test", "x|y", "-flag"}
var goldenIDs = []string{"ex/TestA", "ex/sub/TestC/case", "src/lib.rs/paths::tests::separators", "suite/adds", "Suite.Test", "doctest/src/paths.rs - paths::separators"}

// runPair runs one pair through the step's runner wiring as Run does.
func runPair(t *testing.T, language, parser string) goldenPair {
	t.Helper()
	work := t.TempDir()
	repo := goldenRepo(t, work)
	// The entry tracer is this test binary, wherever go test built it.
	exe, _ := os.Executable()
	scrub := func(s string) string {
		if exe != "" {
			s = strings.ReplaceAll(s, exe, "$TRACER")
		}
		return strings.ReplaceAll(s, work, "$TMP")
	}
	out := goldenPair{Language: language, Parser: parser}
	cfg := Config{Language: language, Parser: parser, Platform: "linux", Skip: []string{"TestA", "sep", "suite/slow", "nothing*"}}

	expected, err := expectedTests(cfg.Language, repo, cfg.Platform, cfg.Env)
	out.Expected = expected
	if err != nil {
		out.ExpectedErr = scrub(err.Error())
	}
	rn, err := runner.For(cfg.Language, cfg.Parser)
	if err != nil {
		t.Fatal(err)
	}
	var records string
	if launch, err := rn.Launch(work); err != nil {
		t.Fatal(err)
	} else if launch != nil {
		env := launch.Env([]string{"HOME=/h", "GOFLAGS=-mod=mod"})
		// The launcher is what the environment hands the runner: go
		// test's -exec, cargo's target runner.
		var launcher string
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			if _, exec, ok := strings.Cut(v, "-exec="); ok {
				launcher = exec
			} else if strings.HasSuffix(k, "_RUNNER") {
				launcher = v
			}
		}
		var script []byte
		if launcher != "" {
			if script, err = os.ReadFile(launcher); err != nil {
				t.Fatal(err)
			}
		}
		if launch.Wrap != nil {
			// CTest's wrapper: the test command as it runs, and a
			// record of a tracer that saw no program of the tree.
			env = append(env, "WRAPPED="+strings.Join(launch.Wrap([]string{"ctest"}, "linux", repo), " "))
			if err := os.WriteFile(filepath.Join(launch.Records, "entries"), []byte("images 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out.Launcher = &goldenLauncher{Env: env, Writable: launch.Writable, Records: launch.Records, Script: string(script)}
		for i := range out.Launcher.Env {
			out.Launcher.Env[i] = scrub(out.Launcher.Env[i])
		}
		for i := range out.Launcher.Writable {
			out.Launcher.Writable[i] = scrub(out.Launcher.Writable[i])
		}
		out.Launcher.Records, out.Launcher.Script = scrub(out.Launcher.Records), scrub(out.Launcher.Script)
		records = launch.Records
		// The root package's binary ran to the end; sub's exited 0
		// without its profile.
		for name, rec := range map[string]string{"record.1": repo + "\t0\twritten\n", "record.2": filepath.Join(repo, "sub") + "\t0\tmissing\n"} {
			if err := os.WriteFile(filepath.Join(records, name), []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	listings := goldenListings(repo)
	collect := func(fail bool) (collected, string, []string, error) {
		var log bytes.Buffer
		var listed []string
		ev, err := collectEvidence(evidenceRun{
			runner: rn, repo: repo, platform: cfg.Platform, env: cfg.Env, expected: expected,
			records: records, coverage: goldenCoverage(cfg.Language), ran: true, log: &log,
			list: func(argv []string, w io.Writer) (executors.Result, error) {
				listed = append(listed, strings.Join(argv, " "))
				if fail {
					return executors.Result{ExitCode: 1}, nil
				}
				_, err := io.WriteString(w, listings[argv[0]])
				return executors.Result{}, err
			},
		}, goldenResults())
		return ev, scrub(log.String()), listed, err
	}
	ev, log, listed, err := collect(false)
	if err != nil {
		out.EvidenceErr = scrub(err.Error())
	}
	out.Results, out.Definitions, out.Log, out.Listed = markSkipped(ev.results, expected, cfg.Skip), ev.definitions, log, listed
	out.Known, out.Complete = knownTests(rn, expected, ev.definitions, out.Results, false)
	if out.Complete {
		out.Unmatched = unmatchedSkips(out.Known, cfg.Skip)
	}
	failed, _, _, _ := collect(true)
	out.FailedListed = failed.definitions
	return out
}

func TestRunnersGolden(t *testing.T) {
	var pairs []goldenPair
	for _, language := range goldenLanguages {
		for _, parser := range goldenParsers {
			pairs = append(pairs, runPair(t, language, parser))
		}
	}
	var skips []goldenSkip
	for _, style := range lang.SkipStyleNames() {
		s := goldenSkip{Style: style, Args: lang.SkipArgs(style, goldenSkipEntries), Problems: map[string]string{}, EntryFor: map[string]string{}, Subtest: map[string]string{}}
		for _, e := range goldenSkipEntries {
			if p := lang.SkipEntryProblem(style, e); p != "" {
				s.Problems[e] = p
			}
		}
		for _, id := range goldenIDs {
			s.EntryFor[id] = lang.SkipEntryFor(style, id)
			s.Subtest[id] = lang.SkipSubtestEntryFor(style, id)
		}
		skips = append(skips, s)
	}
	got, err := json.MarshalIndent(map[string]any{"pairs": pairs, "skip_styles": skips}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "runners.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d", golden, len(gl), len(wl))
	}
}
