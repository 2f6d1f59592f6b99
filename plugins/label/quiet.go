package label

import (
	"sort"

	"github.com/osbench/osbench/schemas"
)

// ClassifyMasked classifies the masked target run B_t for the FAIL_TO_PASS
// set of a task. A timeout anywhere in the run is a hang, whether or not
// the test that hung is required: the suite's time limit is shared.
func ClassifyMasked(masked schemas.TestResults, failToPass []string) schemas.MaskedRun {
	status := make(map[string]schemas.Status, len(masked.Tests))
	hang := false
	for _, t := range masked.Tests {
		status[t.ID] = t.Status
		hang = hang || t.Status == schemas.StatusTimeout
	}
	run := schemas.MaskedRun{Class: schemas.MaskQuiet, FailToPassByStatus: map[schemas.Status]int{}}
	for _, id := range failToPass {
		s, ok := status[id]
		if !ok {
			s = schemas.StatusMissing
		}
		run.FailToPassByStatus[s]++
		if s != schemas.StatusFail {
			if len(run.Crashed) < 10 {
				run.Crashed = append(run.Crashed, id+" ("+string(s)+")")
			}
			if s != schemas.StatusSkip {
				run.Class = schemas.MaskCrash
			}
		}
	}
	sort.Strings(run.Crashed)
	if hang {
		run.Class = schemas.MaskHang
	}
	return run
}
