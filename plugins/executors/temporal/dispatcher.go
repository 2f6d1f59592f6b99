package temporal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
)

// DispatcherOptions configure the client side.
type DispatcherOptions struct {
	HostPort  string
	Namespace string // default "default"
	// Cache is the client engine's cache: inputs are pushed from it to its
	// remote, and results pulled into it (without a remote, the workers'
	// cache directory must be this one).
	Cache *cache.Cache
	// MaxInFlight bounds the activities of the build at once (default 64).
	MaxInFlight int
	// Heartbeat is the activities' heartbeat timeout (default 30s).
	Heartbeat time.Duration
	// Attempts per step (default 3).
	Attempts int32
	// StepTimeout bounds an attempt of a step that declares no timeout
	// (default 2h).
	StepTimeout time.Duration
	// UpdatesPerWorkflow: a build sends each step as an update to its
	// workflow; after this many (default 1000) it goes on in a new
	// workflow, keeping each one's history and update count within
	// Temporal's limits.
	UpdatesPerWorkflow int
	// NoWorkerTimeout is how long a step waits for a live worker to
	// serve its queue before it fails saying none does (default 2m).
	NoWorkerTimeout time.Duration
	// WorkerSilence: a worker whose directory poller has not polled for
	// this long is taken for gone (default 2m; it must exceed the server's
	// long-poll expiry, a minute by default).
	WorkerSilence time.Duration
	Log           zerolog.Logger
}

// Dispatcher is an engine.Dispatcher over Temporal. It hosts its builds'
// workflows itself (a worker on a queue of its own), so the workflow code
// is always the client's.
type Dispatcher struct {
	o      DispatcherOptions
	c      client.Client
	w      worker.Worker
	queue  string
	prefix string

	watch *queueWatch

	mu        sync.Mutex
	runs      []client.WorkflowRun // every workflow started, the last is current
	sent      int                  // updates sent to the current one
	canceled  bool
	closeOnce sync.Once
}

// NewDispatcher connects to Temporal and starts the client's workflow worker.
func NewDispatcher(ctx context.Context, o DispatcherOptions) (*Dispatcher, error) {
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.MaxInFlight < 1 {
		o.MaxInFlight = 64
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 30 * time.Second
	}
	if o.Attempts < 1 {
		o.Attempts = 3
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = 2 * time.Hour
	}
	if o.UpdatesPerWorkflow < 1 {
		o.UpdatesPerWorkflow = 1000
	}
	if o.NoWorkerTimeout <= 0 {
		o.NoWorkerTimeout = 2 * time.Minute
	}
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s-%d-%s", host, os.Getpid(), time.Now().UTC().Format("20060102T150405.000"))
	c, err := client.DialContext(ctx, client.Options{HostPort: o.HostPort, Namespace: o.Namespace, Identity: "osbench-client-" + id, Logger: logAdapter{o.Log}})
	if err != nil {
		return nil, fmt.Errorf("temporal %s: %w", o.HostPort, err)
	}
	d := &Dispatcher{o: o, c: c, queue: "osbench-client-" + id, prefix: "osbench-build-" + id, watch: newQueueWatch(c, o.NoWorkerTimeout, o.WorkerSilence)}
	d.w = worker.New(c, d.queue, worker.Options{})
	d.w.RegisterWorkflowWithOptions(BuildWorkflow, workflow.RegisterOptions{Name: workflowName})
	if err := d.w.Start(); err != nil {
		c.Close()
		return nil, fmt.Errorf("temporal %s: workflow worker: %w", o.HostPort, err)
	}
	return d, nil
}

// Wants reports whether s leaves the client: steps that run commands.
func (d *Dispatcher) Wants(s *engine.Step) bool { return dispatchable(s) }

// Run sends s to a worker of its queue and waits for the record, whose
// blobs it then pulls into the client's cache.
func (d *Dispatcher) Run(ctx context.Context, s *engine.Step, key cache.Digest, inputs map[string]*cache.ActionRecord) (*cache.ActionRecord, error) {
	t0 := time.Now()
	recs := make([]*cache.ActionRecord, 0, len(inputs))
	for _, rec := range inputs {
		recs = append(recs, rec)
	}
	if err := pushInputs(ctx, d.o.Cache, recs); err != nil {
		return nil, fmt.Errorf("step %s: %w", s.ID, err)
	}
	raw, err := encodeStep(s)
	if err != nil {
		return nil, fmt.Errorf("step %s: %w", s.ID, err)
	}
	id := s.ID + "@" + string(key)
	req := StepRequest{ID: id, Queue: QueueOf(s), Key: key, Step: raw, Inputs: inputs, StartToClose: startToClose(s, d.o.StepTimeout)}
	if n := requestSize(req); n > maxRequest {
		return nil, fmt.Errorf("step %s: its request is %d bytes, over the %d Temporal should carry; configuration that large belongs in the cache", s.ID, n, maxRequest)
	}
	warn := func(msg string) { d.o.Log.Warn().Str("step", s.ID).Msg(msg) }
	if err := d.watch.await(ctx, s, req.Queue, d.describe, warn); err != nil {
		return nil, err
	}
	t1 := time.Now()
	wf, err := d.workflow(ctx)
	if err != nil {
		return nil, err
	}
	h, err := d.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		UpdateID: id, WorkflowID: wf.GetID(), RunID: wf.GetRunID(),
		UpdateName: updateRun, Args: []any{req}, WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	t2 := time.Now()
	var t3 time.Time // the record came back
	var resp StepResponse
	var abandoned *NoWorkerError
	if err == nil {
		// Its workers may all go away while it waits. abandoned is
		// read once stop has returned, after the watch's last write.
		gctx, gcancel := context.WithCancel(ctx)
		defer gcancel()
		stop := d.watch.watch(ctx, s, req.Queue, func() {
			nw := d.watch.noWorker(s, req.Queue, d.describe)
			abandoned = nw
			warn(nw.Error() + "; abandoning the step")
			if serr := d.c.SignalWorkflow(context.Background(), wf.GetID(), wf.GetRunID(), signalAbandon, id); serr != nil {
				d.o.Log.Warn().Err(serr).Str("step", s.ID).Msg("could not abandon the step")
			}
			// The workflow cancels the activity; nothing more to wait for.
			gcancel()
		})
		err = h.Get(gctx, &resp)
		t3 = time.Now()
		stop()
	}
	if abandoned != nil {
		return nil, abandoned
	}
	if ctx.Err() != nil {
		d.cancel()
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("step %s on %s: %w", s.ID, req.Queue, err)
	}
	if resp.Record == nil {
		return nil, fmt.Errorf("step %s on %s: the worker sent no record", s.ID, req.Queue)
	}
	if resp.Record.Failed {
		// Its logs, for osbench logs and the out dir; the failure stands
		// without them.
		if err := pullOutputs(ctx, d.o.Cache, resp.Record.Side); err != nil {
			d.o.Log.Warn().Err(err).Str("step", s.ID).Msg("could not fetch the failed run's log")
		}
	} else if err := pullOutputs(ctx, d.o.Cache, append(append([]cache.Output(nil), resp.Record.Results...), resp.Record.Side...)); err != nil {
		return nil, fmt.Errorf("step %s: results of worker %s: %w", s.ID, resp.Worker, err)
	}
	// Where a dispatched step's time goes: before sending (inputs'
	// upload, the queue's check), until the workflow accepted it, until
	// the record came back (waiting for a worker, and its run), and
	// fetching the results.
	d.o.Log.Debug().Str("step", s.ID).Str("worker", resp.Worker).
		Float64("prepare_ms", ms(t1.Sub(t0))).Float64("accept_ms", ms(t2.Sub(t1))).
		Float64("wait_ms", ms(t3.Sub(t2))).Float64("queued_ms", ms(resp.Queued)).Float64("worker_ms", ms(resp.Took)).
		Float64("fetch_ms", ms(time.Since(t3))).Msg("step came back")
	return resp.Record, nil
}

// workflow returns the build's current workflow, starting one when there is
// none yet or the current one has had its share of updates.
func (d *Dispatcher) workflow(ctx context.Context) (client.WorkflowRun, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.canceled {
		return nil, context.Canceled
	}
	if n := len(d.runs); n > 0 && d.sent < d.o.UpdatesPerWorkflow {
		d.sent++
		return d.runs[n-1], nil
	}
	if n := len(d.runs); n > 0 {
		// Its running steps finish; it ends after them.
		prev := d.runs[n-1]
		if err := d.c.SignalWorkflow(ctx, prev.GetID(), prev.GetRunID(), signalDone, nil); err != nil {
			d.o.Log.Warn().Err(err).Str("workflow", prev.GetID()).Msg("could not end a finished part of the build")
		}
	}
	run, err := d.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        fmt.Sprintf("%s-%d", d.prefix, len(d.runs)+1),
		TaskQueue: d.queue,
	}, workflowName, BuildParams{MaxInFlight: d.o.MaxInFlight, Heartbeat: d.o.Heartbeat, Attempts: d.o.Attempts})
	if err != nil {
		return nil, fmt.Errorf("temporal: start the build workflow: %w", err)
	}
	d.runs = append(d.runs, run)
	d.sent = 1
	return run, nil
}

// describe says what platform's live workers serve, for a step whose
// queue none serves; one of them describes itself.
func (d *Dispatcher) describe(platform string) *description {
	ctx, done := context.WithTimeout(context.Background(), 30*time.Second)
	defer done()
	ws, _ := d.watch.workers(ctx, platform)
	desc := &description{}
	for _, w := range ws {
		desc.ids = append(desc.ids, w.identity)
	}
	if len(ws) > 0 {
		desc.info, desc.err = d.askWorker(ctx, directoryQueue(platform))
	}
	return desc
}

// askWorker runs the describe activity on a directory queue: one of its
// workers says what it serves.
func (d *Dispatcher) askWorker(ctx context.Context, directory string) (*WorkerInfo, error) {
	wf, err := d.workflow(ctx)
	if err != nil {
		return nil, err
	}
	h, err := d.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: wf.GetID(), RunID: wf.GetRunID(),
		UpdateName: updateAsk, Args: []any{directory}, WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	if err != nil {
		return nil, err
	}
	var info WorkerInfo
	if err := h.Get(ctx, &info); err != nil {
		return nil, err
	}
	return &info, nil
}

// cancel cancels every workflow of the build: their activities are
// cancelled, and the workers kill the steps' commands.
func (d *Dispatcher) cancel() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.canceled {
		return
	}
	d.canceled = true
	ctx, done := context.WithTimeout(context.Background(), 10*time.Second)
	defer done()
	for _, r := range d.runs {
		if err := d.c.CancelWorkflow(ctx, r.GetID(), r.GetRunID()); err != nil {
			d.o.Log.Warn().Err(err).Str("workflow", r.GetID()).Msg("could not cancel")
		}
	}
}

// Close ends the build's workflows (each after its running steps; after a
// cancellation, once the workers have stopped the steps) and disconnects.
func (d *Dispatcher) Close() error {
	var err error
	d.closeOnce.Do(func() {
		d.mu.Lock()
		runs, canceled := append([]client.WorkflowRun(nil), d.runs...), d.canceled
		d.mu.Unlock()
		ctx, done := context.WithTimeout(context.Background(), time.Minute)
		defer done()
		for _, r := range runs {
			if !canceled {
				if serr := d.c.SignalWorkflow(ctx, r.GetID(), r.GetRunID(), signalDone, nil); serr != nil {
					err = errors.Join(err, serr)
					continue
				}
			}
			if gerr := r.Get(ctx, nil); gerr != nil && !canceled {
				err = errors.Join(err, fmt.Errorf("workflow %s: %w", r.GetID(), gerr))
			}
		}
		d.w.Stop()
		d.c.Close()
	})
	return err
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
