package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"
)

// InfraError is a step failure the machine caused, not the code: a run
// that timed out before any test started, a full disk, a process killed by
// something osbench did not send, a lost wineserver, a tool-install race.
// Such a failure says nothing about the inputs, so the engine never caches
// it (no step would be served the machine's bad moment as a fact about the
// code), retries it a bounded number of times with backoff, and reports it
// with its cause; the final failure is an error of the step, so a rerun on
// an idle machine completes.
type InfraError struct {
	// Cause is a short name of the class ("no space left on device",
	// "timed out before any test started", …), shown in reports.
	Cause string
	Err   error
}

func (e *InfraError) Error() string {
	if e.Err == nil {
		return infraPrefix + e.Cause + ")"
	}
	return infraPrefix + e.Cause + "): " + e.Err.Error()
}

func (e *InfraError) Unwrap() error { return e.Err }

// Infra marks err as an infrastructure failure with its cause.
func Infra(cause string, err error) error {
	return &InfraError{Cause: cause, Err: err}
}

// InfraCause returns the cause of an infrastructure failure, "" when err is
// none. A full disk is one wherever it surfaces — the command's output, or
// osbench's own write to the cache or the work dir (ENOSPC) — and so is a
// quota (EDQUOT: a file-system quota, or the executor's disk limit of a
// step), so those errors are classified here, whatever the step kind.
func InfraCause(err error) string {
	var ie *InfraError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ie):
		return ie.Cause
	case errors.Is(err, syscall.ENOSPC):
		return CauseNoSpace
	case errors.Is(err, syscall.EDQUOT):
		return CauseDiskQuota
	}
	// A step run elsewhere (a Temporal worker) comes back as text: its
	// InfraError's words carry the cause across.
	if _, rest, ok := strings.Cut(err.Error(), infraPrefix); ok {
		if cause, _, ok := strings.Cut(rest, ")"); ok && cause != "" {
			return cause
		}
	}
	return ""
}

const infraPrefix = "infrastructure failure ("

// Causes of infrastructure failures the engine and the steps name.
const (
	CauseNoSpace   = "no space left on device"
	CauseDiskQuota = "disk quota exceeded"
)

// Defaults for Options.InfraRetries and Options.InfraBackoff.
const (
	defaultInfraRetries = 2
	defaultInfraBackoff = 5 * time.Second
)

// Retry is one attempt of a step that failed as infrastructure and was
// run again.
type Retry struct {
	Attempt int    `json:"attempt"` // 1 for the first run
	Cause   string `json:"cause"`
	Error   string `json:"error"`
}

// runWithRetries calls run until it succeeds, fails for a reason of the
// code, or has failed as infrastructure 1+retries times; between attempts
// it waits backoff, doubled each time (a loaded machine gets time to calm
// down). It returns the last attempt's results and the retries made.
func (e *Engine) runWithRetries(ctx context.Context, stepID string, run func() error) (retries []Retry, err error) {
	n := e.opts.InfraRetries
	if n < 0 {
		n = 0
	}
	wait := e.opts.InfraBackoff
	for attempt := 1; ; attempt++ {
		err = run()
		cause := InfraCause(err)
		if cause == "" || ctx.Err() != nil {
			return retries, err
		}
		if attempt > n {
			return retries, err
		}
		retries = append(retries, Retry{Attempt: attempt, Cause: cause, Error: firstLine(err.Error())})
		e.opts.Log.Warn().Str("step", stepID).Str("cause", cause).Int("attempt", attempt).Dur("backoff", wait).
			Msg("infrastructure failure; retrying")
		if r, ok := e.opts.Observer.(RetryObserver); ok {
			r.Retrying(stepID, retries[len(retries)-1], wait)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return retries, err
		}
		wait *= 2
	}
}

// RetryObserver is an Observer that is also told when a step is retried
// after an infrastructure failure (the CLI's progress output).
type RetryObserver interface {
	Retrying(stepID string, r Retry, backoff time.Duration)
}

// infraSummary is the reason line of a step that ended as infrastructure
// after retries.
func infraSummary(cause string, retries []Retry) string {
	return fmt.Sprintf("infrastructure failure (%s) after %d attempts; not cached — a rerun on a healthy machine runs it again", cause, len(retries)+1)
}
