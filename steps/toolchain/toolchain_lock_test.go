package toolchain

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
)

// TestConcurrentToolchainInstallsOneWriter has two engines (as two osbench
// processes would) on one fresh cache install the same Go toolchain at
// once: both succeed, and only one of them downloads it; the other waits
// for the install's lock and finds it there.
func TestConcurrentToolchainInstallsOneWriter(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	step := func() *engine.Step {
		return &engine.Step{ID: "tc/linux/toolchain", Kind: Kind, Group: "tc", Env: map[string]string{"platform": "linux"},
			Config: engine.Fields(Config{Language: "go", Version: "go1.25.0", Platform: "linux", Executor: "local", User: "root"}, nil)}
	}
	var wg sync.WaitGroup
	engines := make([]*engine.Engine, 2)
	reports := make([]*engine.Report, 2)
	errs := make([]error, 2)
	for i := range engines {
		c, err := cache.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		engines[i] = engine.New(c, engine.Options{Jobs: 1, InfraRetries: -1})
		g, err := engine.NewGraph([]*engine.Step{step()})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			reports[i], errs[i] = engines[i].Build(context.Background(), g)
		}(i)
	}
	wg.Wait()
	for i, rep := range reports {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if r := rep.Step("tc/linux/toolchain"); r.Status != engine.StatusRan && r.Status != engine.StatusHit {
			t.Fatalf("engine %d: %s: %s", i, r.Status, r.Error)
		}
	}
	downloads := 0
	runs := engines[0].StepRuns("tc/linux/toolchain")
	for _, run := range runs {
		for _, l := range run.Side {
			b, err := engines[0].SideLogBytes(l)
			if err == nil && strings.Contains(string(b), "go: downloading go1.25.0") {
				downloads++
			}
		}
	}
	if downloads != 1 {
		t.Errorf("%d of %d runs downloaded the toolchain, want 1", downloads, len(runs))
	}
}
