package ctest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// CTestBuildDir is the build directory of the c-cmake preset, where the
// test step asks CTest for the test definitions once the tests ran.
const CTestBuildDir = "_osbench_build"

// ctestListArgv lists CTest's tests as JSON: names, commands and
// properties, as CMake generated them from the (possibly patched) build
// files.
var ctestListArgv = []string{"ctest", "--show-only=json-v1", "--test-dir", CTestBuildDir}

// ctestListing is the part of CTest's json-v1 listing osbench keeps; the
// backtrace (file and line of each add_test) is left out, since any edit
// above an add_test moves it without changing what the test runs.
type ctestListing struct {
	Kind  string `json:"kind"`
	Tests []struct {
		Name       string   `json:"name"`
		Command    []string `json:"command"`
		Properties []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"properties"`
	} `json:"tests"`
}

// ctestDefinitions turns CTest's listing into test definitions, with the
// repository's absolute path replaced by schemas.WorkToken (workToken).
func ctestDefinitions(listing []byte, workToken func([]byte) []byte) (*schemas.TestDefinitions, error) {
	var l ctestListing
	if err := json.Unmarshal(listing, &l); err != nil {
		return nil, fmt.Errorf("ctest --show-only=json-v1: %w", err)
	}
	if l.Kind != "ctestInfo" {
		return nil, fmt.Errorf("ctest --show-only=json-v1: kind %q, want ctestInfo", l.Kind)
	}
	defs := make([]schemas.TestDefinition, 0, len(l.Tests))
	for _, t := range l.Tests {
		d := schemas.TestDefinition{Name: t.Name}
		for _, a := range t.Command {
			d.Command = append(d.Command, string(workToken([]byte(a))))
		}
		for _, p := range t.Properties {
			var s string
			if json.Unmarshal(p.Value, &s) != nil {
				s = string(p.Value) // lists, numbers, booleans: their JSON
			}
			if d.Properties == nil {
				d.Properties = map[string]string{}
			}
			d.Properties[p.Name] = string(workToken([]byte(s)))
		}
		defs = append(defs, d)
	}
	return runner.NewDefinitions("ctest", defs)
}

// gcovTarget is the CMake target a .gcda file belongs to:
// CMakeFiles/<target>.dir/… in the build tree.
var gcovTarget = regexp.MustCompile(`(?:^|/)CMakeFiles/([^/]+)\.dir/`)

// gcovMainCounts sums, per CMake target, how many times main was entered
// and returned (gcov counts are written when the program exits normally),
// from gcov's JSON (one document per .gcda file, as the c-cmake preset
// writes them).
func gcovMainCounts(raw []byte) map[string]int64 {
	counts := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var doc struct {
			DataFile string `json:"data_file"`
			Files    []struct {
				Functions []struct {
					Name           string `json:"name"`
					ExecutionCount int64  `json:"execution_count"`
				} `json:"functions"`
			} `json:"files"`
		}
		if err := dec.Decode(&doc); err != nil {
			if !errors.Is(err, io.EOF) {
				return counts // what was read so far; the rest is not evidence
			}
			return counts
		}
		m := gcovTarget.FindStringSubmatch(strings.ReplaceAll(doc.DataFile, `\`, "/"))
		if m == nil {
			continue
		}
		for _, f := range doc.Files {
			for _, fn := range f.Functions {
				if fn.Name == "main" {
					counts[m[1]] += fn.ExecutionCount
				}
			}
		}
	}
}

// cEvidence marks CTest tests that passed as having run when the program
// their command runs entered its main at least as many times as the
// program's tests passed. A constructor that exits before main, or a test
// command that runs something other than the built program, leaves no such
// count. Tests whose program has no counts (not instrumented, not a CMake
// target) get no evidence; the task records which tests had it.
func cEvidence(results []schemas.TestResult, defs *schemas.TestDefinitions, raw []byte) []schemas.TestResult {
	if defs == nil || len(raw) == 0 {
		return results
	}
	mains := gcovMainCounts(raw)
	program, passes := testPrograms(defs, results, func(base string) bool { _, ok := mains[base]; return ok }, true)
	for i := range results {
		r := &results[i]
		p, ok := program[r.ID]
		if ok && r.Status == schemas.StatusPass && mains[p] >= passes[p] {
			r.Evidence = schemas.EvidenceRan
		}
	}
	return results
}

// testPrograms maps each test of the definitions to the program its CTest
// command runs — the base name of the first argument that known holds,
// ".exe" trimmed when trimExe (a Windows target) — and counts the passing
// results of each program. Both kinds of evidence compare that count with
// how often the program's main ran (gcov's counts, the entry tracer's).
func testPrograms(defs *schemas.TestDefinitions, results []schemas.TestResult, known func(base string) bool, trimExe bool) (program map[string]string, passes map[string]int64) {
	program = map[string]string{} // test name → program
	for _, d := range defs.Tests {
		for _, arg := range d.Command {
			base := path.Base(strings.ReplaceAll(arg, `\`, "/"))
			if trimExe {
				base = strings.TrimSuffix(base, ".exe")
			}
			if known(base) {
				program[d.Name] = base
				break
			}
		}
	}
	passes = map[string]int64{}
	for _, r := range results {
		if p, ok := program[r.ID]; ok && r.Status == schemas.StatusPass {
			passes[p]++
		}
	}
	return program, passes
}
