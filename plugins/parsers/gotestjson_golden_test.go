package parsers

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false,
	"run go test on testdata/gostub to rewrite the recorded inputs, then rewrite the golden outputs")

// The recorded inputs: real `go test -json` runs over the stub module, once as
// Go 1.24+ reports build failures (JSON events) and once as older Go did
// (plain text, stderr merged into stdout).
const (
	inputJSONBuild = "gostub.jsonl"
	inputTextBuild = "gostub-buildtext.jsonl"
	expectedFile   = "gostub.expected"
)

var goldenCases = []struct {
	name     string
	input    string
	expected string // file of expected ids, one per line; "" for none
}{
	{name: "gostub", input: inputJSONBuild},
	{name: "gostub-expected", input: inputJSONBuild, expected: expectedFile},
	{name: "gostub-buildtext", input: inputTextBuild},
	{name: "gostub-buildtext-expected", input: inputTextBuild, expected: expectedFile},
}

func TestGoTestJSONGolden(t *testing.T) {
	if *update {
		recordGoStub(t)
	}
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			var opts Options
			if tc.expected != "" {
				opts.Expected = readLines(t, filepath.Join("testdata", tc.expected))
			}
			got := parseFile(t, filepath.Join("testdata", tc.input), opts)
			checkResults(t, got, opts.Expected)

			goldenPath := filepath.Join("testdata", tc.name+".golden.json")
			gotJSON, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			gotJSON = append(gotJSON, '\n')
			if *update {
				if err := os.WriteFile(goldenPath, gotJSON, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(gotJSON, want) {
				t.Errorf("%s differs from %s (run with -update if the change is intended):\n%s",
					tc.input, goldenPath, firstDifference(string(want), string(gotJSON)))
			}
		})
	}
}

// Both ways the go command reports a build failure must give the same
// results: a curator's older toolchain must not change a task's labels.
func TestGoTestJSONBuildReportsAgree(t *testing.T) {
	for _, expected := range [][]string{nil, readLines(t, filepath.Join("testdata", expectedFile))} {
		opts := Options{Expected: expected}
		fromJSON := parseFile(t, filepath.Join("testdata", inputJSONBuild), opts)
		fromText := parseFile(t, filepath.Join("testdata", inputTextBuild), opts)
		if !reflect.DeepEqual(fromJSON, fromText) {
			t.Errorf("with %d expected ids, JSON build events give\n%v\nbut text build output gives\n%v",
				len(expected), fromJSON, fromText)
		}
	}
}

// The stub module exercises each status; this pins the ones that matter
// most, so a wrong golden file cannot be accepted by accident.
func TestGoTestJSONGoldenKeyStatuses(t *testing.T) {
	opts := Options{Expected: readLines(t, filepath.Join("testdata", expectedFile))}
	got := map[string]schemas.Status{}
	for _, r := range parseFile(t, filepath.Join("testdata", inputJSONBuild), opts) {
		got[r.ID] = r.Status
	}
	want := map[string]schemas.Status{
		"example.com/gostub/pass/TestAdd":                      schemas.StatusPass,
		"example.com/gostub/pass/ExampleAdd":                   schemas.StatusPass,
		"example.com/gostub/pass/BenchmarkAdd":                 schemas.StatusPass,
		"example.com/gostub/pass/TestLogs":                     schemas.StatusPass,
		"example.com/gostub/pass/TestRemoved":                  schemas.StatusMissing,
		"example.com/gostub/fail/TestBad":                      schemas.StatusFail,
		"example.com/gostub/skip/TestSkipped":                  schemas.StatusSkip,
		"example.com/gostub/subtests/TestTable/two_words":      schemas.StatusPass,
		"example.com/gostub/subtests/TestTable/fails":          schemas.StatusFail,
		"example.com/gostub/subtests/TestNested/outer/inner":   schemas.StatusPass,
		"example.com/gostub/panics/TestBeforePanic":            schemas.StatusPass,
		"example.com/gostub/panics/TestPanics/fine":            schemas.StatusPass,
		"example.com/gostub/panics/TestPanics/boom":            schemas.StatusError,
		"example.com/gostub/panics/TestPanics":                 schemas.StatusError,
		"example.com/gostub/panics/TestWaiting":                schemas.StatusError,
		"example.com/gostub/panics/TestAfterPanic":             schemas.StatusMissing,
		"example.com/gostub/timeout/TestQuick":                 schemas.StatusPass,
		"example.com/gostub/timeout/TestHangs":                 schemas.StatusTimeout,
		"example.com/gostub/timeout/TestHangs/forever":         schemas.StatusTimeout,
		"example.com/gostub/timeout/TestNeverReached":          schemas.StatusMissing,
		"example.com/gostub/broken/TestNeverBuilt":             schemas.StatusBuildFailed,
		"example.com/gostub/brokendep/TestUsesBroken":          schemas.StatusBuildFailed,
		"example.com/gostub/subtests/TestNested/outer/skipped": schemas.StatusSkip,
	}
	for id, status := range want {
		if got[id] != status {
			t.Errorf("%s: got %q, want %q", id, got[id], status)
		}
	}
	// Expected tests stand for their package: no package-level id is added.
	for _, id := range []string{"example.com/gostub/broken", "example.com/gostub/brokendep", "example.com/gostub/notests"} {
		if status, ok := got[id]; ok {
			t.Errorf("unexpected package-level result %s: %s", id, status)
		}
	}
}

// recordGoStub reruns the stub module's tests and stores their raw output.
func recordGoStub(t *testing.T) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("-update needs the go command: %v", err)
	}
	record := func(file, godebug string, withStderr bool) {
		// -timeout=2s makes the hanging test time out; -bench with one
		// iteration makes benchmarks report without slowing the run.
		cmd := exec.Command(goTool, "test", "-json", "-count=1", "-vet=off", "-timeout=2s",
			"-bench=.", "-benchtime=1x", "./...")
		cmd.Dir = filepath.Join("testdata", "gostub")
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GODEBUG="+godebug)
		var out, stderr bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &stderr
		if withStderr {
			cmd.Stderr = &out
		}
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("running %v: %v\n%s", cmd.Args, err, stderr.String())
		}
		if err := os.WriteFile(filepath.Join("testdata", file), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record(inputJSONBuild, "gotestjsonbuildtext=0", false)
	record(inputTextBuild, "gotestjsonbuildtext=1", true)
}

func parseFile(t *testing.T, path string, opts Options) []schemas.TestResult {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	defer f.Close()
	got, err := (&GoTestJSON{}).Parse(f, opts)
	if err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	return got
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// firstDifference describes the first line where got departs from want.
func firstDifference(want, got string) string {
	wantLines, gotLines := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wantLines) || i < len(gotLines); i++ {
		var w, g string
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if w != g {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, w, g)
		}
	}
	return "no difference"
}
