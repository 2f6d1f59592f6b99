package schemas

// The outcome of evaluating one prediction (DESIGN §2.7): one of these, in
// this order of precedence.
const (
	OutcomeResolved      = "resolved"       // Stage I and Stage II passed
	OutcomeUnresolved    = "unresolved"     // applied and run; a stage failed
	OutcomePatchRejected = "patch-rejected" // the patch reaches outside the repository
	OutcomePatchFailed   = "patch-failed"   // no apply method could apply it
	OutcomeInfraFailure  = "infra-failure"  // the test runs could not be carried out; not the patch's fault
)

// Apply methods, in the order they are tried.
const (
	ApplyEmpty      = "empty"      // the patch changes nothing; the task repo is run as it is
	ApplyGit        = "git-apply"  // git apply
	ApplyGit3Way    = "git-3way"   // git apply --3way
	ApplyPatchFuzzy = "patch-fuzz" // patch --batch --fuzz=5 -p1
)

// ApplyResult is what applying a patch to a task's repository gave (the
// apply.json result of the apply step).
type ApplyResult struct {
	// Outcome is ApplyApplied, OutcomePatchRejected, OutcomePatchFailed, or
	// ApplyNotDone when the apply step itself failed.
	Outcome string `json:"outcome"`
	// Method is the apply method that worked ("" unless applied).
	Method string `json:"method"`
	// Reason says why a patch was rejected or failed to apply.
	Reason string `json:"reason,omitempty"`
	// Files are the repository paths the patch touches, sorted.
	Files []string `json:"files"`
	// RestoredTestFiles are test files the patch changed, put back to the
	// task's state before the tests ran (the evaluation never runs an
	// agent's edited tests), sorted.
	RestoredTestFiles []string `json:"restored_test_files"`
	// RestoredTestCode are the test items inside source files the patch
	// changed, added or removed, put back to the task's state
	// ("src/lib.rs: mod tests"), sorted; absent when none.
	RestoredTestCode []string `json:"restored_test_code,omitempty"`
}

// ApplyResult.Outcome for a patch that applied, and for one whose apply
// step itself could not run (an infrastructure failure: no verdict).
const (
	ApplyApplied = "applied"
	ApplyNotDone = "not-done"
)

// LabeledTest is a required test's status in one stage.
type LabeledTest struct {
	ID     string `json:"id"`
	Label  string `json:"label"` // FAIL_TO_PASS, PASS_TO_PASS or PASS_ON_SOURCE
	Status Status `json:"status"`
	// Reason says why Status is not what the run's output said (the run
	// shows no evidence the test ran); "" otherwise.
	Reason string `json:"reason,omitempty"`
}

// The label sets of a task.
const (
	LabelFailToPass   = "FAIL_TO_PASS"
	LabelPassToPass   = "PASS_TO_PASS"
	LabelPassOnSource = "PASS_ON_SOURCE"
)

// LogRef points at a stage's raw test log.
type LogRef struct {
	Path   string `json:"path"`   // relative to the report's directory
	Digest string `json:"digest"` // "sha256:<hex>"
}

// StageResult is one stage of an evaluation: Stage I runs the target's
// FAIL_TO_PASS and PASS_TO_PASS tests, Stage II the source's
// PASS_ON_SOURCE tests.
type StageResult struct {
	Platform string `json:"platform"`
	// Ran is false when the patch did not apply, or the run was an
	// infrastructure failure; such a stage has not passed.
	Ran    bool `json:"ran"`
	Passed bool `json:"passed"`
	// InfraFailure says what went wrong with the run itself (executor died,
	// killed, out of memory) after the retry; "" when the run happened.
	InfraFailure string `json:"infra_failure,omitempty"`
	// NotGraded says why the run was not graded (its test definitions
	// differ from the task's: a patch changed what a test runs); such a
	// stage has not passed.
	NotGraded string `json:"not_graded,omitempty"`
	// Tests lists every required test of the stage with its status, in label
	// then ID order. A required test the run did not report is "missing".
	Tests []LabeledTest `json:"tests"`
	// Failing lists the IDs of the required tests that did not pass.
	Failing []string `json:"failing"`
	Log     *LogRef  `json:"log,omitempty"`
}

// EvalReport is OUT/<model>/<instance_id>/report.json: the evaluation of one
// prediction, with the task facts the summary breaks results down by.
type EvalReport struct {
	InstanceID string   `json:"instance_id"`
	Model      string   `json:"model_name_or_path"`
	Repo       string   `json:"repo"`
	SourceOS   string   `json:"source_os"`
	TargetOS   string   `json:"target_os"`
	Language   string   `json:"language"`
	Difficulty string   `json:"difficulty"`
	Categories []string `json:"categories"`

	TaskDigest  string `json:"task_digest"`  // "sha256:<hex>" of the task's tasks.jsonl line
	PatchDigest string `json:"patch_digest"` // "sha256:<hex>" of model_patch

	Outcome  string      `json:"outcome"` // one of the Outcome* constants
	Resolved bool        `json:"resolved"`
	Apply    ApplyResult `json:"apply"`
	StageI   StageResult `json:"stage_i"`
	StageII  StageResult `json:"stage_ii"`

	// TamperSuspected is set when the static scan of the patch found
	// something that imitates a test runner or bypasses it (TamperFindings
	// says what and where). It is evidence for people, never part of the
	// verdict: a suspected patch keeps its outcome.
	TamperSuspected bool `json:"tamper_suspected"`
	// TamperRules is the version of the scan's rule set; "" when the patch
	// was not scanned.
	TamperRules    string          `json:"tamper_rules,omitempty"`
	TamperFindings []TamperFinding `json:"tamper_findings"`
}

// TamperFinding is one match of the patch scan (plugins/tamper).
type TamperFinding struct {
	File      string `json:"file"`       // repository path the patch writes
	PatchLine int    `json:"patch_line"` // 1-based line of the patch text
	Rule      string `json:"rule"`
	Reason    string `json:"reason"`
}

// TamperScan is the result of the scan step (scan.json): the rule set's
// version and what it found, in patch order.
type TamperScan struct {
	Rules    string          `json:"rules"`
	Findings []TamperFinding `json:"findings"`
}

// Direction is the report's migration direction, "<source>-to-<target>".
func (r *EvalReport) Direction() string { return r.SourceOS + "-to-" + r.TargetOS }

// EvalCounts are the results of a set of predictions. TargetOnly counts
// those whose Stage I passed whatever Stage II gave, so Gap = TargetOnly −
// Resolved is how many would be counted solved by a target-only benchmark
// though they broke the source platform. Rates are percentages of Total.
type EvalCounts struct {
	Total          int     `json:"total"`
	Resolved       int     `json:"resolved"`
	TargetOnly     int     `json:"target_only"`
	Gap            int     `json:"gap"`
	ResolvedRate   float64 `json:"resolved_rate"`
	TargetOnlyRate float64 `json:"target_only_rate"`
	GapRate        float64 `json:"gap_rate"`
	// ResolvedCI and TargetOnlyCI are the 95% Wilson intervals of the two
	// rates, over the same Total: how far the rate of so few tasks can be
	// from the agent's true rate.
	ResolvedCI   Interval `json:"resolved_ci95"`
	TargetOnlyCI Interval `json:"target_only_ci95"`
}

// Interval is a confidence interval of a rate, in percent like the rate and
// rounded the same way.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// ModelSummary is one model's results, overall and broken down.
type ModelSummary struct {
	Model string `json:"model_name_or_path"`
	EvalCounts
	Applied       int `json:"applied"`
	PatchRejected int `json:"patch_rejected"`
	PatchFailed   int `json:"patch_failed"`
	InfraFailures int `json:"infra_failures"`
	// NotGraded counts the reports a stage of which ran but was not graded
	// (schemas.StageResult.NotGraded); Graded is Total minus those and the
	// infrastructure failures: the predictions the rates say something
	// about the agent for.
	NotGraded int `json:"not_graded"`
	Graded    int `json:"graded"`
	// TamperSuspected counts the reports whose patch the scan flagged,
	// whatever their outcome.
	TamperSuspected int `json:"tamper_suspected"`
	// Breakdowns by task facts; a task counts once under each of its
	// categories.
	ByDirection  map[string]EvalCounts `json:"by_direction"`
	ByLanguage   map[string]EvalCounts `json:"by_language"`
	ByCategory   map[string]EvalCounts `json:"by_category"`
	ByDifficulty map[string]EvalCounts `json:"by_difficulty"`
}

// EvalSummary is OUT/summary.json: every model of an evaluation run,
// sorted by model name.
type EvalSummary struct {
	Models []ModelSummary `json:"models"`
	// Agents are the models evaluated several times on the same tasks,
	// named NAME@attempt-K (what `osbench solve --attempts K` writes),
	// with pass@k and pass^k; empty when no model has two attempts.
	Agents []AttemptSummary `json:"agents"`
}

// AttemptSuffix separates an agent's name from its attempt number in a
// prediction's model_name_or_path: NAME@attempt-K, K from 1.
const AttemptSuffix = "@attempt-"

// AttemptSummary is one agent's results over its attempts. Tasks counts
// the tasks every attempt was evaluated on; only those are in the
// estimates, so each has the same number of attempts.
type AttemptSummary struct {
	Agent    string  `json:"agent"`
	Attempts int     `json:"attempts"`
	Tasks    int     `json:"tasks"`
	PassK    []PassK `json:"pass_k"`
}

// PassK is the unbiased pass@k (some attempt of k resolves) and pass^k
// (all k resolve) over the tasks, in percent rounded to 0.1.
type PassK struct {
	K       int     `json:"k"`
	PassAt  float64 `json:"pass_at_k"`
	PassHat float64 `json:"pass_hat_k"`
}
