package engine

import (
	"fmt"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// Status is what happened to a step in a plan or a build.
type Status string

const (
	StatusHit      Status = "hit"      // served from the cache
	StatusRan      Status = "ran"      // executed and succeeded
	StatusFailed   Status = "failed"   // executed and failed
	StatusSkipped  Status = "skipped"  // not run: an input failed or the build stopped
	StatusCanceled Status = "canceled" // interrupted (Ctrl-C); nothing was recorded
	StatusMiss     Status = "miss"     // plan: would run
	StatusBlocked  Status = "blocked"  // plan: waits on a miss, so its key is not known yet
)

// StepResult is the outcome of one step.
type StepResult struct {
	ID           string        `json:"id"`
	Kind         string        `json:"kind"`
	Group        string        `json:"group,omitempty"`
	Status       Status        `json:"status"`
	Reason       string        `json:"reason,omitempty"`
	Key          cache.Digest  `json:"key,omitempty"`
	OutputDigest cache.Digest  `json:"output_digest,omitempty"`
	Label        string        `json:"label,omitempty"`
	Duration     time.Duration `json:"duration_ns"`
	// RunDuration is how long the run behind a hit's result took (the
	// action record's); 0 for steps that ran here, whose Duration it is.
	RunDuration time.Duration `json:"run_duration_ns,omitempty"`
	Error       string        `json:"error,omitempty"`
	Components  []Component   `json:"-"`
	// Changes lists the key components that differ from the step's last run.
	Changes []Change `json:"changes,omitempty"`
	// Verify is, for a hit that Options.VerifyCache ran again, how the
	// rerun's results compared: VerifySame, VerifyDiffers (which results)
	// or VerifyRerunFailed.
	Verify string `json:"verify,omitempty"`
	// Infra is the cause of a failure the machine caused (InfraError):
	// such a step is never cached and was retried (Retries, the attempts
	// before the last).
	Infra   string  `json:"infra,omitempty"`
	Retries []Retry `json:"retries,omitempty"`
}

// Summary counts step outcomes.
type Summary struct {
	Total    int `json:"total"`
	Hit      int `json:"hit"`
	Ran      int `json:"ran"`
	Failed   int `json:"failed"`
	Skipped  int `json:"skipped"`
	Canceled int `json:"canceled"`
	Miss     int `json:"miss"`
	Blocked  int `json:"blocked"`
	// Infra counts the failed steps whose failure the machine caused.
	Infra int `json:"infra,omitempty"`
	// Retried counts the steps run again after an infrastructure failure
	// (whether a later attempt succeeded or not).
	Retried int `json:"retried,omitempty"`
}

// Report is the outcome of a plan or a build, steps in graph order.
type Report struct {
	RunID    string        `json:"run"`
	Steps    []*StepResult `json:"steps"`
	Duration time.Duration `json:"duration_ns"`
}

// Summary counts the report's steps by status.
func (r *Report) Summary() Summary {
	s := Summary{Total: len(r.Steps)}
	for _, st := range r.Steps {
		if len(st.Retries) > 0 {
			s.Retried++
		}
		switch st.Status {
		case StatusHit:
			s.Hit++
		case StatusRan:
			s.Ran++
		case StatusFailed:
			s.Failed++
			if st.Infra != "" {
				s.Infra++
			}
		case StatusSkipped:
			s.Skipped++
		case StatusCanceled:
			s.Canceled++
		case StatusMiss:
			s.Miss++
		case StatusBlocked:
			s.Blocked++
		}
	}
	return s
}

// Step returns the result of the step with the given ID.
func (r *Report) Step(id string) *StepResult {
	for _, s := range r.Steps {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Failures lists failed steps.
func (r *Report) Failures() []*StepResult {
	var out []*StepResult
	for _, s := range r.Steps {
		if s.Status == StatusFailed {
			out = append(out, s)
		}
	}
	return out
}

// Line is the one-line build summary that ends a build's output.
func (s Summary) Line() string {
	line := fmt.Sprintf("%d steps: %d cached, %d ran, %d failed", s.Total, s.Hit, s.Ran, s.Failed)
	if s.Infra > 0 {
		line += fmt.Sprintf(" (%d of them infrastructure, not cached: rerun)", s.Infra)
	}
	if s.Retried > 0 {
		line += fmt.Sprintf(", %d retried after an infrastructure failure", s.Retried)
	}
	if s.Skipped > 0 {
		line += fmt.Sprintf(", %d skipped", s.Skipped)
	}
	if s.Canceled > 0 {
		line += fmt.Sprintf(", %d canceled", s.Canceled)
	}
	return line
}
