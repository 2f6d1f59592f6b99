//go:build linux

package testrun

import (
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

// TestBuildTimeout: a build slower than the run's timeout (an eval_timeout
// sized for hung tests, on a loaded machine) passes under a build_timeout
// of its own, and is cut at the run's timeout without one.
func TestBuildTimeout(t *testing.T) {
	tests := []struct {
		name, buildTimeout string
		want               []schemas.TestResult
		wantLog            string
	}{
		{"the run's timeout bounds the build", "", []schemas.TestResult{},
			"[osbench: build command failed: exit -1, timed out true]"},
		{"a build timeout of its own", "30s", []schemas.TestResult{{ID: "a", Status: schemas.StatusPass}},
			"[osbench: build exit 0, timed out false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := []*engine.Step{
				enginetest.Files("r/checkout", "source", map[string]string{"README": "a repository\n"}),
				{
					ID: "r/linux/test", Kind: Kind, Group: "r",
					Config: []engine.Field{
						{Name: "repository", Value: "r"}, {Name: "platform", Value: "linux"}, {Name: "language", Value: "c"},
						// User root: the test's temporary directory is private (0700).
						{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
						{Name: "env", Value: map[string]string{}},
						{Name: "build", Value: map[string]any{"argv": []string{"sh", "-c", "sleep 3"}}},
						{Name: "build_timeout", Value: tt.buildTimeout},
						{Name: "test", Value: map[string]any{"argv": []string{"printf", `ok 1 - a\n1..1\n`}}},
						{Name: "timeout", Value: "1s"}, {Name: "parser", Value: "tap"},
						{Name: "skip", Value: []string{}},
					},
					Inputs: []engine.Input{{Name: "source", Step: "r/checkout"}},
				},
			}
			rep, e, _ := enginetest.Build(t, steps...)
			a, err := e.Artifacts(rep.Step("r/linux/test"))
			if err != nil {
				t.Fatal(err)
			}
			var tr schemas.TestResults
			if err := a.DecodeJSON("tests.json", &tr); err != nil {
				t.Fatal(err)
			}
			log, _ := a.Side("test.log")
			var got []schemas.TestResult
			for _, r := range tr.Tests {
				got = append(got, schemas.TestResult{ID: r.ID, Status: r.Status})
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("results = %+v, want %+v; log:\n%s", got, tt.want, log)
			}
			if !strings.Contains(string(log), tt.wantLog) {
				t.Errorf("log lacks %q:\n%s", tt.wantLog, log)
			}
		})
	}
}
