package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/osbench/osbench/engine/cache"
)

// A Dispatcher runs steps somewhere else (on Temporal workers) instead of in
// this process. The engine keeps the graph and the keys: it hands a
// dispatcher a step whose key it has computed and that missed, with its
// inputs' records, and gets back the record of the run. The dispatcher moves
// the blobs: when Run returns, every blob the record names must be in this
// engine's cache, or the run counts as failed (the engine checks).
type Dispatcher interface {
	// Wants reports whether s is to run elsewhere. Steps it declines run
	// here as usual.
	Wants(s *Step) bool
	// Run runs s, whose action key is key, on a remote worker. A step that
	// ran and failed is a record with Failed set (its Side holds what it
	// logged); an error means the run could not be made (infrastructure)
	// or ctx ended.
	Run(ctx context.Context, s *Step, key cache.Digest, inputs map[string]*cache.ActionRecord) (*cache.ActionRecord, error)
}

// DispatchedFailure is the error of a step that ran on a worker and failed
// there.
type DispatchedFailure struct{ Msg string }

func (f *DispatchedFailure) Error() string { return f.Msg }

// dispatch runs s through the dispatcher and checks what comes back: the
// record must be for key, its output digest must be that of its results,
// and every blob it names must be in the cache. It returns a record ready to
// be cached (no duration yet) and the run's side artifacts.
func (e *Engine) dispatch(ctx context.Context, s *Step, key cache.Digest, inputs map[string]*cache.ActionRecord) (*cache.ActionRecord, []cache.Output, error) {
	got, err := e.opts.Dispatcher.Run(ctx, s, key, inputs)
	if err != nil {
		return nil, nil, err
	}
	if got == nil {
		return nil, nil, fmt.Errorf("step %s: the dispatcher returned no record", s.ID)
	}
	if got.Failed {
		return nil, got.Side, &DispatchedFailure{Msg: got.Error}
	}
	if got.Key != key {
		return nil, nil, fmt.Errorf("step %s: a worker returned the record of key %s for key %s", s.ID, got.Key.Short(), key.Short())
	}
	if d := outputDigest(got.Results); d != got.OutputDigest {
		return nil, nil, fmt.Errorf("step %s: a worker's record has output digest %s, its results hash to %s", s.ID, got.OutputDigest.Short(), d.Short())
	}
	if bad := e.checkOutputs(got); bad != "" {
		return nil, nil, fmt.Errorf("step %s: results of the worker's run are not in the cache: %s", s.ID, bad)
	}
	rec := &cache.ActionRecord{Key: key, Step: s.ID, Results: got.Results, Side: got.Side, OutputDigest: got.OutputDigest, Label: got.Label}
	return rec, got.Side, nil
}

// RunDispatched is the worker's side of a Dispatcher: it runs step s, sent
// by a client with the key the client computed, in a fresh work dir over
// this engine's cache (which must hold the inputs' blobs), and returns the
// record, which it also caches.
//
// It is idempotent by key: a step whose key this cache already holds a
// good record for is not run again, and two requests for one key at once
// run it once — so an attempt retried or duplicated after a worker died
// costs at most a rerun, never a different answer.
//
// A step that fails is a record with Failed set and a nil error. The error
// is for what is not the step's doing: a key this worker computes
// differently (another osbench version: *KeyMismatchError), a damaged
// input blob (*cache.CorruptError), ctx ending.
func (e *Engine) RunDispatched(ctx context.Context, s *Step, key cache.Digest, inputs map[string]*cache.ActionRecord) (*cache.ActionRecord, error) {
	k, ok := LookupKind(s.Kind)
	if !ok {
		return nil, &KeyMismatchError{Step: s.ID, Reason: fmt.Sprintf("this worker has no step kind %q", s.Kind)}
	}
	cs, err := components(s, k, inputs)
	if err != nil {
		return nil, &KeyMismatchError{Step: s.ID, Reason: err.Error()}
	}
	if mine := actionKey(cs); mine != key {
		return nil, &KeyMismatchError{Step: s.ID, Reason: fmt.Sprintf("the client computed key %s, this worker %s (%s@%s here; another osbench version?)", key.Short(), mine.Short(), k.Name(), k.Version())}
	}
	if rec := e.goodRecord(key); rec != nil {
		return rec, nil
	}
	if other := e.workerFlights.join(key, s.ID); other != nil {
		select {
		case <-other.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if rec := e.goodRecord(key); rec != nil {
			return rec, nil
		}
		if e.workerFlights.join(key, s.ID) == nil {
			defer e.workerFlights.leave(key)
		}
	} else {
		defer e.workerFlights.leave(key)
	}
	start := e.now()
	rc, err := e.runOnce(ctx, k, s, inputs)
	dur := e.now().Sub(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var corrupt *cache.CorruptError
	if errors.As(err, &corrupt) {
		return nil, err
	}
	if err != nil {
		var side []cache.Output
		if rc != nil {
			side = rc.side
		}
		rec := &cache.ActionRecord{Key: key, Step: s.ID, Failed: true, Error: err.Error(), Side: side, Duration: dur, Created: e.now().UTC()}
		e.cache.PutAction(rec)
		return rec, nil
	}
	rec := rc.record(key)
	rec.Duration, rec.Created = dur, e.now().UTC()
	if !hasAbsent(inputs) {
		if err := e.cache.PutAction(rec); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// goodRecord returns the cached record of key when it is a success whose
// blobs are all here.
func (e *Engine) goodRecord(key cache.Digest) *cache.ActionRecord {
	rec, err := e.cache.GetAction(key)
	if err != nil || rec.Failed || e.checkOutputs(rec) != "" {
		return nil
	}
	return rec
}

// KeyMismatchError says a worker would key a step differently from the
// client that sent it: running it could only give a result for another key.
type KeyMismatchError struct {
	Step   string
	Reason string
}

func (e *KeyMismatchError) Error() string {
	return "step " + e.Step + ": not run on this worker: " + e.Reason
}
