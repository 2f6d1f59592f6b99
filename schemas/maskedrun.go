package schemas

// How a masked target run failed (DESIGN §2.4: placeholders must fail
// quietly). The class is part of every task record, because a task whose
// mask crashes or hangs judges patches by luck and costs time.
const (
	// MaskQuiet: every FAIL_TO_PASS test ran and failed by its own
	// assertions.
	MaskQuiet = "quiet"
	// MaskCrash: some FAIL_TO_PASS test errored (panic), went missing (its
	// binary died before reporting it) or did not build.
	MaskCrash = "crash"
	// MaskHang: some test of the masked run timed out.
	MaskHang = "hang"
)

// MaskedRun is what the masked target run (R− on the target) did to a
// task's FAIL_TO_PASS tests.
type MaskedRun struct {
	Class string `json:"class"` // MaskQuiet, MaskCrash or MaskHang
	// FailToPassByStatus counts the FAIL_TO_PASS tests by their status in
	// the masked run; "fail" is the number that failed by assertion.
	FailToPassByStatus map[Status]int `json:"fail_to_pass_by_status"`
	// Crashed lists (at most ten) FAIL_TO_PASS tests that did not fail by
	// assertion, with their status, as examples for people.
	Crashed []string `json:"crashed,omitempty"`
}
