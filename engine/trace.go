package engine

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
)

// traceLine is one step of a run's trace (JSON lines, one file per run under
// <cache>/traces). Component values are hashed: a trace says which inputs
// went into a key without copying configuration around.
type traceLine struct {
	Run        string           `json:"run"`
	Step       string           `json:"step"`
	Kind       string           `json:"kind"`
	Status     Status           `json:"status"`
	Reason     string           `json:"reason,omitempty"`
	Key        string           `json:"key,omitempty"`
	Output     string           `json:"output_digest,omitempty"`
	DurationMS float64          `json:"duration_ms"`
	Error      string           `json:"error,omitempty"`
	Infra      string           `json:"infra,omitempty"`
	Retries    []Retry          `json:"retries,omitempty"`
	Components []traceComponent `json:"components,omitempty"`
}

type traceComponent struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
	Source string `json:"source,omitempty"`
}

const tracesKept = 50

// writeTrace stores the run's trace and trims old traces.
func (e *Engine) writeTrace(rep *Report) error {
	dir, err := e.cache.Subdir("traces")
	if err != nil {
		return err
	}
	// Private to osbench, like history (history.go).
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, rep.RunID+".jsonl"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range rep.Steps {
		tl := traceLine{Run: rep.RunID, Step: r.ID, Kind: r.Kind, Status: r.Status, Reason: r.Reason,
			Key: string(r.Key), Output: string(r.OutputDigest), DurationMS: float64(r.Duration.Microseconds()) / 1000, Error: r.Error,
			Infra: r.Infra, Retries: r.Retries}
		for _, c := range r.Components {
			sum := sha256.Sum256([]byte(c.Value))
			tl.Components = append(tl.Components, traceComponent{Name: c.Name, Digest: hex.EncodeToString(sum[:8]), Source: c.Source})
		}
		if err := enc.Encode(tl); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	sort.Strings(names)
	for len(names) > tracesKept {
		os.Remove(names[0])
		names = names[1:]
	}
	return nil
}

// TracePath returns the trace file of a run.
func (e *Engine) TracePath(runID string) string {
	return filepath.Join(e.cache.Dir(), "traces", runID+".jsonl")
}
