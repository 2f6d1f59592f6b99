package label

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

const (
	pass    = schemas.StatusPass
	fail    = schemas.StatusFail
	skip    = schemas.StatusSkip
	crash   = schemas.StatusError
	timeout = schemas.StatusTimeout
	broken  = schemas.StatusBuildFailed
	missing = schemas.StatusMissing
)

// run builds one test run from "id=status" pairs.
func run(platform string, pairs ...string) schemas.TestResults {
	r := schemas.TestResults{Repository: "pathsep", Platform: platform, Parser: "go-test-json", Tests: []schemas.TestResult{}}
	for _, p := range pairs {
		id, status, _ := strings.Cut(p, "=")
		r.Tests = append(r.Tests, schemas.TestResult{ID: id, Status: schemas.Status(status)})
	}
	return r
}

func ptr(r schemas.TestResults) *schemas.TestResults { return &r }

func runs(platform string, n int, pairs ...string) []schemas.TestResults {
	out := make([]schemas.TestResults, n)
	for i := range out {
		out[i] = run(platform, pairs...)
	}
	return out
}

func TestCompute(t *testing.T) {
	const (
		sep   = "pathsep/TestIsSeparator"
		drive = "pathsep/TestDrive"
		join  = "pathsep/TestJoinUserRejectsEscapes"
		eq    = "pathsep/TestEqual"
	)
	tests := []struct {
		name string
		in   Input
		want Labels
	}{
		{
			name: "masking breaks two tests, one survives",
			in: Input{
				TargetComplete: runs("windows", 3, sep+"=pass", drive+"=pass", join+"=pass"),
				TargetMasked:   run("windows", sep+"=fail", drive+"=error", join+"=pass"),
				SourceComplete: runs("linux", 3, sep+"=pass", drive+"=pass", join+"=pass"),
			},
			want: Labels{
				FailToPass:   []string{drive, sep},
				PassToPass:   []string{join},
				PassOnSource: []string{drive, sep, join},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "every non-pass status of the masked run fails the test",
			in: Input{
				TargetComplete: runs("windows", 1, "a=pass", "b=pass", "c=pass", "d=pass", "e=pass", "f=pass", "g=pass"),
				TargetMasked:   run("windows", "a=fail", "b=skip", "c=error", "d=timeout", "e=build-failed", "f=missing"),
				SourceComplete: runs("linux", 1, "a=pass"),
			},
			want: Labels{
				FailToPass:   []string{"a", "b", "c", "d", "e", "f", "g"}, // g is not reported by B_t at all
				PassToPass:   []string{},
				PassOnSource: []string{"a"},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "tests that do not pass on the complete target are in no target set",
			in: Input{
				TargetComplete: runs("linux", 2, sep+"=skip", drive+"=fail", join+"=pass"),
				TargetMasked:   run("linux", sep+"=pass", drive+"=fail", join+"=fail"),
				SourceComplete: runs("windows", 2, sep+"=pass", drive+"=pass", join+"=skip"),
			},
			want: Labels{
				FailToPass:   []string{join},
				PassToPass:   []string{},
				PassOnSource: []string{drive, sep},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "a test flaky on the target is quarantined from every set",
			in: Input{
				TargetComplete: []schemas.TestResults{
					run("windows", sep+"=pass", drive+"=pass"),
					run("windows", sep+"=fail", drive+"=pass"),
					run("windows", sep+"=pass", drive+"=pass"),
				},
				TargetMasked:   run("windows", sep+"=fail", drive+"=fail"),
				SourceComplete: runs("linux", 3, sep+"=pass", drive+"=pass"),
			},
			want: Labels{
				FailToPass:   []string{drive},
				PassToPass:   []string{},
				PassOnSource: []string{drive},
				Flaky:        []FlakyTest{{ID: sep, Platform: "windows", Statuses: []schemas.Status{pass, fail, pass}}},
			},
		},
		{
			name: "a test flaky on the source is quarantined from the target's sets too",
			in: Input{
				TargetComplete: runs("linux", 3, sep+"=pass", drive+"=pass", eq+"=pass"),
				TargetMasked:   run("linux", sep+"=fail", drive+"=pass", eq+"=fail"),
				SourceComplete: []schemas.TestResults{
					run("windows", sep+"=pass", drive+"=pass", eq+"=pass"),
					run("windows", sep+"=pass", drive+"=timeout", eq+"=pass"),
					run("windows", sep+"=pass", drive+"=pass"),
				},
			},
			want: Labels{
				FailToPass:   []string{sep},
				PassToPass:   []string{},
				PassOnSource: []string{sep},
				Flaky: []FlakyTest{
					{ID: drive, Platform: "windows", Statuses: []schemas.Status{pass, timeout, pass}},
					{ID: eq, Platform: "windows", Statuses: []schemas.Status{pass, pass, missing}},
				},
			},
		},
		{
			name: "a test flaky on both platforms is reported once per platform",
			in: Input{
				TargetComplete: []schemas.TestResults{run("windows", sep+"=pass", join+"=pass"), run("windows", sep+"=skip", join+"=pass")},
				TargetMasked:   run("windows", sep+"=fail", join+"=fail"),
				SourceComplete: []schemas.TestResults{run("linux", sep+"=error", join+"=pass"), run("linux", sep+"=pass", join+"=pass")},
			},
			want: Labels{
				FailToPass:   []string{join},
				PassToPass:   []string{},
				PassOnSource: []string{join},
				Flaky: []FlakyTest{
					{ID: sep, Platform: "linux", Statuses: []schemas.Status{crash, pass}},
					{ID: sep, Platform: "windows", Statuses: []schemas.Status{pass, skip}},
				},
			},
		},
		{
			name: "a test consistently failing to build is stable, not flaky",
			in: Input{
				TargetComplete: runs("windows", 3, sep+"=build-failed", join+"=pass"),
				TargetMasked:   run("windows", sep+"=build-failed", join+"=pass"),
				SourceComplete: runs("linux", 3, sep+"=pass", join+"=pass"),
			},
			want: Labels{
				FailToPass:   []string{},
				PassToPass:   []string{join},
				PassOnSource: []string{sep, join},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "a duplicate report that does not pass wins over a pass",
			in: Input{
				TargetComplete: []schemas.TestResults{run("windows", sep+"=pass", sep+"=fail", join+"=pass")},
				TargetMasked:   run("windows", join+"=pass", join+"=fail"),
				SourceComplete: []schemas.TestResults{run("linux", sep+"=pass", join+"=fail", join+"=pass")},
			},
			want: Labels{
				FailToPass:   []string{join},
				PassToPass:   []string{},
				PassOnSource: []string{sep},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "a test the gold re-run sees otherwise is quarantined on its platform",
			in: Input{
				TargetComplete: runs("windows", 2, sep+"=pass", drive+"=pass", join+"=pass"),
				TargetMasked:   run("windows", sep+"=fail", drive+"=fail", join+"=pass"),
				TargetGold:     ptr(run("windows", sep+"=pass", drive+"=timeout", join+"=pass")),
				SourceComplete: runs("linux", 2, sep+"=pass", drive+"=pass", join+"=pass"),
				SourceGold:     ptr(run("linux", sep+"=pass", drive+"=pass")),
			},
			want: Labels{
				FailToPass:   []string{sep},
				PassToPass:   []string{},
				PassOnSource: []string{sep},
				Flaky: []FlakyTest{
					{ID: drive, Platform: "windows", Statuses: []schemas.Status{pass, pass}, GoldRerun: timeout},
					{ID: join, Platform: "linux", Statuses: []schemas.Status{pass, pass}, GoldRerun: missing},
				},
			},
		},
		{
			name: "a gold re-run that agrees changes nothing",
			in: Input{
				TargetComplete: runs("windows", 1, sep+"=pass", join+"=pass"),
				TargetMasked:   run("windows", sep+"=fail", join+"=pass"),
				TargetGold:     ptr(run("windows", sep+"=pass", join+"=pass")),
				SourceComplete: runs("linux", 1, sep+"=pass"),
				SourceGold:     ptr(run("linux", sep+"=pass")),
			},
			want: Labels{
				FailToPass:   []string{sep},
				PassToPass:   []string{join},
				PassOnSource: []string{sep},
				Flaky:        []FlakyTest{},
			},
		},
		{
			name: "a test a patch could rewrite is never FAIL_TO_PASS, and is listed",
			in: Input{
				TargetComplete: runs("windows", 2, "src/lib.rs/tests::join=pass", "doctest/src/lib.rs - join=pass", "doctest/src/lib.rs - sep=pass"),
				TargetMasked:   run("windows", "src/lib.rs/tests::join=fail", "doctest/src/lib.rs - join=fail", "doctest/src/lib.rs - sep=pass"),
				SourceComplete: runs("linux", 1, "doctest/src/lib.rs - join=pass"),
				Rewritable:     func(id string) bool { return strings.HasPrefix(id, "doctest/") },
			},
			want: Labels{
				FailToPass:           []string{"src/lib.rs/tests::join"},
				PassToPass:           []string{"doctest/src/lib.rs - sep"}, // passing on the masked tree, a rewrite gains nothing
				PassOnSource:         []string{"doctest/src/lib.rs - join"},
				RewritableFailToPass: []string{"doctest/src/lib.rs - join"},
				Flaky:                []FlakyTest{},
			},
		},
		{
			name: "no runs give empty, non-nil sets",
			in:   Input{},
			want: Labels{FailToPass: []string{}, PassToPass: []string{}, PassOnSource: []string{}, Flaky: []FlakyTest{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compute(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Compute() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestComputeDoesNotDependOnTestOrder: the sets do not change when the
// tests inside a run come in another order.
func TestComputeDoesNotDependOnTestOrder(t *testing.T) {
	forward := Input{
		TargetComplete: runs("windows", 2, "a=pass", "b=pass", "c=pass"),
		TargetMasked:   run("windows", "a=fail", "b=pass", "c=fail"),
		SourceComplete: runs("linux", 2, "a=pass", "b=pass", "c=skip"),
	}
	backward := Input{
		TargetComplete: runs("windows", 2, "c=pass", "b=pass", "a=pass"),
		TargetMasked:   run("windows", "c=fail", "b=pass", "a=fail"),
		SourceComplete: runs("linux", 2, "c=skip", "b=pass", "a=pass"),
	}
	if a, b := Compute(forward), Compute(backward); !reflect.DeepEqual(a, b) {
		t.Errorf("order changed the labels:\n%+v\n%+v", a, b)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		labels Labels
		want   []error // errors.Is must hold for each; none means nil
	}{
		{"usable", Labels{FailToPass: []string{"a"}, PassOnSource: []string{"b"}}, nil},
		{"usable without PASS_TO_PASS", Labels{FailToPass: []string{"a"}, PassToPass: []string{}, PassOnSource: []string{"a"}}, nil},
		{"no FAIL_TO_PASS", Labels{PassToPass: []string{"a"}, PassOnSource: []string{"a"}}, []error{ErrNoFailToPass}},
		{"no PASS_ON_SOURCE", Labels{FailToPass: []string{"a"}}, []error{ErrNoPassOnSource}},
		{"neither", Labels{}, []error{ErrNoFailToPass, ErrNoPassOnSource}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.labels.Check()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Check() = %v, want nil", err)
				}
				return
			}
			for _, want := range tt.want {
				if !errors.Is(err, want) {
					t.Errorf("Check() = %v, want it to wrap %v", err, want)
				}
			}
		})
	}
}

func TestGoldRerunTimedOut(t *testing.T) {
	complete := runs("linux", 2, "A=pass", "B=pass", "C=pass", "D=pass", "E=fail")
	tests := []struct {
		name   string
		rerun  *schemas.TestResults
		reject bool
	}{
		{"no re-run", nil, false},
		{"an agreeing re-run", ptr(run("linux", "A=pass", "B=pass", "C=pass", "D=pass", "E=fail")), false},
		// The corpus case: the executor killed the whole run at eval_timeout.
		{"every test timed out", ptr(run("linux", "A=timeout", "B=timeout", "C=timeout", "D=timeout", "E=timeout")), true},
		{"one test hung, the rest never ran", ptr(run("linux", "A=pass", "B=timeout")), true},
		// One flaky test that timed out is a flake to quarantine, not a
		// run that was too short.
		{"one test timed out", ptr(run("linux", "A=pass", "B=pass", "C=pass", "D=timeout", "E=fail")), false},
		// A crash loses tests without any timeout: a crash, not this.
		{"a crash lost most tests", ptr(run("linux", "A=pass", "B=crash")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason := GoldRerunTimedOut("linux", complete, tt.rerun)
			if (reason != "") != tt.reject {
				t.Errorf("GoldRerunTimedOut = %q, want a rejection: %v", reason, tt.reject)
			}
			if tt.reject && !strings.Contains(reason, "eval_timeout") {
				t.Errorf("the reason %q does not say what to raise", reason)
			}
		})
	}
}
