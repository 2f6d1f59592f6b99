package engine

import (
	"errors"
	"fmt"

	"github.com/osbench/osbench/engine/cache"
)

// AbsentError is what RunContext.Input returns for an optional input whose
// producer gave no result.
type AbsentError struct {
	Input  string // the input's name
	Step   string // the producer
	Status Status // failed, skipped or canceled
	Reason string // the producer's error or skip reason
}

func (e *AbsentError) Error() string {
	return fmt.Sprintf("input %s: step %s %s: %s", e.Input, e.Step, e.Status, e.Reason)
}

// IsAbsent reports whether err says an optional input is absent, and if so
// returns the details.
func IsAbsent(err error) (*AbsentError, bool) {
	var a *AbsentError
	ok := errors.As(err, &a)
	return a, ok
}

// absentRecord stands in for the record of a producer that ended without
// one. It is marked failed, so nothing can mistake it for a result.
func absentRecord(res *StepResult) *cache.ActionRecord {
	reason := res.Error
	if reason == "" {
		reason = res.Reason
	}
	return &cache.ActionRecord{Step: res.ID, Failed: true, Error: reason, Label: string(res.Status)}
}

func isAbsent(rec *cache.ActionRecord) bool { return rec != nil && rec.Failed }

// hasAbsent reports whether any of a step's inputs is absent: such a run
// is built from incomplete inputs and is not cached.
func hasAbsent(inputs map[string]*cache.ActionRecord) bool {
	for _, rec := range inputs {
		if isAbsent(rec) {
			return true
		}
	}
	return false
}

// onlyOptional reports whether every input of s that producer feeds is
// optional, so producer's failure does not stop s.
func onlyOptional(s *Step, producer string) bool {
	for _, in := range s.Inputs {
		if in.Step == producer && !in.Optional {
			return false
		}
	}
	return true
}
