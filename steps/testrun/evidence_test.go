package testrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// forgingInit is the measured attack: an init that, seeing go test's
// flags, prints passes for every test and exits before M.Run.
const forgingInit = `package a

import (
	"fmt"
	"os"
	"strings"
)

func init() {
	for _, arg := range os.Args {
		if strings.HasPrefix(arg, "-test.") {
			fmt.Println("=== RUN   TestA")
			fmt.Println("\x16--- PASS: TestA (0.00s)")
			fmt.Println("PASS")
			os.Exit(0)
		}
	}
}
`

// TestGoLauncherEvidence runs real go test through the launcher on a
// two-package module: the honest package's pass is evidenced, the pass the
// forging init printed is an error.
func TestGoLauncherEvidence(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, forged := range []bool{false, true} {
		t.Run(map[bool]string{false: "honest", true: "forged"}[forged], func(t *testing.T) {
			work := t.TempDir()
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"go.mod":      "module ex\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
				"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
				"b/b.go":      "package b\n\nfunc B() int { return 2 }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif B() != 2 {\n\t\tt.Fatal(\"B() is not 2\")\n\t}\n}\n",
			}
			if forged {
				files["a/forge.go"] = forgingInit
			} else {
				files["a/a.go"] = "package a\n\nfunc A() int { return 2 }\n"
			}
			for name, body := range files {
				p := filepath.Join(repo, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			launcher, dirs, err := goLauncher(work)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "test", "-count=1", "-json", "-covermode=set", "-coverpkg=./...", "-coverprofile="+filepath.Join(work, "cover.out"), "./...")
			cmd.Dir = repo
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "GOFLAGS=") {
					env = append(env, kv)
				}
			}
			cmd.Env = withGoExec(append(env, "GOFLAGS=-mod=mod"), launcher)
			var out bytes.Buffer
			cmd.Stdout = &out
			_ = cmd.Run() // a failing package exits 1; the parser decides
			p, _ := parsers.Lookup("go-test-json")
			expected, _ := expectedTests("go", repo, "linux", nil)
			parsed, err := p.Parse(&out, parsers.Options{Expected: expected})
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{language: "go", repo: repo, platform: "linux", expected: expected, goRecords: dirs.Records, ran: true, log: &log}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]schemas.TestResult{}
			for _, r := range ev.results {
				got[r.ID] = r
			}
			if b := got["ex/b/TestB"]; b.Status != schemas.StatusPass || b.Evidence != schemas.EvidenceRan {
				t.Errorf("TestB = %+v, want an evidenced pass", b)
			}
			a := got["ex/a/TestA"]
			if forged {
				if a.Status != schemas.StatusError || a.Evidence != schemas.EvidenceDenied || !strings.Contains(a.Reason, "without writing the coverage profile") {
					t.Errorf("forged TestA = %+v, want an error the evidence denies", a)
				}
				if !strings.Contains(log.String(), "ex/a/TestA") {
					t.Errorf("log does not name the denied test:\n%s", log.String())
				}
			} else if a.Status != schemas.StatusPass || a.Evidence != schemas.EvidenceRan {
				t.Errorf("honest TestA = %+v, want an evidenced pass", a)
			}
			if ev.definitions == nil || ev.definitions.Runner != "go" || len(ev.definitions.Tests) != 2 {
				t.Errorf("definitions = %+v, want the two Go tests", ev.definitions)
			}
		})
	}
}

func TestGoEvidenceRecords(t *testing.T) {
	dirs := map[string]string{"ex": ".", "ex/sub": "sub"}
	tests := []struct {
		name    string
		records map[string]goRecord
		in      schemas.TestResult
		want    schemas.TestResult
	}{
		{"profile written", map[string]goRecord{".": {"0", "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass", Evidence: "ran"}},
		{"subtest of nested package", map[string]goRecord{"sub": {"0", "written"}}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass"}, schemas.TestResult{ID: "ex/sub/TestA/x", Status: "pass", Evidence: "ran"}},
		{"no record", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"profile missing", map[string]goRecord{".": {"0", "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "error", Evidence: "denied"}},
		{"binary failed after writing", map[string]goRecord{".": {"1", "written"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"binary panicked", map[string]goRecord{".": {"2", "missing"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"a failure stays a failure", map[string]goRecord{}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}, schemas.TestResult{ID: "ex/TestA", Status: "fail"}},
		{"no profile asked", map[string]goRecord{".": {"0", "none"}}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}, schemas.TestResult{ID: "ex/TestA", Status: "pass"}},
		{"unknown package", map[string]goRecord{}, schemas.TestResult{ID: "other/TestA", Status: "pass"}, schemas.TestResult{ID: "other/TestA", Status: "pass"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := goEvidence([]schemas.TestResult{tt.in}, tt.records, dirs)[0]
			got.Reason = ""
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCTestEvidence(t *testing.T) {
	listing := `{"kind":"ctestInfo","version":{"major":1,"minor":0},"backtraceGraph":{},"tests":[
	 {"name":"sep","command":["/w/repo/_osbench_build/cpath_tests","sep"],"backtrace":1,"properties":[{"name":"WORKING_DIRECTORY","value":"/w/repo/_osbench_build"}]},
	 {"name":"abs","command":["/w/repo/_osbench_build/cpath_tests.exe","abs"],"backtrace":2},
	 {"name":"script","command":["/bin/true"],"backtrace":3}]}`
	defs, err := ctestDefinitions([]byte(listing), "/w/repo")
	if err != nil {
		t.Fatal(err)
	}
	if sep := defs.Tests[2]; sep.Name != "sep" || sep.Command[0] != "$WORK/_osbench_build/cpath_tests" || sep.Properties["WORKING_DIRECTORY"] != "$WORK/_osbench_build" {
		t.Fatalf("definitions = %+v", defs.Tests)
	}
	moved, _ := ctestDefinitions([]byte(strings.ReplaceAll(listing, `"backtrace":1`, `"backtrace":7`)), "/w/repo")
	if moved.Digest != defs.Digest {
		t.Errorf("an add_test moved in the file changed the digest")
	}
	changed, _ := ctestDefinitions([]byte(strings.Replace(listing, `cpath_tests","sep"`, `cpath_tests","abs"`, 1)), "/w/repo")
	if changed.Digest == defs.Digest {
		t.Errorf("a test running another command kept the digest")
	}
	gcov := func(mainCount int) []byte {
		return []byte(`{"data_file":"_osbench_build/CMakeFiles/cpath_tests.dir/tests/main.c.gcda","files":[{"functions":[{"name":"main","execution_count":` + strconv.Itoa(mainCount) + `}]}]}
{"data_file":"_osbench_build/CMakeFiles/cpath.dir/src/a.c.gcda","files":[{"functions":[{"name":"f","execution_count":5}]}]}
`)
	}
	results := func() []schemas.TestResult {
		return []schemas.TestResult{{ID: "abs", Status: "pass"}, {ID: "script", Status: "pass"}, {ID: "sep", Status: "pass"}}
	}
	for _, tt := range []struct {
		main int
		want []string
	}{{2, []string{"ran", "", "ran"}}, {1, []string{"", "", ""}}, {0, []string{"", "", ""}}} {
		got := cEvidence(results(), defs, gcov(tt.main))
		for i, r := range got {
			if r.Evidence != tt.want[i] || r.Status != schemas.StatusPass {
				t.Errorf("main entered %d times: %s = %+v, want evidence %q", tt.main, r.ID, r, tt.want[i])
			}
		}
	}
}

func TestManglesPath(t *testing.T) {
	tests := []struct {
		symbol string
		path   string
		want   bool
	}{
		{"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators", "paths::tests::separators", true},
		{"_RNvCsj3klfEMwgwO_8platforms_28joined_paths_name_real_files", "joined_paths_name_real_files", true},
		{"_ZN6rsplat5paths5tests10separators17h0123456789abcdefE", "paths::tests::separators", true},
		{"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators", "tests::paths::separators", false},
		{"_RNvNtCs7Ki3xCtWVbG_6rsplat5paths4join", "paths::join_list", false},
		{"_RNvNtCs7Ki3xCtWVbG_6rsplat5paths9join_list", "paths::join", false},
		{"main", "main", false},
	}
	for _, tt := range tests {
		if got := manglesPath(tt.symbol, strings.Split(tt.path, "::")); got != tt.want {
			t.Errorf("manglesPath(%s, %s) = %v, want %v", tt.symbol, tt.path, got, tt.want)
		}
	}
	raw := []byte(`{"data":[{"functions":[{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators","count":1},{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_13drive_letters","count":0}]}]}`)
	got := rustEvidence([]schemas.TestResult{
		{ID: "src/lib.rs/paths::tests::drive_letters", Status: "pass"},
		{ID: "src/lib.rs/paths::tests::separators", Status: "pass"},
		{ID: "doctest/src/paths.rs - paths::separators", Status: "pass"},
	}, raw)
	if got[0].Evidence != "" || got[1].Evidence != "ran" || got[2].Evidence != "" {
		t.Errorf("rust evidence = %+v", got)
	}
}

// TestCargoDefinitions lists the fixture crate's targets with the real
// cargo: a harness = false on its test target changes the definitions, a
// comment does not.
func TestCargoDefinitions(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo")
	}
	list := func(edit string) *schemas.TestDefinitions {
		t.Helper()
		repo := filepath.Join(t.TempDir(), "rsplat")
		if out, err := exec.Command("cp", "-a", fixture("rsplat"), repo).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		toml := filepath.Join(repo, "Cargo.toml")
		b, err := os.ReadFile(toml)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(toml, append(b, edit...), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(cargoMetadataArgv[0], cargoMetadataArgv[1:]...)
		cmd.Dir = repo
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("cargo metadata: %v", err)
		}
		defs, err := cargoDefinitions(out, repo)
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	plain := list("")
	if len(plain.Tests) != 2 || plain.Tests[1].Name != "rsplat/test/platform" || plain.Tests[1].Command[0] != "tests/platform.rs" || plain.Tests[1].Properties["harness"] != "true" {
		t.Fatalf("definitions = %+v", plain.Tests)
	}
	if c := list("\n# a comment\n"); c.Digest != plain.Digest {
		t.Errorf("a comment in Cargo.toml changed the definitions: %+v", c.Tests)
	}
	if h := list("\n[[test]]\nname = \"platform\"\nharness = false\n"); h.Digest == plain.Digest || h.Tests[1].Properties["harness"] != "false" {
		t.Errorf("harness = false kept the definitions: %+v", h.Tests)
	}
	// A .cargo/config is part of the definitions: its [env] reaches every
	// test program, and no variable beats it; harmless tables and
	// comments do not count.
	config := func(text string) *schemas.TestDefinitions {
		t.Helper()
		repo := t.TempDir()
		if err := os.MkdirAll(filepath.Join(repo, ".cargo"), 0o755); err != nil {
			t.Fatal(err)
		}
		if text != "" {
			if err := os.WriteFile(filepath.Join(repo, ".cargo", "config.toml"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		defs, err := newDefinitions("cargo", cargoConfigDefinitions(repo))
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	none, env := config(""), config("[env]\nLD_PRELOAD = \"./forge.so\"\n")
	if len(none.Tests) != 0 || env.Digest == none.Digest {
		t.Errorf("[env] kept the definitions: %+v / %+v", none.Tests, env.Tests)
	}
	if a, b := config("[alias]\nt = \"test\"\n"), config("# nothing\n[term]\nverbose = true\n"); a.Digest != b.Digest || a.Digest != none.Digest {
		t.Errorf("harmless tables changed the definitions: %+v / %+v", a.Tests, b.Tests)
	}
	if w := config("[build]\nrustc-wrapper = \"./w\"\n"); w.Digest == none.Digest {
		t.Errorf("a rustc wrapper kept the definitions: %+v", w.Tests)
	}
}
