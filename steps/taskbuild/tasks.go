package taskbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/schemas"
)

// TaskInput names the n-th input of the tasks step.
func TaskInput(n int) string { return fmt.Sprintf("task_%d", n) }

// Instance is one task step the tasks step gathers: its configuration
// says which instance each input is, so a direction whose steps failed is
// still named in the report.
type Instance struct {
	Step       string `json:"step"`
	InstanceID string `json:"instance_id"`
	Repository string `json:"repository"`
	Source     string `json:"source"`
	Target     string `json:"target"`
	// Group is the group of a split direction.
	Group *GroupRef `json:"group,omitempty"`
}

// TasksConfig is the tasks step's configuration: its inputs, in order.
type TasksConfig struct {
	Instances []Instance `json:"instances"`
}

// Report is build-report.json: per repository and direction, what task
// construction found, kept, dropped, masked and made — or which step failed.
type Report struct {
	Tasks    int           `json:"tasks"`
	Rejected int           `json:"rejected"`
	Failed   int           `json:"failed"`
	Entries  []ReportEntry `json:"entries"`
}

// ReportEntry is one repository and direction.
type ReportEntry struct {
	InstanceID string         `json:"instance_id"`
	Repository string         `json:"repository"`
	Direction  string         `json:"direction"`
	Candidates map[string]int `json:"candidates_by_label"`
	Kept       int            `json:"regions_kept"`
	Dropped    int            `json:"regions_dropped"`
	Masked     int            `json:"mask_actions"`
	Coarse     bool           `json:"mask_coarse"`
	Accepted   bool           `json:"accepted"`
	Rejected   string         `json:"rejected,omitempty"`
	// Failed says which step of the direction failed and why; such an
	// entry has no counts.
	Failed     string            `json:"failed,omitempty"`
	FailToPass int               `json:"fail_to_pass"`
	PassToPass int               `json:"pass_to_pass"`
	PassOnSrc  int               `json:"pass_on_source"`
	Flaky      []label.FlakyTest `json:"flaky"`
	Difficulty string            `json:"difficulty,omitempty"`
	// MaskClass is how the masked target run failed (quiet, crash, hang);
	// FailToPassByAssertion how many FAIL_TO_PASS tests failed by their
	// own assertions there.
	MaskClass             string `json:"mask_class,omitempty"`
	FailToPassByAssertion int    `json:"fail_to_pass_by_assertion"`
	// FirstMaskClass is the class of the target's run on the first mask
	// when it was not quiet and the mask was retried in the coarse mode.
	FirstMaskClass string `json:"first_mask_class,omitempty"`
	// Unmasked counts the verified regions the mask step rejected (they
	// would have changed the source's executed lines, or nothing).
	Unmasked int `json:"regions_rejected_by_mask"`
	// Group is the part of a split direction the entry is about (the
	// manifest's split = N); absent when the direction is one task.
	Group *schemas.TaskGroup `json:"group,omitempty"`
	// SplitHint suggests splitting a direction that is one task and whose
	// masked regions are a whole backend (SplitAdvice).
	SplitHint string `json:"split_hint,omitempty"`
}

// A direction that is one task and masks more than adviseLines lines or
// adviseFiles files gets a SplitHint: such a task is a whole backend to
// rewrite, rated hard like a 101-line one, and few agents solve it. The
// split is not automatic: the number of groups is the number of masked
// runs of both suites, so it must be a choice in the manifest (where it
// also names the tasks), not a consequence of coverage.
const (
	adviseLines = 400
	adviseFiles = 10
	// linesPerGroup is the size the suggested split aims at.
	linesPerGroup = 200
)

// regionSize is the lines the regions span and the number of their files.
func regionSize(regions []schemas.VerifiedRegion) (lines, files int) {
	seen := map[string]bool{}
	for _, r := range regions {
		if r.End >= r.Start {
			lines += r.End - r.Start + 1
		}
		if !seen[r.File] {
			seen[r.File] = true
			files++
		}
	}
	return lines, files
}

// SplitAdvice is the hint for a direction that is one task and masks
// lines lines in files files, or "" when it is small enough.
func SplitAdvice(lines, files int) string {
	if lines <= adviseLines && files <= adviseFiles {
		return ""
	}
	n := min(max((lines+linesPerGroup-1)/linesPerGroup, 2), 32)
	return fmt.Sprintf("this direction masks %d lines in %d files as one task; consider split = %d in the manifest (one task per group of feature areas)", lines, files, n)
}

type tasksKind struct{}

func (tasksKind) Name() string { return TasksKind }

// Version 2: failed directions are entries of the report. Version 3: a
// failed direction's entry has {} and [] for its label counts and flaky
// tests, never null (build-report.schema.json). Version 4: the class of a
// retried mask's first run. Version 5: entries name the group of a split
// direction, and a large direction that is one task gets a split hint.
func (tasksKind) Version() string { return "5" }

func (tasksKind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg TasksConfig
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if len(cfg.Instances) != len(rc.Step.Inputs) {
		return fmt.Errorf("tasks: %d instances configured for %d inputs", len(cfg.Instances), len(rc.Step.Inputs))
	}
	var outcomes []Outcome
	failed := map[string]string{} // instance → why its task step gave nothing
	for n := 0; n < len(rc.Step.Inputs); n++ {
		a, err := rc.Input(TaskInput(n))
		if absent, ok := engine.IsAbsent(err); ok {
			inst := cfg.Instances[n]
			outcomes = append(outcomes, Outcome{InstanceID: inst.InstanceID, Repository: inst.Repository, Source: inst.Source, Target: inst.Target, Group: inst.Group.TaskGroup()})
			failed[inst.InstanceID] = fmt.Sprintf("%s %s: %s", absent.Step, absent.Status, absent.Reason)
			continue
		}
		if err != nil {
			return err
		}
		var o Outcome
		if err := a.DecodeJSON("outcome.json", &o); err != nil {
			return err
		}
		outcomes = append(outcomes, o)
	}
	sort.Slice(outcomes, func(i, j int) bool { return outcomes[i].InstanceID < outcomes[j].InstanceID })
	var jsonl bytes.Buffer
	rep := Report{Entries: []ReportEntry{}}
	for _, o := range outcomes {
		e := NewReportEntry(o)
		if why, ok := failed[o.InstanceID]; ok {
			e.Failed = why
			rep.Failed++
		} else if o.Task != nil {
			line, err := json.Marshal(o.Task)
			if err != nil {
				return err
			}
			jsonl.Write(append(line, '\n'))
			rep.Tasks++
		} else {
			rep.Rejected++
		}
		rep.Entries = append(rep.Entries, e)
	}
	if err := rc.PutBytes("tasks.jsonl", jsonl.Bytes()); err != nil {
		return err
	}
	if err := rc.PutJSON("build-report.json", rep); err != nil {
		return err
	}
	label := fmt.Sprintf("%d tasks, %d rejected", rep.Tasks, rep.Rejected)
	if rep.Failed > 0 {
		label += fmt.Sprintf(", %d failed", rep.Failed)
	}
	rc.SetLabel(label)
	return rc.PutBytes("build-report.md", []byte(markdown(rep)))
}

// NewReportEntry is the build report's entry for one task step's outcome.
func NewReportEntry(o Outcome) ReportEntry {
	e := ReportEntry{InstanceID: o.InstanceID, Repository: o.Repository, Direction: o.Source + "->" + o.Target,
		Candidates: o.Candidates, Kept: len(o.Mask.Regions), Masked: len(o.Mask.Actions), Coarse: o.Mask.Coarse,
		Accepted: o.Accepted, Rejected: o.Rejected, FailToPass: len(o.Labels.FailToPass), PassToPass: len(o.Labels.PassToPass),
		PassOnSrc: len(o.Labels.PassOnSource), Flaky: o.Labels.Flaky}
	if e.Candidates == nil {
		e.Candidates = map[string]int{}
	}
	if e.Flaky == nil {
		e.Flaky = []label.FlakyTest{}
	}
	e.Dropped = o.Candidates[schemas.LabelFalsePositive]
	e.Unmasked = len(o.Mask.Rejected)
	if len(o.Labels.FailToPass) > 0 {
		e.MaskClass = o.MaskedRun.Class
		e.FailToPassByAssertion = o.MaskedRun.FailToPassByStatus[schemas.StatusFail]
	}
	if r := o.Mask.Retry; r != nil && r.Remasked {
		e.FirstMaskClass = r.First.Class
	}
	if o.Task != nil {
		e.Difficulty = o.Task.Difficulty
	}
	e.Group = o.Group
	if o.Group == nil {
		e.SplitHint = SplitAdvice(regionSize(o.Mask.Regions))
	}
	return e
}

// markdown renders the report for people.
func markdown(rep Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task construction\n\n%d tasks made, %d candidates rejected", rep.Tasks, rep.Rejected)
	if rep.Failed > 0 {
		fmt.Fprintf(&b, ", %d directions failed to build", rep.Failed)
	}
	b.WriteString(".\n\n")
	b.WriteString("| instance | regions kept / dropped | mask | FAIL_TO_PASS (by assertion) | PASS_TO_PASS | PASS_ON_SOURCE | flaky | outcome |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, e := range rep.Entries {
		outcome := "task (" + e.Difficulty + ", mask " + e.MaskClass + ")"
		switch {
		case e.Failed != "":
			outcome = "failed: " + strings.ReplaceAll(e.Failed, "|", "\\|")
		case !e.Accepted:
			outcome = "rejected: " + e.Rejected
		}
		mask := fmt.Sprintf("%d actions", e.Masked)
		if e.Unmasked > 0 {
			mask += fmt.Sprintf(", %d regions rejected", e.Unmasked)
		}
		if e.Coarse {
			mask += ", coarse"
		}
		if e.FirstMaskClass != "" {
			mask += " (retried: the first mask's run was " + e.FirstMaskClass + ")"
		}
		instance := e.InstanceID
		if g := e.Group; g != nil && g.Regions > 0 {
			instance += fmt.Sprintf(" (group %d of %d: %s; %s, %s)", g.Index, g.Of, strings.Join(g.FeatureGroups, ", "), plural(g.Lines, "line"), plural(len(g.Files), "file"))
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %s | %d (%d) | %d | %d | %d | %s |\n", instance, e.Kept, e.Dropped, mask, e.FailToPass, e.FailToPassByAssertion, e.PassToPass, e.PassOnSrc, len(e.Flaky), outcome)
	}
	var hints []string
	for _, e := range rep.Entries {
		if e.SplitHint != "" {
			hints = append(hints, fmt.Sprintf("- %s: %s\n", e.InstanceID, e.SplitHint))
		}
	}
	if len(hints) > 0 {
		b.WriteString("\nLarge directions:\n\n" + strings.Join(hints, ""))
	}
	return b.String()
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
