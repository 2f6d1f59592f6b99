package temporal

import (
	"time"

	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// BuildParams configure one build's workflow.
type BuildParams struct {
	// MaxInFlight bounds the activities running at once; more requests
	// wait in the workflow.
	MaxInFlight int `json:"max_in_flight"`
	// Heartbeat is the activities' heartbeat timeout: a worker that dies
	// is noticed after this long and the step goes to another worker.
	Heartbeat time.Duration `json:"heartbeat"`
	// Attempts bounds the attempts of one step (worker deaths, transfer
	// errors); a step that runs and fails is a result, never retried.
	Attempts int32 `json:"attempts"`
}

// BuildWorkflow is one build (or a part of a long one: see Dispatcher).
// The client sends each step as an update; the handler runs it as an
// activity on the step's queue and returns the worker's record. The
// workflow ends when the client signals done and every handler finished;
// cancelling it cancels the running activities, which kill their
// commands.
func BuildWorkflow(ctx workflow.Context, p BuildParams) error {
	if p.MaxInFlight < 1 {
		p.MaxInFlight = 1
	}
	sem := workflow.NewSemaphore(ctx, int64(p.MaxInFlight))
	// The client abandons a step whose queue no worker serves: its
	// activity, scheduled on a queue nobody polls, is cancelled, so the
	// workflow can end. An abandon may arrive before its update.
	cancels := map[string]workflow.CancelFunc{}
	abandoned := map[string]bool{}
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch := workflow.GetSignalChannel(ctx, signalAbandon)
		for {
			var id string
			ch.Receive(ctx, &id)
			if cancel := cancels[id]; cancel != nil {
				cancel()
			} else {
				abandoned[id] = true
			}
		}
	})
	err := workflow.SetUpdateHandler(ctx, updateRun, func(ctx workflow.Context, req StepRequest) (StepResponse, error) {
		if abandoned[req.ID] {
			return StepResponse{}, sdktemporal.NewCanceledError("abandoned by the client")
		}
		ctx, cancel := workflow.WithCancel(ctx)
		cancels[req.ID] = cancel
		defer delete(cancels, req.ID)
		if err := sem.Acquire(ctx, 1); err != nil {
			return StepResponse{}, err
		}
		defer sem.Release(1)
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			ActivityID:          req.ID,
			TaskQueue:           req.Queue,
			StartToCloseTimeout: req.StartToClose,
			HeartbeatTimeout:    p.Heartbeat,
			WaitForCancellation: true,
			RetryPolicy: &sdktemporal.RetryPolicy{
				InitialInterval:        time.Second,
				BackoffCoefficient:     2,
				MaximumInterval:        30 * time.Second,
				MaximumAttempts:        p.Attempts,
				NonRetryableErrorTypes: []string{errKeyMismatch},
			},
		})
		var resp StepResponse
		err := workflow.ExecuteActivity(actx, activityName, req).Get(actx, &resp)
		return resp, err
	})
	if err != nil {
		return err
	}
	// What the workers of a directory queue serve (a platform's, or a
	// platform and executor's), for the client's diagnostic when a step's
	// queue has none and for the facts it keys a platform's steps with:
	// one of them answers, promptly or not at all.
	err = workflow.SetUpdateHandler(ctx, updateAsk, func(ctx workflow.Context, directory string) (WorkerInfo, error) {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue:              directory,
			ScheduleToStartTimeout: 10 * time.Second,
			StartToCloseTimeout:    10 * time.Second,
			RetryPolicy:            &sdktemporal.RetryPolicy{MaximumAttempts: 1},
		})
		var info WorkerInfo
		err := workflow.ExecuteActivity(actx, describeName).Get(actx, &info)
		return info, err
	})
	if err != nil {
		return err
	}
	// Receive does not return on cancellation; Await does.
	done := false
	workflow.Go(ctx, func(ctx workflow.Context) {
		workflow.GetSignalChannel(ctx, signalDone).Receive(ctx, nil)
		done = true
	})
	workflow.Await(ctx, func() bool { return done })
	// Cancelled or done, the workflow outlives its running steps: a
	// cancelled activity ends once its worker has killed the commands.
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	if err := workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) }); err != nil {
		return err
	}
	return ctx.Err()
}
