// Package verdict is the "verdict" step kind of an evaluation (DESIGN
// §2.7): from how a patch applied and the two test runs of the patched
// repository, it decides Stage I (every FAIL_TO_PASS and PASS_TO_PASS test
// passes on the target), Stage II (every PASS_ON_SOURCE test passes on the
// source) and whether the task is resolved (both).
//
// The verdict is keyed like any step: by the task's label sets and digest
// (configuration) and by the outputs of the apply step and the two runs,
// which are themselves keyed by the patch's digest and the platforms'
// fingerprints. Nothing in it depends on which model sent the patch, so the
// same patch from two models is judged once.
package verdict

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "verdict"

// Inputs: the apply step, and — only when the patch applied — the test runs
// of the patched repository on the target and on the source.
const (
	InputApply  = "apply"
	InputTarget = "target"
	InputSource = "source"
)

// Output is the verdict.json result (Verdict).
const Output = "verdict.json"

// Config is the task as the verdict needs it.
type Config struct {
	InstanceID   string   `json:"instance_id"`
	TaskDigest   string   `json:"task_digest"`
	Source       string   `json:"source"`
	Target       string   `json:"target"`
	FailToPass   []string `json:"fail_to_pass"`
	PassToPass   []string `json:"pass_to_pass"`
	PassOnSource []string `json:"pass_on_source"`
	// TargetEvidence and SourceEvidence are the task's record of its
	// complete runs (nil for tasks built before it existed): a run whose
	// test definitions differ is not graded, and a listed test the run
	// shows no evidence for does not pass.
	TargetEvidence *schemas.PlatformEvidence `json:"target_evidence,omitempty"`
	SourceEvidence *schemas.PlatformEvidence `json:"source_evidence,omitempty"`
}

// Verdict is the judgement of one patch: the model-free part of an
// schemas.EvalReport.
type Verdict struct {
	Outcome  string              `json:"outcome"`
	Resolved bool                `json:"resolved"`
	Apply    schemas.ApplyResult `json:"apply"`
	StageI   schemas.StageResult `json:"stage_i"`
	StageII  schemas.StageResult `json:"stage_ii"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 2: evidence and test definitions are held to the task's.
//
// Version 3: a run that changed the task's test sources is not graded.
func (kind) Version() string { return "3" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	ap, err := rc.Input(InputApply)
	if err != nil {
		return err
	}
	var applied schemas.ApplyResult
	if err := ap.DecodeJSON("apply.json", &applied); err != nil {
		return err
	}
	var target, source *schemas.TestResults
	if applied.Outcome == schemas.ApplyApplied {
		if target, err = readRun(rc, InputTarget); err != nil {
			return err
		}
		if source, err = readRun(rc, InputSource); err != nil {
			return err
		}
	}
	v := Judge(cfg, applied, target, source)
	rc.SetLabel(v.Outcome)
	return rc.PutJSON(Output, v)
}

func readRun(rc *engine.RunContext, input string) (*schemas.TestResults, error) {
	a, err := rc.Input(input)
	if err != nil {
		return nil, fmt.Errorf("the patch applied but the %s run is not an input: %w", input, err)
	}
	var tr schemas.TestResults
	if err := a.DecodeJSON("tests.json", &tr); err != nil {
		return nil, err
	}
	return &tr, nil
}

// Judge decides a verdict. target and source are the runs of the patched
// repository, nil when the patch did not apply (then neither stage ran).
func Judge(cfg Config, applied schemas.ApplyResult, target, source *schemas.TestResults) Verdict {
	v := Verdict{
		Apply:   applied,
		StageI:  Held(Stage(cfg.Target, target, map[string][]string{schemas.LabelFailToPass: cfg.FailToPass, schemas.LabelPassToPass: cfg.PassToPass}), target, cfg.TargetEvidence),
		StageII: Held(Stage(cfg.Source, source, map[string][]string{schemas.LabelPassOnSource: cfg.PassOnSource}), source, cfg.SourceEvidence),
	}
	v.Resolved = v.StageI.Passed && v.StageII.Passed
	switch {
	case applied.Outcome == schemas.OutcomePatchRejected || applied.Outcome == schemas.OutcomePatchFailed:
		v.Outcome = applied.Outcome
	case v.Resolved:
		v.Outcome = schemas.OutcomeResolved
	default:
		v.Outcome = schemas.OutcomeUnresolved
	}
	return v
}

// Stage judges one stage: every required test, by label, must have passed
// in run. A required test the run did not report is missing, and fails
// (DESIGN §2: only pass passes). A nil run is a stage that did not run.
func Stage(platform string, run *schemas.TestResults, required map[string][]string) schemas.StageResult {
	st := schemas.StageResult{Platform: platform, Ran: run != nil, Tests: []schemas.LabeledTest{}, Failing: []string{}}
	status := map[string]schemas.Status{}
	reason := map[string]string{}
	if run != nil {
		for _, t := range run.Tests {
			status[t.ID] = t.Status
			reason[t.ID] = t.Reason
		}
	}
	labels := make([]string, 0, len(required))
	for l := range required {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, label := range labels {
		ids := append([]string(nil), required[label]...)
		sort.Strings(ids)
		for _, id := range ids {
			s, ok := status[id]
			if !ok {
				s = schemas.StatusMissing
			}
			st.Tests = append(st.Tests, schemas.LabeledTest{ID: id, Label: label, Status: s, Reason: reason[id]})
			if !s.Passes() {
				st.Failing = append(st.Failing, id)
			}
		}
	}
	st.Passed = st.Ran && len(st.Failing) == 0
	return st
}

// Held holds a judged stage to the task's evidence record: when the run's
// test definitions differ from the complete runs' the stage is not graded
// (not passed, with the reason), and so is a run that changed the task's
// test sources (TestResults.ChangedTestFiles); a required test the task lists as
// evidenced that passed without evidence in this run is an error.
func Held(st schemas.StageResult, run *schemas.TestResults, want *schemas.PlatformEvidence) schemas.StageResult {
	if run != nil && len(run.ChangedTestFiles) > 0 {
		// Checked whatever the task recorded: the runner compiled tests
		// that were not the task's.
		st.NotGraded = fmt.Sprintf("the run changed the task's test sources (%s): a test program may not rewrite the tests the runner compiles after it", strings.Join(run.ChangedTestFiles, ", "))
		st.Passed = false
	}
	if run == nil || want == nil {
		return st
	}
	if want.Definitions != "" {
		got := ""
		if run.Definitions != nil {
			got = run.Definitions.Digest
		}
		if got != want.Definitions {
			if st.NotGraded != "" {
				st.NotGraded += "; "
			}
			st.NotGraded += fmt.Sprintf("the test definitions differ from the task's (%s, the task's complete run listed %s): a patch may change build files, not what a test runs", orNone(got), want.Definitions)
			st.Passed = false
		}
	}
	evidenced := map[string]bool{}
	for _, t := range run.Tests {
		if t.Evidence == schemas.EvidenceRan {
			evidenced[t.ID] = true
		}
	}
	required := map[string]bool{}
	for _, id := range want.Ran {
		required[id] = true
	}
	failing := map[string]bool{}
	for _, id := range st.Failing {
		failing[id] = true
	}
	for i := range st.Tests {
		t := &st.Tests[i]
		if !required[t.ID] || evidenced[t.ID] || !t.Status.Passes() {
			continue
		}
		t.Status = schemas.StatusError
		t.Reason = "reported as passing, but the runner's own artifacts (coverage counts, the test binary's profile) show no sign it ran, as they did in the task's complete run"
		if !failing[t.ID] {
			failing[t.ID] = true
			st.Failing = append(st.Failing, t.ID)
		}
	}
	sort.Strings(st.Failing)
	if len(st.Failing) > 0 {
		st.Passed = false
	}
	return st
}

func orNone(digest string) string {
	if digest == "" {
		return "none listed"
	}
	return digest
}
