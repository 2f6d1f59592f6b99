package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// concurrentFigures are the counts of n builds sharing one cache while gc
// trims it.
type concurrentFigures struct {
	Builds       int
	BuildsFailed int
	Identical    int // builds whose exports equal a clean build's (beyond clean-vs-clean noise)
	GCRuns       int
	GCFailed     int
	GCDuring     int // gc runs that ended while a build was running
	Corrupt      int // blobs `cache verify` found corrupt
	Dropped      int // records it dropped (naming a missing blob)
	Problems     []string
	Wall         time.Duration
}

// concurrent starts n builds of the corpus on one empty cache, each after
// a random delay of up to half a clean build, each exporting to its own
// directory, while a loop runs `cache gc --max-size 64K --grace 0s` (which
// removes all it may) until the last build ends; then it verifies the cache.
func (h *harness) concurrent(corpus string, n int, rng *rand.Rand) (*concurrentFigures, error) {
	ref, err := h.cleanReference(h.buildScenario("build", corpus, nil))
	if err != nil {
		return nil, err
	}
	noise := pathSet(ref.noise)
	fig := &concurrentFigures{Builds: n}
	cache := filepath.Join(h.scratch, fmt.Sprintf("concurrent%d-cache", n))
	os.RemoveAll(cache)
	delays := make([]time.Duration, n)
	for i := range delays {
		delays[i] = time.Duration(rng.Int63n(int64(ref.wall)/2 + 1))
	}
	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	running := n
	results := make([]result, n)
	outs := make([]string, n)
	for i := 0; i < n; i++ {
		outs[i] = filepath.Join(h.scratch, fmt.Sprintf("concurrent%d-out%d", n, i))
		os.RemoveAll(outs[i])
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(delays[i])
			results[i] = h.rn.run(h.buildArgs(cache, outs[i], corpus)...)
			mu.Lock()
			running--
			mu.Unlock()
		}(i)
	}
	gcDone := make(chan struct{})
	go func() {
		defer close(gcDone)
		for {
			r := h.rn.run("--cache-dir", cache, "cache", "gc", "--max-size", "64K", "--grace", "0s")
			mu.Lock()
			left := running
			mu.Unlock()
			fig.GCRuns++
			if !r.ok() {
				fig.GCFailed++
				fig.Problems = append(fig.Problems, "gc: "+r.brief())
			} else if left > 0 {
				fig.GCDuring++
			}
			if left == 0 {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	wg.Wait()
	<-gcDone
	fig.Wall = time.Since(start)
	for i, r := range results {
		_, _, _, failed, _ := summary(r.Stdout)
		if !r.ok() || failed > 0 {
			fig.BuildsFailed++
			fig.Problems = append(fig.Problems, fmt.Sprintf("build %d: %s", i+1, r.brief()))
			continue
		}
		snap, err := snapshot(outs[i])
		if err != nil {
			fig.Problems = append(fig.Problems, fmt.Sprintf("build %d exports: %v", i+1, err))
			continue
		}
		if extra := beyond(diffPaths(ref.snap, snap), noise); len(extra) == 0 {
			fig.Identical++
		} else {
			fig.Problems = append(fig.Problems, fmt.Sprintf("build %d exports differ: %s", i+1, headList(extra, 4)))
		}
		os.RemoveAll(outs[i])
	}
	clean, corrupt, dropped, detail := h.rn.verifyClean(cache)
	fig.Corrupt, fig.Dropped = corrupt, dropped
	if !clean {
		fig.Problems = append(fig.Problems, "cache verify: "+detail)
	}
	os.RemoveAll(cache)
	return fig, nil
}
