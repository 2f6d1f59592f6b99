package parsers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// Helpers for the golden tests of the parsers other than go-test-json: a
// recorded runner output under testdata/ and the results it must give, in a
// .golden.json file next to it. With -update the recorded outputs are
// rerun where the runner is installed (see each parser's recorder), then the
// golden files are rewritten.

// checkGolden parses testdata/<input> with p and compares the results with
// testdata/<golden>, rewriting it under -update. It returns the results.
func checkGolden(t *testing.T, p Parser, input, golden string, opts Options) []schemas.TestResult {
	t.Helper()
	got := parseWith(t, p, filepath.Join("testdata", input), opts)
	checkResults(t, got, opts.Expected)
	gotJSON, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gotJSON = append(gotJSON, '\n')
	goldenPath := filepath.Join("testdata", golden)
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
			input, goldenPath, firstDifference(string(want), string(gotJSON)))
	}
	return got
}

// parseWith parses the file at path with p.
func parseWith(t *testing.T, p Parser, path string, opts Options) []schemas.TestResult {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	defer f.Close()
	got, err := p.Parse(f, opts)
	if err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	return got
}

// statusesOf indexes results by id.
func statusesOf(got []schemas.TestResult) results {
	m := results{}
	for _, r := range got {
		m[r.ID] = r.Status
	}
	return m
}

// checkStatuses asserts that each id in want has its status in got, where
// the status "" means the id must be absent; ids not in want are not
// checked. It pins what a recorded run was made to
// show, so that a wrong golden file cannot be accepted by accident.
func checkStatuses(t *testing.T, got []schemas.TestResult, want results) {
	t.Helper()
	byID := statusesOf(got)
	for id, status := range want {
		if byID[id] != status {
			t.Errorf("%s: got %q, want %q", id, byID[id], status)
		}
	}
}

// checkSameResults asserts that two parses gave identical results, e.g. the
// same tests run on Linux and on Windows.
func checkSameResults(t *testing.T, what string, a, b []schemas.TestResult) {
	t.Helper()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s differ:\n%v\n%v", what, a, b)
	}
}

// checkTable runs the edge cases of one parser.
func checkTable(t *testing.T, p Parser, cases []parserCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := p.Parse(strings.NewReader(tc.input), Options{Expected: tc.expected})
			if err != nil {
				t.Fatal(err)
			}
			checkResults(t, got, tc.expected)
			if gotMap := statusesOf(got); !reflect.DeepEqual(gotMap, tc.want) {
				t.Errorf("got  %v\nwant %v", gotMap, tc.want)
			}
		})
	}
}

// parserCase is one edge case of a parser; the cases also seed its fuzz
// target.
type parserCase struct {
	name     string
	input    string
	expected []string
	want     results
}

// maxFuzzSeed bounds the size of a fuzz seed (see fuzzParser).
const maxFuzzSeed = 1 << 10

// fuzzParser is the body shared by the parsers' fuzz targets: whatever the
// input, Parse never panics and returns sorted, unique ids with valid
// statuses, every expected id among them. A parser of a format with a
// grammar (XML) may refuse malformed input with an error and no results;
// the others must accept anything.
//
// Only the cases of at most maxFuzzSeed bytes seed it: the fuzzer minimises
// every input that finds new coverage, which for a seed of kilobytes takes
// most of a run and leaves no time for fuzzing.
func fuzzParser(f *testing.F, p Parser, cases []parserCase, mayRefuse bool) {
	for _, tc := range cases {
		if len(tc.input) <= maxFuzzSeed {
			f.Add([]byte(tc.input), strings.Join(tc.expected, "\n"))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, expected string) {
		ids := strings.Split(expected, "\n")
		got, err := p.Parse(bytes.NewReader(data), Options{Expected: ids})
		if err != nil {
			if !mayRefuse || got != nil {
				t.Fatalf("Parse failed on in-memory input: %v (results %v)", err, got)
			}
			return
		}
		checkResults(t, got, ids)
	})
}

// recorder reruns a tool to refresh a recorded input under -update.
type recorder struct {
	tool string   // command name or absolute path
	args []string // arguments
	dir  string   // where to run it
	env  []string // added to the environment
	// stderr merges the tool's stderr into the recording, as osbench's
	// manifests do for runners that report on both streams.
	stderr bool
}

// record runs rec and writes its output to testdata/<file>. A tool that is
// not installed keeps the existing recording, so that -update works on a
// machine without every runner; its golden output is still rewritten.
func (rec recorder) record(t *testing.T, file string) {
	t.Helper()
	tool, err := exec.LookPath(rec.tool)
	if err != nil {
		t.Logf("%s not found; keeping the recorded %s", rec.tool, file)
		return
	}
	cmd := exec.Command(tool, rec.args...)
	cmd.Dir = rec.dir
	cmd.Env = append(os.Environ(), rec.env...)
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	if rec.stderr {
		cmd.Stderr = &out
	}
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %v: %v\n%s", cmd.Args, err, stderr.String())
	}
	if err := os.WriteFile(filepath.Join("testdata", file), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the directory src into a fresh temporary directory and
// returns its path, so that a runner's build products never land in
// testdata/.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
