package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/osbench/osbench/engine/cache"
)

// Plan computes every key it can without running anything: a step whose
// inputs are all hits gets a key and is a hit or a miss (with the reason);
// a step downstream of a miss is blocked, since its inputs' digests are not
// known until they run.
func (e *Engine) Plan(ctx context.Context, g *Graph) (*Report, error) {
	start := e.now()
	rep := &Report{RunID: newRunID(start)}
	records := make(map[string]*cache.ActionRecord, g.Len())
	results := make(map[string]*StepResult, g.Len())
	err := g.kahn(func(id string) {
		s := g.steps[id]
		inputs, waiting := gatherInputs(s, records, nil)
		if waiting != "" {
			results[id] = &StepResult{ID: id, Kind: s.Kind, Group: s.Group, Status: StatusBlocked, Reason: "waits on " + waiting}
			return
		}
		res, rec := e.decide(s, inputs)
		results[id], records[id] = res, rec
	}, ctx)
	for _, id := range g.order {
		if r := results[id]; r != nil {
			rep.Steps = append(rep.Steps, r)
		}
	}
	rep.Duration = e.now().Sub(start)
	return rep, err
}

// gatherInputs maps s's input names to their producers' records; it returns
// the ID of the first producer without one. An optional input whose
// producer ended without a result (in results: failed, skipped, canceled)
// is given an absent record carrying the producer's reason.
func gatherInputs(s *Step, records map[string]*cache.ActionRecord, results map[string]*StepResult) (map[string]*cache.ActionRecord, string) {
	inputs := make(map[string]*cache.ActionRecord, len(s.Inputs))
	for _, in := range s.Inputs {
		rec := records[in.Step]
		if rec == nil && in.Optional && results[in.Step] != nil {
			inputs[in.Name] = absentRecord(results[in.Step])
			continue
		}
		if rec == nil {
			return nil, in.Step
		}
		inputs[in.Name] = rec
	}
	return inputs, ""
}

// kahn visits steps in dependency order, sequentially.
func (g *Graph) kahn(visit func(id string), ctx context.Context) error {
	indeg := make(map[string]int, len(g.preds))
	for id, n := range g.preds {
		indeg[id] = n
	}
	queue := make([]string, 0, len(g.order))
	for _, id := range g.order {
		if indeg[id] == 0 {
			queue = append(queue, id)
		}
	}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := queue[0]
		queue = queue[1:]
		visit(id)
		for _, next := range g.succ[id] {
			if indeg[next]--; indeg[next] == 0 {
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// buildState is the coordinator's view of a running build.
type buildState struct {
	mu      sync.Mutex
	records map[string]*cache.ActionRecord
	results map[string]*StepResult
	flights flights
}

// Build runs the graph: ready steps are dispatched, in dependency order, to
// at most Jobs goroutines (and at most Pools[p] per pool). A step whose input
// failed is skipped with the reason; other groups go on. Cancelling ctx stops
// running steps (their process groups are killed by the executors), records
// nothing for them, and marks the rest canceled.
func (e *Engine) Build(ctx context.Context, g *Graph) (*Report, error) {
	unlock, err := e.cache.SharedLock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	start := e.now()
	runID := newRunID(start)
	st := &buildState{records: make(map[string]*cache.ActionRecord, g.Len()), results: make(map[string]*StepResult, g.Len())}

	stopCtx, stop := context.WithCancel(ctx)
	defer stop()

	indeg := make(map[string]int, len(g.preds))
	for id, n := range g.preds {
		indeg[id] = n
	}
	poisoned := map[string]string{} // step → why it cannot run
	var ready []string
	for _, id := range g.order {
		if indeg[id] == 0 {
			ready = append(ready, id)
		}
	}
	type done struct {
		id  string
		res *StepResult
	}
	finished := make(chan done)
	running := 0
	poolUse := map[string]int{}
	stopped := false

	// settle marks id as finished and releases its successors.
	settle := func(id string, res *StepResult) {
		st.mu.Lock()
		st.results[id] = res
		st.mu.Unlock()
		if e.opts.Observer != nil {
			e.opts.Observer.Finished(res)
		}
		ok := res.Status == StatusHit || res.Status == StatusRan
		for _, next := range g.succ[id] {
			if !ok && !onlyOptional(g.steps[next], id) {
				if _, already := poisoned[next]; !already {
					poisoned[next] = skipReason(id, res)
				}
			}
			if indeg[next]--; indeg[next] == 0 {
				ready = append(ready, next)
			}
		}
	}

	for len(ready) > 0 || running > 0 {
		// Dispatch what can run now; settle may append newly ready steps.
		var waiting []string
		for len(ready) > 0 {
			id := ready[0]
			ready = ready[1:]
			s := g.steps[id]
			if why, bad := poisoned[id]; bad || stopped || stopCtx.Err() != nil {
				res := &StepResult{ID: id, Kind: s.Kind, Group: s.Group, Status: StatusSkipped, Reason: why}
				if ctx.Err() != nil {
					res.Status, res.Reason = StatusCanceled, "interrupted"
				} else if !bad {
					res.Reason = "build stopped after a failure"
				}
				settle(id, res)
				continue
			}
			if running >= e.opts.Jobs || (s.Pool != "" && e.poolFull(s.Pool, poolUse[s.Pool])) {
				waiting = append(waiting, id)
				continue
			}
			running++
			poolUse[s.Pool]++
			st.mu.Lock()
			inputs, _ := gatherInputs(s, st.records, st.results)
			st.mu.Unlock()
			if e.opts.Observer != nil {
				e.opts.Observer.Started(s)
			}
			go func(s *Step, inputs map[string]*cache.ActionRecord) {
				finished <- done{s.ID, e.executeWithRepair(stopCtx, runID, g, st, s, inputs)}
			}(s, inputs)
		}
		ready = waiting
		if running == 0 {
			if len(ready) > 0 {
				return nil, fmt.Errorf("scheduler: %d steps cannot be dispatched (pool limits)", len(ready))
			}
			break
		}
		d := <-finished
		running--
		poolUse[g.steps[d.id].Pool]--
		if d.res.Status == StatusFailed && !e.opts.KeepGoing {
			stopped = true
		}
		settle(d.id, d.res)
	}

	rep := &Report{RunID: runID}
	for _, id := range g.order {
		if r := st.results[id]; r != nil {
			rep.Steps = append(rep.Steps, r)
		}
	}
	rep.Duration = e.now().Sub(start)
	if err := e.writeTrace(rep); err != nil {
		e.opts.Log.Warn().Err(err).Msg("could not write trace")
	}
	return rep, ctx.Err()
}

// inputsHolding names the inputs whose results hold blob d (directly or
// as a tree member): only their producers need recomputing when d turns
// out corrupt — not a neighbour's twenty-minute Wine run. When no input can
// be shown to hold it, every input is suspect.
func (e *Engine) inputsHolding(s *Step, inputs map[string]*cache.ActionRecord, d cache.Digest) map[string]bool {
	holders := map[string]bool{}
	for _, in := range s.Inputs {
		rec := inputs[in.Name]
		if isAbsent(rec) {
			continue
		}
		for _, o := range rec.Results {
			if o.Digest == d {
				holders[in.Name] = true
				break
			}
			if o.Kind != cache.KindTree {
				continue
			}
			t, err := e.cache.ReadTree(o.Digest)
			if err != nil {
				holders[in.Name] = true // its manifest is unreadable: suspect
				break
			}
			for _, te := range t.Entries {
				if te.Digest == d {
					holders[in.Name] = true
					break
				}
			}
		}
	}
	if len(holders) == 0 {
		for _, in := range s.Inputs {
			holders[in.Name] = true
		}
	}
	return holders
}

// skipReason says why a consumer of id cannot run: the root cause, carried
// down the chain, so a step three levels below a failure still names it.
func skipReason(id string, res *StepResult) string {
	if res.Status == StatusSkipped && res.Reason != "" {
		return res.Reason
	}
	why := fmt.Sprintf("input %s %s", id, res.Status)
	detail := res.Error
	if detail == "" {
		detail = res.Reason
	}
	if detail = firstLine(detail); detail != "" {
		why += ": " + detail
	}
	return why
}

func (e *Engine) poolFull(pool string, used int) bool {
	limit, ok := e.opts.Pools[pool]
	return ok && limit > 0 && used >= limit
}

// executeWithRepair executes s; when an input's cached result turns out
// corrupt while s reads it, the producers are recomputed once and s retried.
func (e *Engine) executeWithRepair(ctx context.Context, runID string, g *Graph, st *buildState, s *Step, inputs map[string]*cache.ActionRecord) *StepResult {
	res, rec, err := e.execute(ctx, runID, &st.flights, s, inputs)
	var corrupt *cache.CorruptError
	if errors.As(err, &corrupt) {
		e.opts.Log.Warn().Str("step", s.ID).Str("blob", corrupt.Digest.Short()).Msg("input blob corrupt; recomputing its producers")
		holders := e.inputsHolding(s, inputs, corrupt.Digest)
		for _, in := range s.Inputs {
			if isAbsent(inputs[in.Name]) || !holders[in.Name] {
				continue
			}
			producer := g.steps[in.Step]
			e.cache.DeleteAction(inputs[in.Name].Key)
			st.mu.Lock()
			pin, _ := gatherInputs(producer, st.records, st.results)
			st.mu.Unlock()
			pres, prec, _ := e.execute(ctx, runID, &st.flights, producer, pin)
			if prec == nil {
				res.Error = fmt.Sprintf("recomputing %s after corruption: %s", producer.ID, pres.Error)
				return res
			}
			st.mu.Lock()
			st.records[producer.ID] = prec
			st.mu.Unlock()
			inputs[in.Name] = prec
		}
		res, rec, _ = e.execute(ctx, runID, &st.flights, s, inputs)
	}
	if rec != nil {
		if err := e.export(s, rec, hasAbsent(inputs)); err != nil {
			res.Status, res.Error = StatusFailed, err.Error()
			rec = nil
		}
	} else if res.Status == StatusFailed && res.Key.Valid() {
		// The failed run's record carries its logs; export them so the
		// out dir shows why it failed.
		if failed, err := e.cache.GetAction(res.Key); err == nil && failed.Failed {
			if err := e.export(s, failed, false); err != nil {
				e.opts.Log.Warn().Err(err).Str("step", s.ID).Msg("could not export the failed run's log")
			}
		}
	}
	st.mu.Lock()
	if rec != nil {
		st.records[s.ID] = rec
	}
	st.mu.Unlock()
	return res
}
