package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCompare runs `osbench report --compare` on the summary
// package's fixture run: acme/coder-<v2> resolved 2 of the 5 tasks and
// baseline none, so both are discordant and p = 2·(½)² = 0.5. The
// statistics are unit-tested in pipeline/evalreport; this test is about the
// flag reaching them.
func TestReportCompare(t *testing.T) {
	requireBinary(t)
	run := filepath.Join(repoRoot, "pipeline", "evalreport", "testdata", "run")
	out, errOut, code := runOsbench(t, t.TempDir(), "report", "--compare", "acme/coder-<v2>,baseline", run)
	if code != 0 {
		t.Fatalf("report --compare exited %d: %s", code, errOut)
	}
	for _, want := range []string{
		"paired on 5 tasks", "both resolved 0, only A 2, only B 0, neither 3",
		"McNemar exact two-sided p = 0.5 (on the 2 discordant tasks)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, code := runOsbench(t, t.TempDir(), "report", "--compare", "acme/coder-<v2>,nobody", run); code == 0 || !strings.Contains(errOut, `no report of model "nobody"`) {
		t.Errorf("a comparison with a model that has no report: exit %d, %s", code, errOut)
	}
}
