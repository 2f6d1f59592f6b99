// Package temporal distributes an osbench build over Temporal workers.
//
// The client keeps the graph and the keys (the engine); a Dispatcher hands
// each ready step that runs commands (its key has an executor fingerprint)
// to a workflow — one per build — which runs it as an activity on the task
// queue of its platform and fingerprint, osbench-<platform>-<fp> (see
// queues.go). A worker (osbench worker) polls the queues of the
// fingerprints it computes itself, so it never receives a step it would key
// differently, and answers on its platform's directory queue what it
// serves, so a client whose queue has no worker says what differs instead
// of waiting. Temporal carries steps, keys and digests; blobs travel
// through the remote cache (--remote-cache).
package temporal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
)

// Names registered with Temporal.
const (
	workflowName = "osbench-build"
	activityName = "osbench-run-step"
	describeName = "osbench-describe-worker"
	updateRun    = "run-step"
	updateAsk    = "describe-workers"
	signalDone   = "done"
	// signalAbandon names a step (its request's ID) the client gave up
	// on: no worker serves its queue.
	signalAbandon = "abandon"
	// errKeyMismatch is the type of the non-retryable error a worker
	// returns for a step it would key differently.
	errKeyMismatch = "osbench-key-mismatch"
)

// maxRequest bounds the encoded step and inputs of one activity: Temporal
// refuses payloads over 2 MB, and a request near that is a step whose
// configuration carries data that belongs in the cache.
const maxRequest = 512 << 10

// StepRequest is one step sent to a worker: the step as the client's
// engine built it, the key it computed, and its inputs' records (digests
// only).
type StepRequest struct {
	// ID names the request within its build (the update's ID).
	ID     string                         `json:"id"`
	Queue  string                         `json:"queue"`
	Key    cache.Digest                   `json:"key"`
	Step   json.RawMessage                `json:"step"`
	Inputs map[string]*cache.ActionRecord `json:"inputs"`
	// StartToClose bounds one attempt on a worker.
	StartToClose time.Duration `json:"start_to_close"`
}

// StepResponse is what a worker returns: the record of the run, failed
// runs included (their side logs are in the store).
type StepResponse struct {
	Record *cache.ActionRecord `json:"record"`
	Worker string              `json:"worker"` // who ran it, for logs
	// Queued is how long the attempt waited for a worker (schedule to
	// start), Took how long the worker spent on it: with the client's own
	// wait they say where a dispatched step's time goes.
	Queued time.Duration `json:"queued_ns,omitempty"`
	Took   time.Duration `json:"took_ns,omitempty"`
}

// dispatchable reports whether s runs commands through an executor: only
// those steps leave the client; pure steps (diffcov, verify, packaging) are
// cheaper to run than to ship. A step with host-local facts (a local
// source path) stays too.
func dispatchable(s *engine.Step) bool {
	return s.Env["platform"] != "" && s.Env["executor"] != "" && len(s.Local) == 0
}

func encodeStep(s *engine.Step) (json.RawMessage, error) {
	return json.Marshal(s)
}

// decodeStep reads a step keeping numbers as written, so the worker's
// canonical configuration — and so its key — is the client's.
func decodeStep(b []byte) (*engine.Step, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var s engine.Step
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("decode step: %w", err)
	}
	return &s, nil
}

// startToClose is how long one attempt of s may take: its own timeout
// (twice, for set-up and the coverage run) plus a margin, or def.
func startToClose(s *engine.Step, def time.Duration) time.Duration {
	for _, f := range s.Config {
		if f.Name != "timeout" {
			continue
		}
		str, ok := f.Value.(string)
		if !ok {
			continue
		}
		if d, err := time.ParseDuration(strings.TrimSpace(str)); err == nil && d > 0 {
			return 2*d + 10*time.Minute
		}
	}
	return def
}

func requestSize(req StepRequest) int {
	b, err := json.Marshal(req)
	if err != nil {
		return 0
	}
	return len(b)
}
