package evalreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osbench/osbench/schemas"
)

// The run-level files Write puts in OUT.
const (
	SummaryJSON     = "summary.json"
	SummaryMarkdown = "summary.md"
	ReportHTML      = "report.html"
)

// Write summarizes the reports and writes summary.json, summary.md and
// report.html into outDir. Each file is replaced atomically, so a reader or
// a crash never sees half a summary; the bytes depend on the reports only.
func Write(outDir string, reports []schemas.EvalReport) (schemas.EvalSummary, error) {
	s := Summarize(reports)

	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return s, fmt.Errorf("evalreport: encoding %s: %w", SummaryJSON, err)
	}
	js = append(js, '\n')

	var md, page bytes.Buffer
	if err := Markdown(&md, s); err != nil {
		return s, err
	}
	if err := HTML(&page, s, reports); err != nil {
		return s, err
	}

	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return s, fmt.Errorf("evalreport: %w", err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{SummaryJSON, js}, {SummaryMarkdown, md.Bytes()}, {ReportHTML, page.Bytes()}} {
		if err := WriteFile(filepath.Join(outDir, f.name), f.data); err != nil {
			return s, err
		}
	}
	return s, nil
}

// WriteReport writes an instance's report.json (indented, with a trailing
// newline) into its directory, atomically.
func WriteReport(instanceDir string, r schemas.EvalReport) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("evalreport: encoding %s: %w", ReportFile, err)
	}
	return WriteFile(filepath.Join(instanceDir, ReportFile), append(b, '\n'))
}

// WriteFile writes data to a temporary file in path's directory (created
// when missing), syncs it and renames it over path: the rename is atomic
// only within one file system, hence the same directory. Every file of an
// evaluation's output is written this way.
func WriteFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("evalreport: writing %s: %w", path, err)
	}
	// CreateTemp makes the file private; the reports are for anyone who can
	// read OUT, a browser included.
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("evalreport: syncing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("evalreport: writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	// Sync the directory so the rename itself survives a crash; a file
	// system that cannot sync directories loses nothing by skipping it.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
