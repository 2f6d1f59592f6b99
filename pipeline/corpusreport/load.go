package corpusreport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/pipeline/evalreport"
	"github.com/osbench/osbench/steps/taskbuild"
)

// StepsFile is the build's step report that `osbench build --out DIR`
// writes beside build-report.json.
const StepsFile = "build-steps.json"

// Load reads a build's output directory and an evaluation's (evalOut ""
// or missing: no evaluation yet) into Inputs; the caller adds the
// repositories, the wall time and the note.
//
// The entries come from build-report.json when this build's tasks step
// succeeded. When it did not (one repository's failed step blocks the
// step that gathers every task), they come from the outcome.json of each
// task step that did succeed in this build. Without a step report, whatever
// build-report.json is there is taken.
func Load(buildOut, evalOut string) (Inputs, error) {
	var in Inputs
	steps, err := readSteps(filepath.Join(buildOut, StepsFile))
	if err != nil {
		return in, err
	}
	in.Steps = steps
	if steps == nil || succeeded(steps.Step(taskbuild.TasksKind)) {
		rep, err := readBuildReport(filepath.Join(buildOut, "build-report.json"))
		if err != nil {
			return in, err
		}
		if rep != nil {
			in.Entries = rep.Entries
		}
	} else if in.Entries, err = readOutcomes(buildOut, steps); err != nil {
		return in, err
	}
	if in.Preservation, err = CheckPreservation(buildOut); err != nil {
		return in, err
	}
	if evalOut != "" {
		if _, err := os.Stat(evalOut); err == nil {
			if in.Eval, err = evalreport.Load(evalOut); err != nil {
				return in, err
			}
		}
	}
	return in, nil
}

func succeeded(s *engine.StepResult) bool {
	return s != nil && (s.Status == engine.StatusHit || s.Status == engine.StatusRan)
}

// readSteps reads the step report; a missing file is no report.
func readSteps(path string) (*engine.Report, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("corpusreport: %w", err)
	}
	var rep engine.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("corpusreport: %s: %w", path, err)
	}
	return &rep, nil
}

func readBuildReport(path string) (*taskbuild.Report, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("corpusreport: %w", err)
	}
	var rep taskbuild.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("corpusreport: %s: %w", path, err)
	}
	return &rep, nil
}

// readOutcomes reads DIR/tasks/*/outcome.json, keeping the entries whose
// task step succeeded in this build (an older file may lie beside them).
func readOutcomes(buildOut string, steps *engine.Report) ([]taskbuild.ReportEntry, error) {
	outcomes, err := succeededOutcomes(buildOut, steps)
	if err != nil {
		return nil, err
	}
	var entries []taskbuild.ReportEntry
	for _, o := range outcomes {
		entries = append(entries, taskbuild.NewReportEntry(o))
	}
	return entries, nil
}

func succeededOutcomes(buildOut string, steps *engine.Report) ([]taskbuild.Outcome, error) {
	paths, err := filepath.Glob(filepath.Join(buildOut, "tasks", "*", "outcome.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var outcomes []taskbuild.Outcome
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("corpusreport: %w", err)
		}
		var o taskbuild.Outcome
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("corpusreport: %s: %w", p, err)
		}
		// The task step of a repository and direction, or of one group of
		// a split direction (pipeline/compile).
		id := taskbuild.StepID(o.Repository, o.Source, o.Target, o.Group)
		if succeeded(steps.Step(id)) {
			outcomes = append(outcomes, o)
		}
	}
	return outcomes, nil
}

// PartialTasks is, for a build whose tasks step did not run (a failed step
// of one repository blocks it), what its tasks.jsonl would have held of the
// task steps that did succeed: the accepted tasks' lines, in instance
// order, so that they can be evaluated. It needs the build's step report.
func PartialTasks(buildOut string) ([]byte, int, error) {
	steps, err := readSteps(filepath.Join(buildOut, StepsFile))
	if err != nil {
		return nil, 0, err
	}
	if steps == nil {
		return nil, 0, fmt.Errorf("corpusreport: %s: no %s (written by osbench build --out)", buildOut, StepsFile)
	}
	outcomes, err := succeededOutcomes(buildOut, steps)
	if err != nil {
		return nil, 0, err
	}
	sort.Slice(outcomes, func(i, j int) bool { return outcomes[i].InstanceID < outcomes[j].InstanceID })
	var b []byte
	n := 0
	for _, o := range outcomes {
		if o.Task == nil {
			continue
		}
		line, err := json.Marshal(o.Task)
		if err != nil {
			return nil, 0, err
		}
		b = append(append(b, line...), '\n')
		n++
	}
	return b, n, nil
}
