package main

import (
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"

	"github.com/osbench/osbench/engine"
)

// progress reports a build as it goes: a live bar on a terminal (done/total,
// what is running, cache hits), and one log line per step that ran or failed
// (hits stay quiet; the summary counts them).
type progress struct {
	mu      sync.Mutex
	log     zerolog.Logger
	bar     *progressbar.ProgressBar
	running map[string]time.Time
	hits    int
}

func newProgress(w io.Writer, log zerolog.Logger, total int) *progress {
	p := &progress{log: log, running: map[string]time.Time{}}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("starting"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(24),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
	}
	return p
}

func (p *progress) Started(s *engine.Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[s.ID] = time.Now()
	p.describe(s.ID)
}

func (p *progress) Finished(r *engine.StepResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r.ID)
	if r.Status == engine.StatusHit {
		p.hits++
	}
	if p.bar != nil {
		p.bar.Add(1)
		p.describe("")
	}
	var ev *zerolog.Event
	switch r.Status {
	case engine.StatusRan:
		ev = p.log.Info()
	case engine.StatusFailed:
		ev = p.log.Error().Str("error", r.Error)
	case engine.StatusSkipped, engine.StatusCanceled:
		ev = p.log.Warn()
	default:
		ev = p.log.Debug()
	}
	ev = ev.Str("step", r.ID).Str("status", string(r.Status))
	if r.Duration > 0 {
		ev = ev.Str("took", r.Duration.Round(time.Millisecond).String())
	}
	if r.Label != "" {
		ev = ev.Str("result", r.Label)
	}
	if r.Reason != "" {
		ev = ev.Str("reason", r.Reason)
	}
	if r.Infra != "" {
		ev = ev.Str("infra", r.Infra)
	}
	ev.Msg(string(r.Status) + " " + r.ID)
}

// Retrying implements engine.RetryObserver: a step that failed as
// infrastructure is said to be run again, with the cause, as it happens.
func (p *progress) Retrying(id string, r engine.Retry, backoff time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log.Warn().Str("step", id).Str("cause", r.Cause).Int("attempt", r.Attempt).Str("error", r.Error).
		Str("retry_in", backoff.String()).Msg("infrastructure failure, retrying " + id)
}

// describe shows the oldest running step and the hit count.
func (p *progress) describe(fallback string) {
	if p.bar == nil {
		return
	}
	oldest, at := fallback, time.Now()
	for id, t := range p.running {
		if t.Before(at) {
			oldest, at = id, t
		}
	}
	desc := oldest
	if n := len(p.running); n > 1 {
		desc += " (+" + strconv.Itoa(n-1) + " running)"
	}
	p.bar.Describe(desc + " · " + strconv.Itoa(p.hits) + " cached")
}

func (p *progress) Done() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
