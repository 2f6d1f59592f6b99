package testrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
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

// profileForgingInit goes one step further: it writes a plausible coverage
// profile where the go command asked for one, then prints passes and
// exits 0. Only evidence from outside the binary tells it from a run.
const profileForgingInit = `package a

import (
	"fmt"
	"os"
	"strings"
)

func init() {
	for _, arg := range os.Args {
		if p, ok := strings.CutPrefix(arg, "-test.coverprofile="); ok {
			_ = os.WriteFile(p, []byte("mode: set\nex/a/a.go:3.16,3.26 1 1\n"), 0o644)
		}
	}
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

// harnessReuseInit runs the real harness on look-alike tests: TestA by
// name with an empty body, through testing.MainStart and test deps of its
// own whose coverage tear-down writes the profile. Real framing, a real
// profile, exit 0; the task's TestA never runs.
const harnessReuseInit = `package a

import (
	"io"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}

type deps struct{}

func (deps) ImportPath() string                           { return "ex/a" }
func (deps) ModulePath() string                           { return "ex" }
func (deps) MatchString(pat, str string) (bool, error)    { return regexp.MatchString(pat, str) }
func (deps) SetPanicOnExit0(bool)                         {}
func (deps) StartCPUProfile(io.Writer) error              { return nil }
func (deps) StopCPUProfile()                              {}
func (deps) StartTestLog(io.Writer)                       {}
func (deps) StopTestLog() error                           { return nil }
func (deps) WriteProfileTo(string, io.Writer, int) error  { return nil }
func (deps) CheckCorpus([]any, []reflect.Type) error      { return nil }
func (deps) ResetCoverage()                               {}
func (deps) SnapshotCoverage()                            {}
func (deps) RunFuzzWorker(func(corpusEntry) error) error  { return nil }
func (deps) ReadCorpus(string, []reflect.Type) ([]corpusEntry, error) { return nil, nil }
func (deps) CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error {
	return nil
}
func (deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "set", func(profile, _ string) (string, error) {
		if profile != "" {
			_ = os.WriteFile(profile, []byte("mode: set\nex/a/a.go:3.16,3.26 1 1\n"), 0o644)
		}
		return "", nil
	}, func() float64 { return 1 }
}

func init() {
	for _, arg := range os.Args {
		if strings.HasPrefix(arg, "-test.") {
			tests := []testing.InternalTest{{Name: "TestA", F: func(*testing.T) {}}}
			os.Exit(testing.MainStart(deps{}, tests, nil, nil, nil).Run())
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
	for _, variant := range []string{"honest", "forged", "forged profile", "harness reuse"} {
		forged := variant != "honest"
		t.Run(variant, func(t *testing.T) {
			work := t.TempDir()
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"go.mod":      "module ex\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
				"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
				"b/b.go":      "package b\n\nfunc B() int { return 2 }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif B() != 2 {\n\t\tt.Fatal(\"B() is not 2\")\n\t}\n}\n",
			}
			switch variant {
			case "forged":
				files["a/forge.go"] = forgingInit
			case "forged profile":
				files["a/forge.go"] = profileForgingInit
			case "harness reuse":
				files["a/forge.go"] = harnessReuseInit
			default:
				files["a/a.go"] = "package a\n\nfunc A() int { return 2 }\n"
			}
			writeFiles(t, repo, files)
			launch, err := goRunner(t).Launch(work)
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
			cmd.Env = launch.Env(append(env, "GOFLAGS=-mod=mod"))
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
			ev, err := collectEvidence(evidenceRun{runner: goRunner(t), repo: repo, platform: "linux", expected: expected, records: launch.Records, ran: true, log: &log}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			got := resultsByID(ev.results)
			if b := got["ex/b/TestB"]; b.Status != schemas.StatusPass || b.Evidence != schemas.EvidenceRan {
				t.Errorf("TestB = %+v, want an evidenced pass", b)
			}
			a := got["ex/a/TestA"]
			if forged {
				want := "without writing the coverage profile"
				if variant == "forged profile" || variant == "harness reuse" {
					want = "never entered TestA"
				}
				if a.Status != schemas.StatusError || a.Evidence != schemas.EvidenceDenied || !strings.Contains(a.Reason, want) {
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

// goRunner is the runner of a Go run read by go-test-json.
func goRunner(t *testing.T) *runner.Runner {
	t.Helper()
	rn, err := runner.For("go", "go-test-json")
	if err != nil {
		t.Fatal(err)
	}
	return rn
}

// resultsByID indexes a run's results by test ID.
func resultsByID(results []schemas.TestResult) map[string]schemas.TestResult {
	got := map[string]schemas.TestResult{}
	for _, r := range results {
		got[r.ID] = r
	}
	return got
}

// writeFiles writes files (slash paths relative to root, and their
// contents) under root, making the directories they need.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
