//go:build linux

package testrun

import (
	"context"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

// buildTimeoutSteps is a repository whose build sleeps 3 s and whose test
// run has a timeout of 1 s (an eval_timeout sized for hung tests).
func buildTimeoutSteps(buildTimeout string) []*engine.Step {
	return []*engine.Step{
		enginetest.Files("r/checkout", "source", map[string]string{"README": "a repository\n"}),
		{
			ID: "r/linux/test", Kind: Kind, Group: "r",
			Config: []engine.Field{
				{Name: "repository", Value: "r"}, {Name: "platform", Value: "linux"}, {Name: "language", Value: "c"},
				// User root: the test's temporary directory is private (0700).
				{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
				{Name: "env", Value: map[string]string{}},
				{Name: "build", Value: map[string]any{"argv": []string{"sh", "-c", "sleep 3"}}},
				{Name: "build_timeout", Value: buildTimeout},
				{Name: "test", Value: map[string]any{"argv": []string{"printf", `ok 1 - a\n1..1\n`}}},
				{Name: "timeout", Value: "1s"}, {Name: "parser", Value: "tap"},
				{Name: "skip", Value: []string{}},
			},
			Inputs: []engine.Input{{Name: "source", Step: "r/checkout"}},
		},
	}
}

// TestBuildTimeout: a build slower than the run's timeout passes under the
// compile budget (no build_timeout) or a build_timeout of its own; a build
// past its own build_timeout is the machine's (a compile does not hang on
// the code): an infrastructure failure, not build-failed results.
func TestBuildTimeout(t *testing.T) {
	for _, tt := range []struct{ name, buildTimeout string }{
		{"the compile budget bounds the build, not the run's timeout", ""},
		{"a build timeout of its own", "30s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, e, _ := enginetest.Build(t, buildTimeoutSteps(tt.buildTimeout)...)
			a, err := e.Artifacts(rep.Step("r/linux/test"))
			if err != nil {
				t.Fatal(err)
			}
			var tr schemas.TestResults
			if err := a.DecodeJSON("tests.json", &tr); err != nil {
				t.Fatal(err)
			}
			log, _ := a.Side("test.log")
			if len(tr.Tests) != 1 || tr.Tests[0].Status != schemas.StatusPass {
				t.Errorf("results = %+v, want a passing; log:\n%s", tr.Tests, log)
			}
			if !strings.Contains(string(log), "[osbench: build exit 0, timed out false") {
				t.Errorf("log lacks the build's end:\n%s", log)
			}
		})
	}
	t.Run("a build past its build timeout is infrastructure", func(t *testing.T) {
		c, err := cache.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		g, err := engine.NewGraph(buildTimeoutSteps("1s"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := engine.New(c, engine.Options{OutDir: t.TempDir(), Jobs: 1, KeepGoing: true, InfraRetries: 0}).Build(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		st := rep.Step("r/linux/test")
		if st == nil || st.Status != engine.StatusFailed || st.Infra != CauseCompileTimout {
			t.Fatalf("step %+v, want failed as %q", st, CauseCompileTimout)
		}
	})
}
