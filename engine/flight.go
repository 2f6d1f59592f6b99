package engine

import (
	"sync"

	"github.com/osbench/osbench/engine/cache"
)

// flights makes steps of one build that share an action key run once: the
// first to miss runs, the others wait for it and are then served its record
// from the cache, so every consumer of that key — a verdict and the log
// shown beside it, two directions of one repository with the same patched
// tree — reads the one result. Without it both would run, the cache would
// keep the last, and each consumer would see its own run.
type flights struct {
	mu      sync.Mutex
	running map[cache.Digest]*flight
}

type flight struct {
	leader string // the step that runs
	done   chan struct{}
}

// join returns nil when the caller is the first for key and must run it
// (then it calls leave when done), or the flight to wait for.
func (f *flights) join(key cache.Digest, stepID string) *flight {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl, ok := f.running[key]; ok {
		return fl
	}
	if f.running == nil {
		f.running = map[cache.Digest]*flight{}
	}
	f.running[key] = &flight{leader: stepID, done: make(chan struct{})}
	return nil
}

func (f *flights) leave(key cache.Digest) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl, ok := f.running[key]; ok {
		close(fl.done)
		delete(f.running, key)
	}
}
