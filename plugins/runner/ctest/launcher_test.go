package ctest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestTraceEvidence(t *testing.T) {
	defs := &schemas.TestDefinitions{Tests: []schemas.TestDefinition{
		{Name: "a", Command: []string{"$WORK/_osbench_build/tests/prog", "a"}},
		{Name: "b", Command: []string{"$WORK/_osbench_build/tests/prog", "b"}},
		{Name: "script", Command: []string{"/bin/sh", "run.sh"}},
	}}
	// Under Wine: CTest's emulator runs prog.exe, a test registered by
	// path runs the preset's launcher prog beside it; both are prog.
	winDefs := &schemas.TestDefinitions{Tests: []schemas.TestDefinition{
		{Name: "a", Command: []string{"/usr/bin/wine", "$WORK/_osbench_build/tests/prog.exe", "a"}},
		{Name: "b", Command: []string{"$WORK/_osbench_build/tests/prog", "b"}},
		{Name: "script", Command: []string{"/bin/sh", "run.sh"}},
	}}
	read := func(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
	for _, tc := range []struct {
		name     string
		platform string // "" linux
		record   string // "" no record file
		passes   []string
		denied   []string
	}{
		{"a main per pass", "", "images 2\narmed _osbench_build/tests/prog:main\nentered _osbench_build/tests/prog:main\nentered _osbench_build/tests/prog:main\n", []string{"a", "b", "script"}, nil},
		{"one main short", "", "images 2\narmed _osbench_build/tests/prog:main\nentered _osbench_build/tests/prog:main\n", []string{"a", "b", "script"}, []string{"a", "b"}},
		{"main never entered", "", "images 2\narmed _osbench_build/tests/prog:main\n", []string{"a"}, []string{"a"}},
		{"one passes, one fails: one main is enough", "", "images 2\narmed _osbench_build/tests/prog:main\nentered _osbench_build/tests/prog:main\n", []string{"a"}, nil},
		{"no program of the tree ran", "", "images 0\n", []string{"a", "script"}, nil},
		{"untraced", "", "untraced ptrace: not permitted\n", []string{"a"}, nil},
		{"record gone", "", "", []string{"a", "script"}, []string{"a", "script"}},
		{"wine: a main per pass", "windows", "images 2\narmed _osbench_build/tests/prog.exe:main\nentered _osbench_build/tests/prog.exe:main\nentered _osbench_build/tests/prog.exe:main\n", []string{"a", "b", "script"}, nil},
		{"wine: main never entered", "windows", "images 2\narmed _osbench_build/tests/prog.exe:main\n", []string{"a", "b"}, []string{"a", "b"}},
		{"wine: one main short", "windows", "images 2\narmed _osbench_build/tests/prog.exe:main\nentered _osbench_build/tests/prog.exe:main\n", []string{"a", "b"}, []string{"a", "b"}},
		{"wine: record gone", "windows", "", []string{"a", "script"}, []string{"a", "script"}},
		{"wine: the program never went through the tracer's wine", "windows", "images 0\n", []string{"a", "b", "script"}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.record != "" {
				if err := os.WriteFile(filepath.Join(dir, cRecord), []byte(tc.record), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var results []schemas.TestResult
			for _, id := range []string{"a", "b", "script"} {
				st := schemas.StatusFail
				for _, p := range tc.passes {
					if p == id {
						st = schemas.StatusPass
					}
				}
				results = append(results, schemas.TestResult{ID: id, Status: st})
			}
			denied := map[string]bool{}
			d, platform := defs, "linux"
			if tc.platform == "windows" {
				d, platform = winDefs, "windows"
			}
			for _, r := range traceEvidence(results, d, dir, platform, read) {
				if r.Evidence == schemas.EvidenceDenied {
					denied[r.ID] = r.Status == schemas.StatusError
				}
			}
			if len(denied) != len(tc.denied) {
				t.Errorf("denied %v, want %v", denied, tc.denied)
			}
			for _, id := range tc.denied {
				if !denied[id] {
					t.Errorf("%s not denied as an error (denied: %v)", id, denied)
				}
			}
		})
	}
}
