package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine/cache"
)

// With VerifyCache, hits run again: a deterministic step is "same", one
// whose result changes from run to run is reported, and the cached record
// is kept as it was.
func TestVerifyCache(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	steps := func() []*Step { return []*Step{text("det", "", "fixed"), slow("flaky", "v")} }
	first := build(t, e, steps()...)

	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v := New(c, Options{Jobs: 2, KeepGoing: true, VerifyCache: 1})
	g, err := NewGraph(steps())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	wantStatuses(t, rep, map[string]Status{"det": StatusHit, "flaky": StatusHit})
	if got := rep.Step("det").Verify; got != VerifySame {
		t.Errorf("deterministic step: verify %q, want %q", got, VerifySame)
	}
	flaky := rep.Step("flaky")
	if !strings.HasPrefix(flaky.Verify, VerifyDiffers+": text (cached ") {
		t.Errorf("nondeterministic step: verify %q", flaky.Verify)
	}
	if n := rep.Nondeterministic(); len(n) != 1 || n[0].ID != "flaky" {
		t.Errorf("Nondeterministic() = %v", n)
	}
	if flaky.OutputDigest != first.Step("flaky").OutputDigest {
		t.Errorf("the rerun replaced the cached result")
	}
	again := build(t, e, steps()...)
	if again.Step("flaky").Status != StatusHit || again.Step("flaky").OutputDigest != first.Step("flaky").OutputDigest || again.Step("flaky").Verify != "" {
		t.Errorf("after verifying: %+v", again.Step("flaky"))
	}
}

// The sample is a function of the key: the same hits on every run.
func TestVerifyCacheSample(t *testing.T) {
	e := &Engine{opts: Options{VerifyCache: 0.25}}
	nextRun := &Engine{opts: Options{VerifyCache: 0.25}}
	picked := 0
	for i := 0; i < 2000; i++ {
		k := cache.Sum([]byte{byte(i), byte(i >> 8)})
		if e.sampled(k) != nextRun.sampled(k) {
			t.Fatal("sampling is not a function of the key")
		}
		if e.sampled(k) {
			picked++
		}
	}
	if picked < 400 || picked > 600 {
		t.Errorf("%d of 2000 keys sampled at 0.25", picked)
	}
}
