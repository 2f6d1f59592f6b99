package taskbuild

import (
	"sort"

	"github.com/osbench/osbench/schemas"
)

// platformEvidence is what the task holds an evaluated run on one
// platform to: the test definitions of the complete runs (those of the
// first run; every run of one tree lists the same), and the required tests
// that every complete run showed evidence for. A test with no evidence
// channel on this runner (a doctest, a CTest script) is not listed, so the
// evaluation asks of a patch only what the complete repository gave.
func platformEvidence(runs []schemas.TestResults, required ...[]string) schemas.PlatformEvidence {
	pe := schemas.PlatformEvidence{Ran: []string{}}
	if len(runs) == 0 {
		return pe
	}
	if d := runs[0].Definitions; d != nil {
		pe.Definitions = d.Digest
	}
	evidenced := map[string]int{}
	for _, run := range runs {
		for _, t := range run.Tests {
			if t.Evidence == schemas.EvidenceRan {
				evidenced[t.ID]++
			}
		}
	}
	for _, ids := range required {
		for _, id := range ids {
			if evidenced[id] == len(runs) {
				pe.Ran = append(pe.Ran, id)
			}
		}
	}
	sort.Strings(pe.Ran)
	return pe
}
