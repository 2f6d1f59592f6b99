package temporal

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/osbench/osbench/engine"
)

// A step sent to a queue no worker polls would wait in Temporal forever.
// The client watches instead: before it sends a step, and while the step
// waits, it asks the server which workers poll their platform's directory
// queue (each poller's identity lists the queues its worker serves). When
// none serves the step's queue for NoWorkerTimeout, the step is abandoned
// (its activity cancelled) and fails with a NoWorkerError that says what
// the step needs and what the live workers have.

// defaultWorkerSilence is how recently a directory poller must have polled
// to count as a live worker: an idle poller renews its long poll about
// every minute (the server's long-poll expiry).
const defaultWorkerSilence = 2 * time.Minute

// directoryTTL is how long one answer about a platform's workers is
// reused: one call per platform this often, however many steps wait.
const directoryTTL = 2 * time.Second

// NoWorkerError is the failure of a step whose queue no live worker serves.
type NoWorkerError struct {
	Step     string
	Queue    string
	Platform string
	Env      map[string]string // the facts the step was keyed for
	// Timeout is the no-worker timeout the platform's queues were given;
	// the message names it rather than this step's own wait, which is
	// shorter for a step that finds the queue already given up, and
	// longer by a poll on a loaded machine.
	Timeout time.Duration
	// Detail says what the platform's live workers serve instead.
	Detail string
}

func (e *NoWorkerError) Error() string {
	return fmt.Sprintf("step %s: no worker serves queue %s (platform %s; keyed for %s) within the no-worker timeout of %s: %s",
		e.Step, e.Queue, e.Platform, strings.ReplaceAll(strings.TrimSpace(Fingerprint(e.Env)), "\n", "; "), e.Timeout, e.Detail)
}

// liveWorker is one worker seen on a directory queue.
type liveWorker struct {
	identity string
	queues   map[string]bool
}

// description is what the live workers of a platform said of themselves.
type description struct {
	ids  []string    // the live workers
	info *WorkerInfo // one of them, described; nil if none answered
	err  error       // why none answered
	at   time.Time
}

// describeFunc asks the live workers of a platform to describe themselves.
type describeFunc func(platform string) *description

type directoryAnswer struct {
	at      time.Time
	workers []liveWorker
	err     error
}

// queueWatch is the client's knowledge of the queues' workers.
type queueWatch struct {
	c       client.Client
	timeout time.Duration
	silence time.Duration // a directory poller silent this long is a worker gone

	mu        sync.Mutex
	answers   map[string]directoryAnswer // by directory queue
	unserved  map[string]bool            // queues already given up on
	warned    map[string]bool
	described map[string]*description // by platform, asked now and then
}

func newQueueWatch(c client.Client, timeout, silence time.Duration) *queueWatch {
	if silence <= 0 {
		silence = defaultWorkerSilence
	}
	return &queueWatch{c: c, timeout: timeout, silence: silence, answers: map[string]directoryAnswer{}, unserved: map[string]bool{}, warned: map[string]bool{}, described: map[string]*description{}}
}

// workers lists the live workers of platform.
func (w *queueWatch) workers(ctx context.Context, platform string) ([]liveWorker, error) {
	return w.workersOn(ctx, directoryQueue(platform))
}

// workersOn lists the live workers polling a directory queue.
func (w *queueWatch) workersOn(ctx context.Context, directory string) ([]liveWorker, error) {
	w.mu.Lock()
	a, ok := w.answers[directory]
	w.mu.Unlock()
	if ok && time.Since(a.at) < directoryTTL {
		return a.workers, a.err
	}
	resp, err := w.c.DescribeTaskQueue(ctx, directory, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	a = directoryAnswer{at: time.Now(), err: err}
	for _, p := range resp.GetPollers() {
		if last := p.GetLastAccessTime(); last != nil && time.Since(last.AsTime()) > w.silence {
			continue
		}
		id, qs, ok := parseDirectoryIdentity(p.GetIdentity())
		if !ok {
			continue
		}
		lw := liveWorker{identity: id, queues: map[string]bool{}}
		for _, q := range qs {
			lw.queues[q] = true
		}
		a.workers = append(a.workers, lw)
	}
	w.mu.Lock()
	w.answers[directory] = a
	w.mu.Unlock()
	return a.workers, a.err
}

// forget drops the cached answer about a directory queue.
func (w *queueWatch) forget(directory string) {
	w.mu.Lock()
	delete(w.answers, directory)
	w.mu.Unlock()
}

// served reports whether a live worker serves queue. A server that cannot
// say counts as served: the step then goes its way and fails, if it must,
// with Temporal's own error.
func (w *queueWatch) served(ctx context.Context, platform, queue string) bool {
	ws, err := w.workers(ctx, platform)
	if err != nil {
		return true
	}
	for _, lw := range ws {
		if lw.queues[queue] {
			return true
		}
	}
	return false
}

// await returns once a live worker serves s's queue, or a NoWorkerError
// after the timeout (at once for a queue already given up on that still
// has none), or ctx's error. describe fills the error's detail.
func (w *queueWatch) await(ctx context.Context, s *engine.Step, queue string, describe describeFunc, warn func(string)) error {
	platform := s.Env["platform"]
	start := time.Now()
	for {
		if w.served(ctx, platform, queue) {
			w.mu.Lock()
			delete(w.unserved, queue)
			w.mu.Unlock()
			return nil
		}
		w.mu.Lock()
		gaveUp, warned := w.unserved[queue], w.warned[queue]
		w.warned[queue] = true
		w.mu.Unlock()
		waited := time.Since(start)
		if gaveUp || waited >= w.timeout {
			w.mu.Lock()
			w.unserved[queue] = true
			w.mu.Unlock()
			return w.noWorker(s, queue, describe)
		}
		if !warned {
			warn(fmt.Sprintf("no worker serves queue %s (platform %s; keyed for %s) yet; waiting up to %s for one",
				queue, platform, strings.ReplaceAll(strings.TrimSpace(Fingerprint(s.Env)), "\n", "; "), w.timeout))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// watch calls abandon once s's queue has had no live worker for the
// timeout, while s waits in Temporal; stop ends the watch (after an
// abandon under way has returned).
func (w *queueWatch) watch(ctx context.Context, s *engine.Step, queue string, abandon func()) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	every := w.timeout / 4
	if every > 15*time.Second {
		every = 15 * time.Second
	}
	if every < time.Second {
		every = time.Second
	}
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		var since time.Time // when the queue was first seen unserved
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if w.served(ctx, s.Env["platform"], queue) {
				since = time.Time{}
				continue
			}
			if since.IsZero() {
				since = time.Now()
			}
			if time.Since(since) >= w.timeout {
				abandon()
				return
			}
		}
	}()
	return func() { close(done); <-exited }
}

func (w *queueWatch) noWorker(s *engine.Step, queue string, describe describeFunc) *NoWorkerError {
	platform := s.Env["platform"]
	w.mu.Lock()
	desc, ok := w.described[platform]
	w.mu.Unlock()
	if !ok || time.Since(desc.at) > 30*time.Second {
		desc = describe(platform)
		desc.at = time.Now()
		w.mu.Lock()
		w.described[platform] = desc
		w.mu.Unlock()
	}
	detail := explain(platform, s.Env, desc.ids, desc.info, desc.err)
	return &NoWorkerError{Step: s.ID, Queue: queue, Platform: platform, Env: s.Env, Timeout: w.timeout, Detail: detail}
}

// explain says, for a step keyed for env, what the live workers of its
// platform have instead: which of its facts no worker matches, and the
// values one worker has for them.
func explain(platform string, env map[string]string, ids []string, info *WorkerInfo, infoErr error) string {
	if len(ids) == 0 {
		return fmt.Sprintf("no osbench worker for platform %s is connected (start one: osbench worker --platform %s --temporal HOST:PORT)", platform, platform)
	}
	sort.Strings(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "the %d live %s worker(s) (%s) serve other fingerprints", len(ids), platform, strings.Join(ids, ", "))
	if info == nil {
		if infoErr != nil {
			fmt.Fprintf(&b, " (none described itself: %v)", infoErr)
		}
		return b.String()
	}
	var names []string
	for name := range env {
		if name != "platform" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	// The worker's queues with the same facts named as the step's.
	values := map[string]map[string]bool{}
	for _, sq := range info.Queues {
		if len(sq.Env) != len(names) {
			continue
		}
		for _, name := range names {
			if v, ok := sq.Env[name]; ok {
				if values[name] == nil {
					values[name] = map[string]bool{}
				}
				values[name][v] = true
			}
		}
	}
	fmt.Fprintf(&b, "; worker %s (executor %s):", info.Identity, info.Executor)
	differs := false
	for _, name := range names {
		have := values[name]
		if have[env[name]] {
			continue
		}
		differs = true
		var vs []string
		for v := range have {
			vs = append(vs, fmt.Sprintf("%q", v))
		}
		sort.Strings(vs)
		if len(vs) == 0 {
			vs = []string{"nothing"}
		}
		fmt.Fprintf(&b, " %s: the step needs %q, the worker has %s;", name, env[name], strings.Join(vs, " or "))
	}
	if !differs {
		b.WriteString(" each fact matches one of its queues, but not all together (another run user?)")
	}
	return strings.TrimSuffix(b.String(), ";")
}

// WaitForWorkers returns once n workers of platform are live (polling its
// directory queue), or ctx's error: for scripts and benchmarks that start
// workers and then a build.
func WaitForWorkers(ctx context.Context, hostPort, namespace, platform string, n int) error {
	if namespace == "" {
		namespace = "default"
	}
	c, err := client.DialContext(ctx, client.Options{HostPort: hostPort, Namespace: namespace, Logger: logAdapter{zerolog.Nop()}})
	if err != nil {
		return fmt.Errorf("temporal %s: %w", hostPort, err)
	}
	defer c.Close()
	w := newQueueWatch(c, 0, 0)
	for {
		w.mu.Lock()
		delete(w.answers, directoryQueue(platform))
		w.mu.Unlock()
		ws, err := w.workers(ctx, platform)
		if err == nil && len(ws) >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %d %s worker(s): %w (last answer: %d, %v)", n, platform, ctx.Err(), len(ws), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
