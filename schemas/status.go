// Package schemas holds the shapes that cross osbench's boundaries: the Go
// types of every exported artifact and the JSON Schemas that describe them.
package schemas

// Status is the outcome of one test. Only StatusPass counts as passing; see
// Passes for the written rule.
type Status string

// The statuses of DESIGN §2. Their spelling is part of the artifact format.
const (
	StatusPass        Status = "pass"
	StatusFail        Status = "fail"
	StatusSkip        Status = "skip"
	StatusError       Status = "error"        // crash or panic of the test binary
	StatusTimeout     Status = "timeout"      // the test or its binary ran out of time
	StatusBuildFailed Status = "build-failed" // the package or target did not compile
	StatusMissing     Status = "missing"      // expected but never reported
)

// Statuses lists every valid status in a stable order.
var Statuses = []Status{StatusPass, StatusFail, StatusSkip, StatusError, StatusTimeout, StatusBuildFailed, StatusMissing}

// Valid reports whether s is one of the known statuses.
func (s Status) Valid() bool {
	for _, k := range Statuses {
		if s == k {
			return true
		}
	}
	return false
}

// Passes is the one rule for counting a status: only a pass passes. A skipped
// test that a label set requires therefore fails it.
func (s Status) Passes() bool { return s == StatusPass }
