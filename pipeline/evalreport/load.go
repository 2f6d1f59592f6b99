package evalreport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/osbench/osbench/schemas"
)

// ReportFile is the name of an instance's report inside
// OUT/<model-dir>/<instance_id>/.
const ReportFile = "report.json"

// Load reads every OUT/<model-dir>/<instance>/report.json, two levels deep
// and no deeper: a model's directory name is a file-system-safe spelling of
// its name, so the model is taken from the report, not the path. Instance
// directories without a report are skipped (an evaluation may still be
// writing them); a report that does not decode strictly is an error naming
// its file. The reports come back sorted by model, then instance.
func Load(outDir string) ([]schemas.EvalReport, error) {
	models, err := os.ReadDir(outDir)
	if err != nil {
		return nil, fmt.Errorf("evalreport: reading %s: %w", outDir, err)
	}
	var reports []schemas.EvalReport
	for _, m := range models {
		if !m.IsDir() {
			continue // summary.json, summary.md, report.html
		}
		modelDir := filepath.Join(outDir, m.Name())
		instances, err := os.ReadDir(modelDir)
		if err != nil {
			return nil, fmt.Errorf("evalreport: reading %s: %w", modelDir, err)
		}
		for _, inst := range instances {
			if !inst.IsDir() {
				continue
			}
			path := filepath.Join(modelDir, inst.Name(), ReportFile)
			r, err := readReport(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			reports = append(reports, r)
		}
	}
	sortReports(reports)
	return reports, nil
}

// readReport decodes one report strictly: an unknown field means the file
// was written by something that does not agree with these types, and
// silently dropping it could change a verdict.
func readReport(path string) (schemas.EvalReport, error) {
	var r schemas.EvalReport
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return r, err
		}
		return r, fmt.Errorf("evalreport: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("evalreport: %s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return r, fmt.Errorf("evalreport: %s: trailing data after the report", path)
	}
	if err := check(&r); err != nil {
		return r, fmt.Errorf("evalreport: %s: %w", path, err)
	}
	return r, nil
}

// check rejects reports whose facts the summary could not count
// consistently: no model or instance, an unknown outcome, a resolved flag
// that disagrees with the outcome or with Stage I (which would make the gap
// negative), or a tamper flag that disagrees with the findings.
func check(r *schemas.EvalReport) error {
	if r.Model == "" {
		return errors.New("no model_name_or_path")
	}
	if r.InstanceID == "" {
		return errors.New("no instance_id")
	}
	switch r.Outcome {
	case schemas.OutcomeResolved, schemas.OutcomeUnresolved, schemas.OutcomePatchRejected,
		schemas.OutcomePatchFailed, schemas.OutcomeInfraFailure:
	default:
		return fmt.Errorf("unknown outcome %q", r.Outcome)
	}
	if r.Resolved != (r.Outcome == schemas.OutcomeResolved) {
		return fmt.Errorf("resolved is %t but outcome is %q", r.Resolved, r.Outcome)
	}
	if r.Resolved && !(r.StageI.Passed && r.StageII.Passed) {
		return errors.New("resolved but a stage did not pass")
	}
	if r.TamperSuspected != (len(r.TamperFindings) > 0) {
		return fmt.Errorf("tamper_suspected is %t with %d findings", r.TamperSuspected, len(r.TamperFindings))
	}
	return nil
}

func sortReports(reports []schemas.EvalReport) {
	sort.SliceStable(reports, func(i, j int) bool {
		if reports[i].Model != reports[j].Model {
			return reports[i].Model < reports[j].Model
		}
		return reports[i].InstanceID < reports[j].InstanceID
	})
}
