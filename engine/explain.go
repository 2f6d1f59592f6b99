package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// Explanation says why a step ran or will run.
type Explanation struct {
	Step    string       `json:"step"`
	Status  Status       `json:"status"` // hit, miss or blocked, as plan sees it now
	Key     cache.Digest `json:"key,omitempty"`
	Summary string       `json:"summary"`
	// Changes are the key components that differ between the two runs
	// compared (the last run and now, or the last run and the one before).
	Changes []Change `json:"changes,omitempty"`
	// Upstream explains the miss that blocks this step, when blocked.
	Upstream *Explanation `json:"upstream,omitempty"`
}

// Lines renders the explanation for a terminal.
func (x *Explanation) Lines() []string {
	lines := []string{x.Summary}
	for _, c := range x.Changes {
		lines = append(lines, "  "+c.String())
	}
	if x.Upstream != nil {
		for _, l := range x.Upstream.Lines() {
			lines = append(lines, "  "+l)
		}
	}
	return lines
}

// Explain computes the plan and tells, for step id, which key components
// changed: against its last run if it would run now, or between its last two
// runs if it is up to date (why it last ran).
func (e *Engine) Explain(ctx context.Context, g *Graph, id string) (*Explanation, error) {
	if _, ok := g.Step(id); !ok {
		return nil, fmt.Errorf("no step %q (see `osbench graph` or `osbench plan` for step IDs)", id)
	}
	rep, err := e.Plan(ctx, g)
	if err != nil {
		return nil, err
	}
	return e.explainResult(rep, id, 0), nil
}

func (e *Engine) explainResult(rep *Report, id string, depth int) *Explanation {
	r := rep.Step(id)
	x := &Explanation{Step: id, Status: r.Status, Key: r.Key}
	switch r.Status {
	case StatusBlocked:
		up := strings.TrimPrefix(r.Reason, "waits on ")
		x.Summary = fmt.Sprintf("%s will run: it waits on %s, whose result is not known yet", id, up)
		if depth < 32 && rep.Step(up) != nil {
			x.Upstream = e.explainResult(rep, up, depth+1)
		}
	case StatusMiss:
		x.Summary = fmt.Sprintf("%s will run: %s", id, r.Reason)
		x.Changes = r.Changes
	case StatusHit:
		x.Summary, x.Changes = e.whyLastRan(id, r.Key)
	default:
		x.Summary = fmt.Sprintf("%s: %s %s", id, r.Status, r.Reason)
	}
	return x
}

// whyLastRan finds the run that produced key and compares it with the run
// before it.
func (e *Engine) whyLastRan(id string, key cache.Digest) (string, []Change) {
	entries := e.hist.load(id)
	at := -1
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Key == key && entries[i].Status == StatusRan {
			at = i
			break
		}
	}
	if at < 0 {
		return fmt.Sprintf("%s is up to date (cached; this cache has no record of the run that made it)", id), nil
	}
	ran := entries[at]
	if at == 0 {
		return fmt.Sprintf("%s is up to date; it last ran in run %s (its first run)", id, ran.Run), nil
	}
	prev := entries[at-1]
	changes := diffComponents(prev.Components, ran.Components)
	if prev.Key == ran.Key {
		return fmt.Sprintf("%s is up to date; it last ran in run %s because run %s %s", id, ran.Run, prev.Run, prev.Status), nil
	}
	return fmt.Sprintf("%s is up to date; it last ran in run %s because:", id, ran.Run), changes
}
