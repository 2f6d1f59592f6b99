package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ownModuleProbe is a non-test file of the patch's: at the start of every
// test program it looks for the module's own published sources in the
// shared module cache, where another repository's fetch would leave them,
// and panics if they are there, so every test of the program fails. Under
// Wine the host path is on drive Z:.
const ownModuleProbe = `package pathsep

import (
	"os"
	"runtime"
)

func init() {
	p := %q
	if runtime.GOOS == "windows" {
		p = "Z:" + p
	}
	if _, err := os.Stat(p); err == nil {
		panic("OSBENCH-DOOR the module's published sources are readable: " + p)
	}
}
`

// TestEvalOwnModuleHiddenInModuleCache is the door of the own package in
// the dependency cache (docs/security.md, "Reading the answer") for Go:
// the pathsep module's complete sources are planted in the shared module
// cache as example.com/pathsep@v1.0.0 (as a fetch for a repository that
// requires pathsep would leave them), and each pathsep task gets its gold
// patch plus a probe that fails every test when it can read them. The
// commands of pathsep's evaluation get the module cache copy-on-write
// with the planted versions whited out (toolenv.Hide), so the probe finds
// nothing and the gold-plus-probe resolves, on Linux and under Wine.
// With Hide hiding nothing the probe panics and nothing resolves
// (checked by hand).
func TestEvalOwnModuleHiddenInModuleCache(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	modcache := filepath.Join(cacheDir, "state", "go", "mod-cache")
	planted := filepath.Join(modcache, "example.com", "pathsep@v1.0.0")
	if err := copyTree(filepath.Join(repoRoot, "testdata", "repos", "pathsep"), planted); err != nil {
		t.Fatal(err)
	}
	// The state is the shared corpus's (copyCache links it): the planted
	// module goes when the test ends.
	t.Cleanup(func() { os.RemoveAll(planted) })
	var ids []string
	for _, id := range taskIDs(t, tasks) {
		if strings.HasPrefix(id, "pathsep__") {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatal("no pathsep task in the example corpus")
	}
	var preds [][3]string
	for _, id := range ids {
		preds = append(preds, [3]string{id, "probe", agentPatch(t, filepath.Join(out, "tasks", id, "repo"), func(dir string) {
			applyGold(t, dir, tasks, id)
			probe := fmt.Sprintf(ownModuleProbe, filepath.Join(planted, "pathsep.go"))
			if err := os.WriteFile(filepath.Join(dir, "zz_probe.go"), []byte(probe), 0o644); err != nil {
				t.Fatal(err)
			}
			gitAddIntent(t, dir, "zz_probe.go")
		})})
	}
	predFile := filepath.Join(t.TempDir(), "probe.jsonl")
	writePredictions(t, predFile, preds...)
	evalOut := filepath.Join(reachableTempDir(t), "eval")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", predFile, "--out", evalOut)
	for _, id := range ids {
		rep := readReport(t, evalOut, "probe", id)
		if !rep.Resolved {
			log := ""
			if rep.StageI.Log != nil {
				log = tail(readFile(t, filepath.Join(evalOut, "probe", id, rep.StageI.Log.Path)), 30)
			}
			t.Errorf("probe/%s: %s (stage I failing %v): the module's published sources were in its view\n%s", id, rep.Outcome, rep.StageI.Failing, log)
		}
	}
	if r.code != 0 {
		t.Errorf("eval: exit %d\n%s", r.code, tail(r.stderr, 30))
	}
}
