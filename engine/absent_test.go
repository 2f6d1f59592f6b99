package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// collectKind writes, per input, its text or why it is absent.
type collectKind struct{ runs atomic.Int64 }

func (k *collectKind) Name() string    { return "test.collect" }
func (k *collectKind) Version() string { return "1" }
func (k *collectKind) Run(ctx context.Context, rc *RunContext) error {
	k.runs.Add(1)
	var out []string
	for _, in := range rc.Step.Inputs {
		a, err := rc.Input(in.Name)
		if absent, ok := IsAbsent(err); ok {
			out = append(out, in.Name+" absent: "+string(absent.Status)+": "+absent.Reason)
			continue
		}
		if err != nil {
			return err
		}
		b, err := a.Bytes("text")
		if err != nil {
			return err
		}
		out = append(out, in.Name+"="+string(b))
	}
	return rc.PutBytes("text", []byte(strings.Join(out, "\n")))
}

var kCollect = &collectKind{}

func init() { RegisterKind(kCollect) }

// A collector of optional inputs runs when some producers failed or were
// skipped, sees each absent one with its root cause, exports its result,
// and is never served that result later.
func TestOptionalInputs(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	bad := text("bad", "", "x")
	setField(bad, "fail", true)
	below := text("below", "", "y", "bad")
	collect := &Step{ID: "all", Kind: "test.collect", Exports: []Export{{Output: "text", Path: "all.txt"}},
		Inputs: []Input{{Name: "good", Step: "good", Optional: true}, {Name: "bad", Step: "bad", Optional: true}, {Name: "below", Step: "below", Optional: true}}}
	strict := &Step{ID: "strict", Kind: "test.collect", Inputs: []Input{{Name: "bad", Step: "bad"}}}
	steps := []*Step{text("good", "", "g"), bad, below, collect, strict}
	g, err := NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	wantStatuses(t, rep, map[string]Status{"good": StatusRan, "bad": StatusFailed, "below": StatusSkipped, "all": StatusRan, "strict": StatusSkipped})
	got, err := os.ReadFile(filepath.Join(dir, "out", "all.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "good=g\nbad absent: failed: told to fail\nbelow absent: skipped: input bad failed: told to fail"
	if string(got) != want {
		t.Errorf("collected:\n%s\nwant:\n%s", got, want)
	}
	before := kCollect.runs.Load()
	rep, _ = e.Build(context.Background(), g)
	if r := rep.Step("all"); r.Status != StatusRan || kCollect.runs.Load() != before+1 {
		t.Errorf("second build: collector %s (%d runs); a result from absent inputs must not be cached", r.Status, kCollect.runs.Load()-before)
	}
	// Once every producer succeeds, the collector is an ordinary cached step.
	setField(bad, "fail", false)
	build(t, e, steps...)
	rep = build(t, e, steps...)
	wantStatuses(t, rep, map[string]Status{"all": StatusHit, "strict": StatusHit})
}
