package parsers

import (
	"sort"

	"github.com/osbench/osbench/schemas"
)

// severity orders statuses from best to worst. When one id is reported more
// than once (go test -count=2, a test binary run twice) the worst report is
// kept: a test that passed once and failed once is not a passing test.
var severity = map[schemas.Status]int{
	schemas.StatusPass:        0,
	schemas.StatusSkip:        1,
	schemas.StatusMissing:     2,
	schemas.StatusFail:        3,
	schemas.StatusTimeout:     4,
	schemas.StatusError:       5,
	schemas.StatusBuildFailed: 6,
}

// worse returns the worse of two statuses.
func worse(a, b schemas.Status) schemas.Status {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

// resultSet collects statuses by test id, keeping the worst per id.
type resultSet map[string]schemas.Status

// add records status for id unless a worse status is already recorded.
// Empty ids are ignored: an id must name something.
func (s resultSet) add(id string, status schemas.Status) {
	if id == "" {
		return
	}
	if old, ok := s[id]; ok {
		status = worse(old, status)
	}
	s[id] = status
}

// sorted returns the results in id order, the order every parser promises.
func (s resultSet) sorted() []schemas.TestResult {
	out := make([]schemas.TestResult, 0, len(s))
	for id, status := range s {
		out = append(out, schemas.TestResult{ID: id, Status: status})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
