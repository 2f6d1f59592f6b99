package engine

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine knows steps only through Kind and RunContext: no package
// under engine/, nor anything they import, may import a step or plugin
// package (house rule; DESIGN's layering).
func TestEngineImportsNoStepsOrPlugins(t *testing.T) {
	const module = "github.com/osbench/osbench/"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var engineDeps int
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, module) {
			continue
		}
		engineDeps++
		if rest := strings.TrimPrefix(p, module); strings.HasPrefix(rest, "steps/") || strings.HasPrefix(rest, "plugins/") {
			t.Errorf("the engine depends on %s", rest)
		}
	}
	if engineDeps < 2 {
		t.Fatalf("go list found %d osbench packages under engine/: %s", engineDeps, out)
	}
}
