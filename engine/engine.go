package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/osbench/osbench/engine/cache"
)

// Observer is told when steps start and finish (progress bars, logs).
// Calls come from several goroutines.
type Observer interface {
	Started(s *Step)
	Finished(r *StepResult)
}

// Options configure an Engine.
type Options struct {
	Jobs      int            // parallel steps; default runtime.NumCPU()
	Pools     map[string]int // per-pool limits (Step.Pool); absent = Jobs
	KeepGoing bool           // a failure stops only its dependents (otherwise: stop scheduling)
	LogCap    int64          // bytes kept of each side log; default 8 MiB
	// VerifyCache is the fraction of hits (0..1) run again to check that
	// their results are what the cache holds (verifycache.go).
	VerifyCache float64
	OutDir      string // where Exports go; "" = no export
	Observer    Observer
	Log         zerolog.Logger
	// Dispatcher, when set, runs the steps it wants elsewhere (Temporal
	// workers) instead of in this process; keys, cache and graph stay here.
	Dispatcher Dispatcher
	// InfraRetries is how many times a step that failed as infrastructure
	// (InfraError, a full disk) is run again; 0 = 2, negative = never.
	InfraRetries int
	// InfraBackoff is the wait before the first retry, doubled for each
	// next; 0 = 5 s.
	InfraBackoff time.Duration
}

// Engine plans and runs graphs against one cache.
type Engine struct {
	cache *cache.Cache
	hist  history
	opts  Options
	now   func() time.Time
	// uncached holds the records of runs made from absent inputs (key →
	// record): they serve this process (Artifacts), never the cache.
	uncached sync.Map
	// workerFlights makes a worker run one key once when a client's
	// request for it arrives twice at once (RunDispatched).
	workerFlights flights
	// exportMu orders the updates of the out dir's partial marker.
	exportMu sync.Mutex
}

// New returns an engine over c.
func New(c *cache.Cache, opts Options) *Engine {
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	if opts.LogCap == 0 {
		opts.LogCap = 8 << 20
	}
	if opts.InfraRetries == 0 {
		opts.InfraRetries = defaultInfraRetries
	}
	if opts.InfraBackoff == 0 {
		opts.InfraBackoff = defaultInfraBackoff
	}
	return &Engine{cache: c, hist: history{dir: filepath.Join(c.Dir(), "history")}, opts: opts, now: time.Now}
}

// Cache returns the engine's cache.
func (e *Engine) Cache() *cache.Cache { return e.cache }

func newRunID(now time.Time) string {
	return fmt.Sprintf("%s-%d", now.UTC().Format("20060102T150405.000Z"), os.Getpid())
}

// decide computes s's key from its inputs' records and looks it up. It is
// the one code path shared by plan and build, so they cannot disagree.
func (e *Engine) decide(s *Step, inputs map[string]*cache.ActionRecord) (*StepResult, *cache.ActionRecord) {
	res := &StepResult{ID: s.ID, Kind: s.Kind, Group: s.Group}
	k, _ := LookupKind(s.Kind) // NewGraph checked it exists
	cs, err := components(s, k, inputs)
	if err != nil {
		res.Status, res.Error = StatusFailed, err.Error()
		return res, nil
	}
	res.Components = cs
	res.Key = actionKey(cs)
	rec, err := e.cache.GetAction(res.Key)
	if err == nil && !rec.Failed {
		if bad := e.checkOutputs(rec); bad == "" {
			res.Status, res.OutputDigest, res.Label, res.RunDuration = StatusHit, rec.OutputDigest, rec.Label, rec.Duration
			return res, rec
		} else {
			res.Status, res.Reason = StatusMiss, "cached result damaged ("+bad+"); recomputing"
			return res, nil
		}
	}
	res.Status = StatusMiss
	res.Reason, res.Changes = e.missReason(s.ID, res.Key, cs, rec)
	return res, nil
}

// checkOutputs makes sure a hit's results are still whole: small blobs and
// tree manifests are rehashed, large blobs and tree members must have their
// size (their content is verified when read). It returns what is wrong, or "".
func (e *Engine) checkOutputs(rec *cache.ActionRecord) string {
	const rehashBelow = 1 << 20
	for _, o := range rec.Results {
		switch {
		case o.Kind == cache.KindTree:
			t, err := e.cache.ReadTree(o.Digest)
			if err != nil {
				return o.Name + ": " + err.Error()
			}
			for _, te := range t.Entries {
				if !e.cache.Has(te.Digest, te.Size) {
					return o.Name + ": missing " + te.Path
				}
			}
		case o.Size <= rehashBelow:
			if err := e.cache.VerifyBlob(o.Digest, o.Size); err != nil {
				return o.Name + ": " + err.Error()
			}
		case !e.cache.Has(o.Digest, o.Size):
			return o.Name + ": blob missing"
		}
	}
	// A log is not a result, but a hit must be able to show the log of
	// the run behind it (osbench logs, --out): without it the step reruns,
	// and early cutoff keeps its dependents where they are.
	for _, o := range rec.Side {
		if !e.cache.Has(o.Digest, o.Size) {
			return o.Name + " (log): blob missing"
		}
	}
	return ""
}

// missReason says why key is not a hit, comparing with the step's last run.
func (e *Engine) missReason(id string, key cache.Digest, cs []Component, rec *cache.ActionRecord) (string, []Change) {
	if rec != nil && rec.Failed {
		return "previous run failed: " + firstLine(rec.Error), nil
	}
	entries := e.hist.load(id)
	if len(entries) == 0 {
		return "no previous run", nil
	}
	last := entries[len(entries)-1]
	if last.Key == key {
		if last.Status == StatusFailed {
			return "previous run failed: " + firstLine(last.Error), nil
		}
		return "result not in cache (trimmed, or built with another cache)", nil
	}
	changes := diffComponents(last.Components, cs)
	if len(changes) == 0 {
		return "key changed", nil
	}
	parts := make([]string, 0, len(changes))
	for _, c := range changes {
		parts = append(parts, c.String())
	}
	return strings.Join(parts, "; "), changes
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// execute runs one step whose inputs are all known: a hit returns at once,
// a miss runs the kind in a fresh work dir and records the result. A step
// whose key another step of the build is already running waits for that run
// and is served its result (fl, single flight).
func (e *Engine) execute(ctx context.Context, runID string, fl *flights, s *Step, inputs map[string]*cache.ActionRecord) (*StepResult, *cache.ActionRecord, error) {
	res, rec := e.decide(s, inputs)
	if res.Status != StatusMiss {
		e.noteServed(runID, s, res, rec)
		if res.Status == StatusHit && e.sampled(res.Key) {
			e.verifyHit(ctx, s, inputs, res, rec)
		}
		return res, rec, nil
	}
	if other := fl.join(res.Key, s.ID); other != nil {
		select {
		case <-other.done:
		case <-ctx.Done():
			res.Status, res.Error = StatusCanceled, ctx.Err().Error()
			return res, nil, ctx.Err()
		}
		if again, rec := e.decide(s, inputs); again.Status == StatusHit {
			again.Reason = "same key as " + other.leader + ", run once in this build"
			e.noteServed(runID, s, again, rec)
			return again, rec, nil
		}
		// The other run failed or was not kept: run it here after all, as
		// the one flight for the key.
		if o := fl.join(res.Key, s.ID); o == nil {
			defer fl.leave(res.Key)
		}
	} else {
		defer fl.leave(res.Key)
	}
	k, _ := LookupKind(s.Kind)
	start := e.now()
	var side []cache.Output
	var err error
	// A failure the machine caused is run again (infra.go): only the last
	// attempt's record and logs count.
	res.Retries, err = e.runWithRetries(ctx, s.ID, func() error {
		rec, side = nil, nil
		if e.opts.Dispatcher != nil && e.opts.Dispatcher.Wants(s) {
			var err error
			rec, side, err = e.dispatch(ctx, s, res.Key, inputs)
			return err
		}
		rc, err := e.runOnce(ctx, k, s, inputs)
		if rc != nil {
			side = rc.side
			if err == nil {
				rec = rc.record(res.Key)
			}
		}
		return err
	})
	res.Duration = e.now().Sub(start)
	switch {
	case err == nil:
		rec.Duration, rec.Created = res.Duration, e.now().UTC()
		if hasAbsent(inputs) {
			// Built from incomplete inputs: used by this build (exports,
			// consumers), never served to a later one.
			res.Status, res.OutputDigest, res.Label = StatusRan, rec.OutputDigest, rec.Label
			res.Reason = "ran with absent inputs; not cached"
			e.uncached.Store(res.Key, rec)
		} else if err = e.cache.PutAction(rec); err == nil {
			res.Status, res.OutputDigest, res.Label = StatusRan, rec.OutputDigest, rec.Label
		}
		if err == nil && len(res.Retries) > 0 {
			last := res.Retries[len(res.Retries)-1]
			res.Reason = fmt.Sprintf("ran on attempt %d, after an infrastructure failure (%s)", last.Attempt+1, last.Cause)
		}
	case ctx.Err() != nil:
		// Interrupted: nothing is recorded, the next run starts this step afresh.
		res.Status, res.Error = StatusCanceled, ctx.Err().Error()
		return res, nil, err
	}
	if err != nil {
		res.Status, res.Error, rec = StatusFailed, err.Error(), nil
		if res.Infra = InfraCause(err); res.Infra != "" {
			res.Reason = infraSummary(res.Infra, res.Retries)
		}
		var corrupt *cache.CorruptError
		if !errors.As(err, &corrupt) {
			// Recorded for explain and logs (with what the run logged
			// before it failed, which is why it failed); never served as
			// a hit.
			e.cache.PutAction(&cache.ActionRecord{Key: res.Key, Step: s.ID, Failed: true, Error: err.Error(), Side: side, Duration: res.Duration, Created: e.now().UTC()})
		}
	}
	entry := historyEntry{Step: s.ID, Run: runID, Time: e.now().UTC(), Key: res.Key, Status: res.Status, Error: res.Error,
		Components: append([]Component(nil), res.Components...), Side: side}
	if herr := e.hist.append(s.ID, entry); herr != nil {
		e.opts.Log.Warn().Err(herr).Str("step", s.ID).Msg("could not record history")
	}
	return res, rec, err
}

// noteServed remembers, for explain, a hit whose record another step made
// (an identical step of another repository, or of this build's single
// flight): the step never ran under this key itself, so without an entry
// its next miss would say "no previous run" instead of what changed. Hits
// of a step's own record add nothing, so a no-op build writes nothing.
func (e *Engine) noteServed(runID string, s *Step, res *StepResult, rec *cache.ActionRecord) {
	if res.Status != StatusHit || rec == nil || rec.Step == s.ID {
		return
	}
	if entries := e.hist.load(s.ID); len(entries) > 0 && entries[len(entries)-1].Key == res.Key {
		return
	}
	entry := historyEntry{Step: s.ID, Run: runID, Time: e.now().UTC(), Key: res.Key, Status: StatusHit, Side: rec.Side, Components: append([]Component(nil), res.Components...)}
	if err := e.hist.append(s.ID, entry); err != nil {
		e.opts.Log.Warn().Err(err).Str("step", s.ID).Msg("could not record history")
	}
}

// runOnce runs k for s in a fresh work dir, removed afterwards; the run
// context holds what the run recorded.
func (e *Engine) runOnce(ctx context.Context, k Kind, s *Step, inputs map[string]*cache.ActionRecord) (*RunContext, error) {
	rc, err := e.newRunContext(s, inputs)
	if err != nil {
		return nil, err
	}
	err = runKind(ctx, k, rc)
	os.RemoveAll(rc.WorkDir)
	makeRemovable(rc.WorkDir)
	return rc, err
}

// runKind calls k.Run, turning a panic in a step into an error so one bad
// step cannot take the whole build (and what it already computed) down.
func runKind(ctx context.Context, k Kind, rc *RunContext) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("step %s panicked: %v", rc.Step.ID, p)
		}
	}()
	return k.Run(ctx, rc)
}

func (e *Engine) newRunContext(s *Step, inputs map[string]*cache.ActionRecord) (*RunContext, error) {
	base, err := e.cache.Subdir("work")
	if err != nil {
		return nil, err
	}
	// Searchable, not listable: a step's command, under a uid of its
	// own, reaches its work dir (0700, its own) but cannot list the
	// others' names. A no-op when osbench runs as another user than the
	// one that created the cache.
	_ = os.Chmod(base, 0o711)
	dir, err := os.MkdirTemp(base, safeName(s.ID)+"-*")
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*cache.ActionRecord, len(s.Inputs))
	for _, in := range s.Inputs {
		rec := inputs[in.Name]
		if in.Result != "" && rec != nil {
			// The step sees only the result its key was computed from.
			only := *rec
			only.Results = nil
			if o, ok := resultNamed(rec, in.Result); ok {
				only.Results = []cache.Output{o}
			}
			rec = &only
		}
		byName[in.Name] = rec
	}
	return &RunContext{
		Step:    s,
		Log:     e.opts.Log.With().Str("step", s.ID).Logger(),
		WorkDir: dir,
		cache:   e.cache,
		inputs:  byName,
		logCap:  e.opts.LogCap,
	}, nil
}

// makeRemovable retries removal after restoring write permission on
// directories: test suites (and Go's module cache) leave read-only trees.
func makeRemovable(dir string) {
	if _, err := os.Lstat(dir); err != nil {
		return
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.RemoveAll(dir)
}

func safeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
}

func hasResult(rec *cache.ActionRecord, name string) bool {
	for _, o := range rec.Results {
		if o.Name == name {
			return true
		}
	}
	return false
}

// Artifacts opens the results of a step that a build or plan reported as
// run or hit, for a caller that reads them rather than exporting them.
func (e *Engine) Artifacts(res *StepResult) (*Artifacts, error) {
	if res == nil || !res.Key.Valid() {
		return nil, fmt.Errorf("no results: the step has no key")
	}
	if rec, ok := e.uncached.Load(res.Key); ok {
		return &Artifacts{cache: e.cache, rec: rec.(*cache.ActionRecord)}, nil
	}
	rec, err := e.cache.GetAction(res.Key)
	if err != nil {
		return nil, fmt.Errorf("results of %s: %w", res.ID, err)
	}
	if rec == nil || rec.Failed {
		return nil, fmt.Errorf("step %s has no results", res.ID)
	}
	return &Artifacts{cache: e.cache, rec: rec}, nil
}
