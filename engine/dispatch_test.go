package engine

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine/cache"
)

// inProcessWorker dispatches to a second engine over a cache of its own,
// moving blobs between the two caches as a store would. tamper, when set,
// changes what comes back, as a broken worker or store would.
type inProcessWorker struct {
	client, worker *Engine
	skipCopy       bool
	tamper         func(*cache.ActionRecord)
	ran            []string
}

func (w *inProcessWorker) Wants(s *Step) bool { return s.Group == "g1" }

func (w *inProcessWorker) Run(ctx context.Context, s *Step, key cache.Digest, inputs map[string]*cache.ActionRecord) (*cache.ActionRecord, error) {
	for _, rec := range inputs {
		copyBlobs(w.client.cache, w.worker.cache, rec.Results)
	}
	rec, err := w.worker.RunDispatched(ctx, s, key, inputs)
	if err != nil {
		return nil, err
	}
	w.ran = append(w.ran, s.ID)
	if !w.skipCopy {
		copyBlobs(w.worker.cache, w.client.cache, append(append([]cache.Output(nil), rec.Results...), rec.Side...))
	}
	back := *rec
	if w.tamper != nil {
		w.tamper(&back)
	}
	return &back, nil
}

func copyBlobs(from, to *cache.Cache, outs []cache.Output) {
	for _, o := range outs {
		var b bytes.Buffer
		if _, err := from.CopyTo(&b, o.Digest); err == nil {
			to.PutBytes(b.Bytes())
		}
	}
}

func dispatchingEngine(t *testing.T, w *inProcessWorker) *Engine {
	t.Helper()
	dir := t.TempDir()
	w.worker = newEngine(t, filepath.Join(dir, "worker"))
	c, err := cache.Open(filepath.Join(dir, "client"))
	if err != nil {
		t.Fatal(err)
	}
	w.client = New(c, Options{Jobs: 2, KeepGoing: true, Dispatcher: w})
	return w.client
}

func TestDispatchedStepsGiveTheLocalResults(t *testing.T) {
	local := build(t, newEngine(t, t.TempDir()), chain()...)
	w := &inProcessWorker{}
	e := dispatchingEngine(t, w)
	rep := build(t, e, chain()...)
	wantStatuses(t, rep, map[string]Status{"a": StatusRan, "b": StatusRan, "c": StatusRan, "x": StatusRan})
	for _, s := range local.Steps {
		if got := rep.Step(s.ID); got.Key != s.Key || got.OutputDigest != s.OutputDigest {
			t.Errorf("%s: key %s output %s; local %s %s", s.ID, got.Key.Short(), got.OutputDigest.Short(), s.Key.Short(), s.OutputDigest.Short())
		}
	}
	if got := strings.Join(w.ran, ","); got != "a,b,c" {
		t.Errorf("the worker ran %q, want the g1 steps a,b,c (x stays on the client)", got)
	}
	// The client cached what the worker ran: a rebuild runs nothing.
	w.ran = nil
	rep = build(t, e, chain()...)
	if s := rep.Summary(); s.Hit != 4 || len(w.ran) != 0 {
		t.Errorf("rebuild: %s, worker ran %v; want 4 hits and nothing sent", s.Line(), w.ran)
	}
}

func TestDispatchedRecordsAreChecked(t *testing.T) {
	tests := []struct {
		name     string
		worker   *inProcessWorker
		wantErr  string
		wantStep string
	}{
		{"blobs never arrive", &inProcessWorker{skipCopy: true}, "not in the cache", "a"},
		{"output digest does not match results", &inProcessWorker{tamper: func(r *cache.ActionRecord) { r.OutputDigest = cache.Sum([]byte("other")) }}, "results hash to", "a"},
		{"record of another key", &inProcessWorker{tamper: func(r *cache.ActionRecord) { r.Key = cache.Sum([]byte("k")) }}, "record of key", "a"},
		{"step fails on the worker", &inProcessWorker{}, "told to fail", "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := dispatchingEngine(t, tt.worker)
			steps := chain()
			if tt.wantStep == "b" {
				setField(steps[1], "fail", true)
			}
			rep := build(t, e, steps...)
			got := rep.Step(tt.wantStep)
			if got.Status != StatusFailed || !strings.Contains(got.Error, tt.wantErr) {
				t.Fatalf("%s: %s %q, want failed with %q", tt.wantStep, got.Status, got.Error, tt.wantErr)
			}
			if rec, err := e.cache.GetAction(got.Key); err == nil && !rec.Failed {
				t.Errorf("a rejected worker result was cached as a success")
			}
			if rep.Step("x").Status != StatusRan {
				t.Errorf("the other group's local step: %s", rep.Step("x").Status)
			}
		})
	}
}
