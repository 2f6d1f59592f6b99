// Package label turns test runs into the label sets of a task (DESIGN §2.5)
// and quarantines flaky tests.
//
// Given G_t (runs of the complete repository on the target), B_t (one run of
// the masked repository on the target) and T_s+ (runs of the complete
// repository on the source), Compute returns
//
//	FAIL_TO_PASS   = {x | G_t(x) = pass in every run ∧ B_t(x) ≠ pass}
//	PASS_TO_PASS   = {x | G_t(x) = pass in every run ∧ B_t(x) = pass}
//	PASS_ON_SOURCE = {x | T_s+(x) = pass in every run}
//
// except that a test the target's runner says a patch could rewrite (a
// doctest, Input.Rewritable) is never FAIL_TO_PASS.
//
// Only schemas.StatusPass passes; a test B_t does not report counts as not
// passing. A test whose status is not the same in every run of the complete
// repository on one platform (a test reported by some runs and not by
// others included), or whose status in the gold re-run (Input.TargetGold,
// Input.SourceGold) differs from theirs, is flaky: it is reported in
// Labels.Flaky and left out of all three sets, whichever platform it flaked
// on, because a label set that holds it would make evaluation verdicts
// depend on luck.
//
// The package is pure: it reads no files and runs nothing.
package label

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Input holds the runs of one test suite: several runs of the complete
// repository on each platform (the manifest's flaky_runs) and one run of
// the masked repository on the target.
type Input struct {
	TargetComplete []schemas.TestResults // G_t, one entry per run
	TargetMasked   schemas.TestResults   // B_t
	SourceComplete []schemas.TestResults // T_s+, one entry per run
	// TargetGold and SourceGold, when set, are the complete repository run
	// once more the way evaluation runs a patched tree (its eval timeout):
	// what the gold patch gets at evaluation. A test whose status there
	// differs from the complete runs' is flaky too — it would make the gold
	// patch's verdict depend on luck or on the shorter timeout.
	TargetGold, SourceGold *schemas.TestResults
	// Rewritable, when set, names the tests defined where a patch may
	// rewrite them and nothing puts them back (the target runner's
	// runner.Runner.Rewritable: libtest's doctests). Such a test is never
	// FAIL_TO_PASS — a patch would pass it by editing the test — and is
	// listed in Labels.RewritableFailToPass instead. nil: none.
	Rewritable func(id string) bool
}

// Labels are the label sets of one task. Every list is sorted and non-nil,
// so it encodes as a JSON array even when empty.
type Labels struct {
	FailToPass   []string
	PassToPass   []string
	PassOnSource []string
	// RewritableFailToPass lists, sorted, the tests that would have been
	// FAIL_TO_PASS but are defined where a patch can rewrite them
	// (Input.Rewritable); nil when there are none.
	RewritableFailToPass []string `json:",omitempty"`
	// Flaky lists the quarantined tests, sorted by ID then platform. A test
	// that flaked on both platforms appears once for each.
	Flaky []FlakyTest
}

// FlakyTest is a test whose status changed between runs of the complete
// repository on one platform.
type FlakyTest struct {
	ID       string `json:"id"`
	Platform string `json:"platform"` // the runs' Platform field
	// Statuses holds the test's status in each run, in run order; a run
	// that did not report the test contributes schemas.StatusMissing.
	Statuses []schemas.Status `json:"statuses"`
	// GoldRerun is the test's status in the gold re-run when that is what
	// differed; "" when the complete runs disagreed among themselves.
	GoldRerun schemas.Status `json:"gold_rerun,omitempty"`
}

// Why a task cannot be built from its labels (DESIGN §2.5: keep a task only
// when FAIL_TO_PASS and PASS_ON_SOURCE are both non-empty).
var (
	ErrNoFailToPass   = errors.New("no test fails on the masked target and passes on the complete target (FAIL_TO_PASS is empty)")
	ErrNoPassOnSource = errors.New("no test passes on the source in every run (PASS_ON_SOURCE is empty)")
)

// Check reports why the labels cannot make a task, or nil when they can.
// Both reasons are joined when both apply.
func (l Labels) Check() error {
	var errs []error
	if len(l.FailToPass) == 0 {
		errs = append(errs, ErrNoFailToPass)
	}
	if len(l.PassOnSource) == 0 {
		errs = append(errs, ErrNoPassOnSource)
	}
	return errors.Join(errs...)
}

// Compute derives the label sets from the runs of one suite.
func Compute(in Input) Labels {
	target, targetFlaky := stableStatuses(in.TargetComplete)
	targetFlaky = append(targetFlaky, differentInRerun(target, in.TargetComplete, in.TargetGold)...)
	source, sourceFlaky := stableStatuses(in.SourceComplete)
	sourceFlaky = append(sourceFlaky, differentInRerun(source, in.SourceComplete, in.SourceGold)...)
	flaky := slices.Concat(targetFlaky, sourceFlaky)
	quarantined := make(map[string]bool, len(flaky))
	for _, f := range flaky {
		quarantined[f.ID] = true
	}
	masked := statusesOf(in.TargetMasked)

	labels := Labels{FailToPass: []string{}, PassToPass: []string{}, PassOnSource: []string{}, Flaky: flaky}
	for id, status := range target {
		if quarantined[id] || !status.Passes() {
			continue
		}
		switch {
		case masked[id].Passes():
			labels.PassToPass = append(labels.PassToPass, id)
		case in.Rewritable != nil && in.Rewritable(id):
			labels.RewritableFailToPass = append(labels.RewritableFailToPass, id)
		default:
			labels.FailToPass = append(labels.FailToPass, id)
		}
	}
	for id, status := range source {
		if !quarantined[id] && status.Passes() {
			labels.PassOnSource = append(labels.PassOnSource, id)
		}
	}
	slices.Sort(labels.FailToPass)
	slices.Sort(labels.PassToPass)
	slices.Sort(labels.PassOnSource)
	slices.Sort(labels.RewritableFailToPass)
	slices.SortFunc(labels.Flaky, func(a, b FlakyTest) int {
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		return strings.Compare(a.Platform, b.Platform)
	})
	if labels.Flaky == nil {
		labels.Flaky = []FlakyTest{}
	}
	return labels
}

// stableStatuses merges the runs of one platform. It returns the status of
// every test that had the same status in all runs, and the tests that did
// not. No runs yield no tests.
func stableStatuses(runs []schemas.TestResults) (map[string]schemas.Status, []FlakyTest) {
	perRun := make([]map[string]schemas.Status, len(runs))
	ids := map[string]bool{}
	for i, run := range runs {
		perRun[i] = statusesOf(run)
		for id := range perRun[i] {
			ids[id] = true
		}
	}
	stable := make(map[string]schemas.Status, len(ids))
	var flaky []FlakyTest
	for id := range ids {
		statuses := make([]schemas.Status, len(runs))
		for i, run := range perRun {
			statuses[i] = statusIn(run, id)
		}
		if allEqual(statuses) {
			stable[id] = statuses[0]
			continue
		}
		flaky = append(flaky, FlakyTest{ID: id, Platform: platformOf(runs), Statuses: statuses})
	}
	return stable, flaky
}

// differentInRerun takes out of stable, and returns as flaky, the tests
// whose status in the gold re-run differs from the one every complete run
// agreed on. A nil re-run changes nothing.
func differentInRerun(stable map[string]schemas.Status, runs []schemas.TestResults, rerun *schemas.TestResults) []FlakyTest {
	if rerun == nil {
		return nil
	}
	again := statusesOf(*rerun)
	var flaky []FlakyTest
	for id, status := range stable {
		if got := statusIn(again, id); got != status {
			statuses := make([]schemas.Status, len(runs))
			for i := range statuses {
				statuses[i] = status
			}
			flaky = append(flaky, FlakyTest{ID: id, Platform: platformOf(runs), Statuses: statuses, GoldRerun: got})
			delete(stable, id)
		}
	}
	return flaky
}

// statusesOf indexes one run by test ID. The tests.json format keeps IDs
// unique; should a run still report an ID twice with different statuses,
// the first status that does not pass wins, so a doubtful result never
// counts as a pass.
func statusesOf(run schemas.TestResults) map[string]schemas.Status {
	statuses := make(map[string]schemas.Status, len(run.Tests))
	for _, t := range run.Tests {
		if prev, seen := statuses[t.ID]; seen && !prev.Passes() {
			continue
		}
		statuses[t.ID] = t.Status
	}
	return statuses
}

// statusIn is a test's status in one run; an unreported test is missing.
func statusIn(run map[string]schemas.Status, id string) schemas.Status {
	if s, ok := run[id]; ok {
		return s
	}
	return schemas.StatusMissing
}

func allEqual(statuses []schemas.Status) bool {
	for _, s := range statuses[1:] {
		if s != statuses[0] {
			return false
		}
	}
	return true
}

// platformOf names the platform the runs were made on: the first non-empty
// Platform field.
func platformOf(runs []schemas.TestResults) string {
	for _, r := range runs {
		if r.Platform != "" {
			return r.Platform
		}
	}
	return ""
}

// GoldRerunTimedOut says why a platform's gold re-run cannot stand for the
// gold patch's evaluation: it ran out of time as a whole (eval_timeout)
// where the complete runs finished. Its tests' "timeout" and "missing"
// are then no sign that they are flaky — the run itself was too short, on
// a loaded machine or with cold caches — and quarantining them would empty
// the labels; yet evaluation is served from this very run, so the gold
// patch would not resolve. "" when the re-run (or its absence) is fine.
//
// A whole-run timeout is: some test timed out, and more than half of the
// tests that pass in every complete run did not finish (timeout or
// missing).
func GoldRerunTimedOut(platform string, complete []schemas.TestResults, rerun *schemas.TestResults) string {
	if rerun == nil {
		return ""
	}
	stable, _ := stableStatuses(complete)
	again := statusesOf(*rerun)
	passing, unfinished, timedOut := 0, 0, false
	for id, status := range stable {
		if !status.Passes() {
			continue
		}
		passing++
		switch statusIn(again, id) {
		case schemas.StatusTimeout:
			timedOut = true
			unfinished++
		case schemas.StatusMissing:
			unfinished++
		}
	}
	for _, t := range rerun.Tests {
		if t.Status == schemas.StatusTimeout {
			timedOut = true
		}
	}
	if !timedOut || passing == 0 || 2*unfinished <= passing {
		return ""
	}
	return fmt.Sprintf("the gold re-run on %s (the complete repository run as evaluation runs it, under eval_timeout) "+
		"ran out of time: %d of the %d tests that pass in every complete run did not finish, so the gold patch's "+
		"evaluation would not resolve; raise the platform's eval_timeout (a loaded machine or cold caches make the first run slow)",
		platform, unfinished, passing)
}
