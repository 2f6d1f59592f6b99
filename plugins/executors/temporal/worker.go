package temporal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/osbench/osbench/engine"
)

// WorkerOptions configure an osbench worker.
type WorkerOptions struct {
	HostPort  string // Temporal frontend, host:port
	Namespace string // default "default"
	// Platform is the platform the worker runs steps for (linux, windows);
	// Executor the executor it runs them with (local, or wine for
	// windows on a Linux host).
	Platform string
	Executor string
	// ExecutorState is the executor's state directory (its Wine prefixes).
	ExecutorState string
	// Engine runs the steps over its cache, whose remote (if attached) is
	// where the inputs come from and the results go; without one it must
	// be the clients' cache directory.
	Engine *engine.Engine
	// Jobs bounds the steps this worker runs at once.
	Jobs     int
	Identity string
	Log      zerolog.Logger
}

// RunWorker polls the task queues of o's platform and fingerprints and runs
// the steps it receives until ctx ends; then it stops taking steps and
// waits (briefly) for the running ones.
func RunWorker(ctx context.Context, o WorkerOptions) error {
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.Jobs < 1 {
		o.Jobs = 1
	}
	if o.Identity == "" {
		host, _ := os.Hostname()
		o.Identity = fmt.Sprintf("%s-%d-%s", o.Platform, os.Getpid(), host)
	}
	served, facts, err := servedQueues(ctx, o.Platform, o.Executor, o.ExecutorState)
	if err != nil {
		return err
	}
	c, err := client.DialContext(ctx, client.Options{HostPort: o.HostPort, Namespace: o.Namespace, Identity: o.Identity, Logger: logAdapter{o.Log}})
	if err != nil {
		return fmt.Errorf("temporal %s: %w", o.HostPort, err)
	}
	defer c.Close()
	sw := &stepWorker{o: o, queues: map[string]bool{}}
	sw.info = WorkerInfo{Identity: o.Identity, Platform: o.Platform, Executor: o.Executor, Queues: served, Facts: facts}
	for _, sq := range served {
		sw.queues[sq.Queue] = true
	}
	var workers []worker.Worker
	start := func(q string, opts worker.Options, register func(worker.Worker)) error {
		w := worker.New(c, q, opts)
		register(w)
		if err := w.Start(); err != nil {
			return fmt.Errorf("worker on %s: %w", q, err)
		}
		workers = append(workers, w)
		return nil
	}
	stopAll := func() {
		for _, w := range workers {
			w.Stop()
		}
	}
	for _, sq := range served {
		err := start(sq.Queue, worker.Options{
			MaxConcurrentActivityExecutionSize: o.Jobs,
			Identity:                           o.Identity,
			WorkerStopTimeout:                  10 * time.Second,
		}, func(w worker.Worker) {
			w.RegisterActivityWithOptions(sw.run, activity.RegisterOptions{Name: activityName})
		})
		if err != nil {
			stopAll()
			return err
		}
		o.Log.Info().Str("queue", sq.Queue).Str("executor", o.Executor).Str("fingerprint", strings.TrimSpace(sq.Fingerprint)).Msg("worker serves queue")
	}
	// The directory: a describe costs nothing and must not wait behind
	// the steps, so it has pollers of its own.
	// The platform's directory says who serves what; the executor's is
	// where clients that cannot key its steps themselves learn the facts.
	for _, q := range []string{directoryQueue(o.Platform), executorDirectoryQueue(o.Platform, o.Executor)} {
		err = start(q, worker.Options{Identity: directoryIdentity(o.Identity, served), MaxConcurrentActivityExecutionSize: 2}, func(w worker.Worker) {
			w.RegisterActivityWithOptions(sw.describe, activity.RegisterOptions{Name: describeName})
		})
		if err != nil {
			stopAll()
			return err
		}
	}
	o.Log.Info().Int("queues", len(served)).Str("directory", directoryQueue(o.Platform)).Msg("worker polling")
	<-ctx.Done()
	stopAll()
	return nil
}

type stepWorker struct {
	o      WorkerOptions
	queues map[string]bool // the queues it serves
	info   WorkerInfo
}

// describe is the directory's activity: what this worker serves.
func (w *stepWorker) describe(ctx context.Context) (WorkerInfo, error) { return w.info, nil }

// run is the activity: one step, idempotent by its key.
func (w *stepWorker) run(ctx context.Context, req StepRequest) (StepResponse, error) {
	started := time.Now()
	s, err := decodeStep(req.Step)
	if err != nil {
		return StepResponse{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), errKeyMismatch, nil)
	}
	// The queue is the routing; this is the check that a request sent to
	// the wrong queue (by hand, by another osbench) is not run.
	if q := QueueOf(s); s.Env["platform"] != w.o.Platform || !w.queues[q] || q != req.Queue {
		msg := fmt.Sprintf("step %s is for platform %s and queue %s (%s); this worker runs %s with %s and does not serve it", s.ID, s.Env["platform"], q, strings.TrimSpace(Fingerprint(s.Env)), w.o.Platform, w.o.Executor)
		return StepResponse{}, sdktemporal.NewNonRetryableApplicationError(msg, errKeyMismatch, nil)
	}
	log := w.o.Log.With().Str("step", s.ID).Str("key", req.Key.Short()).Int32("attempt", activity.GetInfo(ctx).Attempt).Logger()
	local := w.o.Engine.Cache()
	for _, in := range s.Inputs {
		if err := pullOutputs(ctx, local, inputOutputs(req.Inputs[in.Name], in.Result)); err != nil {
			return StepResponse{}, fmt.Errorf("step %s: input %s: %w", s.ID, in.Name, err)
		}
	}
	log.Info().Msg("running step")
	stop := heartbeat(ctx)
	rec, err := w.o.Engine.RunDispatched(ctx, s, req.Key, req.Inputs)
	stop()
	var mismatch *engine.KeyMismatchError
	switch {
	case errors.As(err, &mismatch):
		return StepResponse{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), errKeyMismatch, nil)
	case err != nil:
		log.Warn().Err(err).Msg("step not run")
		return StepResponse{}, err
	}
	// RunDispatched's PutAction uploaded a new success already; a record
	// it found in this cache may predate the remote: push is idempotent.
	if err := pushRun(ctx, local, rec); err != nil {
		return StepResponse{}, fmt.Errorf("step %s: %w", s.ID, err)
	}
	// served: the record predates this request (an earlier run's, in
	// this worker's cache), so nothing ran.
	info := activity.GetInfo(ctx)
	queued, took := info.StartedTime.Sub(info.ScheduledTime), time.Since(started)
	log.Info().Bool("failed", rec.Failed).Bool("served", rec.Created.Before(started)).
		Float64("queued_ms", ms(queued)).Float64("took_ms", ms(took)).Str("label", rec.Label).Msg("step done")
	return StepResponse{Record: rec, Worker: w.o.Identity, Queued: queued, Took: took}, nil
}

// heartbeat records a heartbeat now and then until stop is called, so a
// worker that dies is noticed within the heartbeat timeout; the heartbeat
// is also how a cancellation from the client reaches ctx.
func heartbeat(ctx context.Context) (stop func()) {
	every := activity.GetInfo(ctx).HeartbeatTimeout / 3
	if every <= 0 {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx)
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done) }
}
