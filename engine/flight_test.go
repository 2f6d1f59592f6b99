package engine

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowKind takes a while, so two steps of one build overlap; it counts
// runs and writes a result that differs on every run (as a real test run's
// timing-dependent outcome could), so a second run would be visible.
type slowKind struct{ runs atomic.Int64 }

func (k *slowKind) Name() string    { return "test.slow" }
func (k *slowKind) Version() string { return "1" }
func (k *slowKind) Run(ctx context.Context, rc *RunContext) error {
	n := k.runs.Add(1)
	time.Sleep(150 * time.Millisecond)
	return rc.PutBytes("text", []byte{byte('0' + n%10)})
}

var kSlow = &slowKind{}

func init() { RegisterKind(kSlow) }

func slow(id, text string) *Step {
	return &Step{ID: id, Kind: "test.slow", Group: id, Config: []Field{{Name: "text", Value: text, Source: id + ".hcl:3:5"}}}
}

// Two steps with one key in one build run once; the other is served the
// same record, so both consumers read one result.
func TestSameKeyRunsOnceInABuild(t *testing.T) {
	e := newEngine(t, t.TempDir())
	before := kSlow.runs.Load()
	rep := build(t, e, slow("a/test", "same"), slow("b/test", "same"), slow("c/test", "other"))
	if got := kSlow.runs.Load() - before; got != 2 {
		t.Fatalf("%d runs for two distinct keys, want 2", got)
	}
	a, b := rep.Step("a/test"), rep.Step("b/test")
	if a.Key != b.Key || a.OutputDigest != b.OutputDigest {
		t.Errorf("a and b: keys %s/%s, outputs %s/%s; want one key and one result", a.Key.Short(), b.Key.Short(), a.OutputDigest.Short(), b.OutputDigest.Short())
	}
	ran, served := a, b
	if a.Status == StatusHit {
		ran, served = b, a
	}
	if ran.Status != StatusRan || served.Status != StatusHit || !strings.Contains(served.Reason, "same key as "+ran.ID) {
		t.Errorf("statuses %s/%s, reason %q; want one ran and one hit naming it", ran.Status, served.Status, served.Reason)
	}
}

// A step first served another step's identical record still knows, at its
// next miss, what changed in its own configuration.
func TestExplainAfterServedFromAnotherStep(t *testing.T) {
	e := newEngine(t, t.TempDir())
	build(t, e, slow("one/test", "v1"))
	rep := build(t, e, slow("two/test", "v1"))
	wantStatuses(t, rep, map[string]Status{"two/test": StatusHit})
	g, err := NewGraph([]*Step{slow("two/test", "v2")})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := e.Plan(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	r := plan.Step("two/test")
	if r.Status != StatusMiss || !strings.Contains(r.Reason, `"v1" → "v2"`) || !strings.Contains(r.Reason, "two/test.hcl:3:5") {
		t.Errorf("plan: %s %q; want a miss naming the change and its line", r.Status, r.Reason)
	}
	// A no-op build of a step's own record writes no history.
	build(t, e, slow("one/test", "v1"))
	if n := len(e.hist.load("one/test")); n != 1 {
		t.Errorf("one/test has %d history entries after a no-op build, want 1", n)
	}
}
