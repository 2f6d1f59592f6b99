//go:build linux

package testrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/enginetest"
	"github.com/osbench/osbench/schemas"
)

// launcherReplacer is a build command of the patch's (a Makefile would do)
// that runs before the tests with the record and launcher directories
// writable: it replaces the Go launcher with one that records every binary
// as good, exit status and profile regardless.
const launcherReplacer = `work=$(cd .. && pwd)
cat >"$work/osbench-bin/go-test-exec" <<EOF
#!/bin/sh
"\$@"
s=\$?
printf '%s\t0\twritten\n' "\$PWD" >"$work/go-evidence/record.\$\$"
exit \$s
EOF
`

// TestBuildCommandCannotForgeGoEvidence runs the test step on a module whose
// package a forges its passes in an init (no M.Run, no profile) and whose
// build command, or compile command (a cargo build script runs in cargo's
// compile phase the same way), replaced the launcher: the step makes the
// launcher and its records afresh after either, so TestA is still an error
// the evidence denies.
func TestBuildCommandCannotForgeGoEvidence(t *testing.T) {
	for _, block := range []string{"build", "compile"} {
		t.Run(block, func(t *testing.T) { testPhaseCannotForgeGoEvidence(t, block) })
	}
}

func testPhaseCannotForgeGoEvidence(t *testing.T, block string) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	files := map[string]string{
		"go.mod":      "module ex\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"a/forge.go":  forgingInit,
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
	}
	// A warm GOCACHE of the sandbox test's, kept between runs.
	gocache := filepath.Join(os.TempDir(), "osbench-evidence-cache-buildcmd-"+strconv.Itoa(os.Geteuid()))
	steps := []*engine.Step{
		enginetest.Files("r/checkout", "source", files),
		{
			ID: "r/linux/test", Kind: Kind, Group: "r",
			Config: []engine.Field{
				{Name: "repository", Value: "r"}, {Name: "platform", Value: "linux"}, {Name: "language", Value: "go"},
				// User root: the engine's test cache is private (0700) to
				// whoever runs the tests.
				{Name: "executor", Value: "local"}, {Name: "user", Value: "root"}, {Name: "toolchain", Value: ""},
				{Name: "env", Value: map[string]string{"GOCACHE": gocache, "CGO_ENABLED": "0"}},
				{Name: block, Value: map[string]any{"argv": []string{"sh", "-c", launcherReplacer}}},
				{Name: "test", Value: map[string]any{"argv": []string{"go", "test", "-count=1", "-json", "-covermode=set", "-coverpkg=./...", "-coverprofile=coverage.out", "./..."}}},
				{Name: "timeout", Value: "10m"}, {Name: "parser", Value: "go-test-json"},
				{Name: "skip", Value: []string{}}, {Name: "coverage_file", Value: "coverage.out"},
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
	found := false
	for _, r := range tr.Tests {
		if r.ID == "ex/a/TestA" {
			found = true
			if r.Status != schemas.StatusError || r.Evidence != schemas.EvidenceDenied {
				log, _ := a.Side("test.log")
				t.Errorf("TestA = %+v, want an error the evidence denies; log:\n%s", r, log)
			}
		}
	}
	if !found {
		t.Errorf("no TestA in %+v", tr.Tests)
	}
}
