package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/osbench/osbench/engine/cache"
)

// RunContext is everything a step may touch while it runs: its decoded
// configuration, its inputs' results, a fresh scratch directory, and the
// means to record results and side artifacts. Steps get nothing else, which
// is what keeps them pure functions of their declared inputs.
type RunContext struct {
	Step *Step
	Log  zerolog.Logger
	// WorkDir is created empty for this run and removed after it.
	WorkDir string

	cache   *cache.Cache
	inputs  map[string]*cache.ActionRecord
	results []cache.Output
	side    []cache.Output
	label   string
	logCap  int64
}

// DecodeConfig fills v (a pointer to a struct with json tags) from the
// step's configuration fields, rejecting fields v does not know.
func (rc *RunContext) DecodeConfig(v any) error {
	m := make(map[string]any, len(rc.Step.Config))
	for _, f := range rc.Step.Config {
		m[f.Name] = f.Value
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("step %s: config: %w", rc.Step.ID, err)
	}
	return nil
}

// Input gives access to the results of the input called name.
func (rc *RunContext) Input(name string) (*Artifacts, error) {
	rec, ok := rc.inputs[name]
	if !ok {
		return nil, fmt.Errorf("step %s has no input %q", rc.Step.ID, name)
	}
	if isAbsent(rec) {
		return nil, &AbsentError{Input: name, Step: rec.Step, Status: Status(rec.Label), Reason: rec.Error}
	}
	return &Artifacts{cache: rc.cache, rec: rec}, nil
}

// StateDir returns a long-lived directory under the cache for state kept
// outside keys (git mirrors, GOCACHE per toolchain). What a step leaves there
// must never change its results, only their cost.
func (rc *RunContext) StateDir(parts ...string) (string, error) {
	return rc.cache.Subdir(append([]string{"state"}, parts...)...)
}

// PutBytes records a result blob.
func (rc *RunContext) PutBytes(name string, b []byte) error {
	d, err := rc.cache.PutBytes(b)
	if err != nil {
		return err
	}
	rc.results = append(rc.results, cache.Output{Name: name, Kind: cache.KindBlob, Digest: d, Size: int64(len(b))})
	return nil
}

// PutJSON records v as a result blob: compact JSON and a final newline.
func (rc *RunContext) PutJSON(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return rc.PutBytes(name, append(b, '\n'))
}

// PutTree snapshots dir as a result tree.
func (rc *RunContext) PutTree(name, dir string, skip cache.SkipFunc) error {
	d, tree, err := rc.cache.PutTree(dir, skip)
	if err != nil {
		return err
	}
	rc.results = append(rc.results, cache.Output{Name: name, Kind: cache.KindTree, Digest: d, Size: int64(len(tree.Encode()))})
	return nil
}

// PutSideFile records a side artifact (never part of the output digest)
// from a file; a file over the log cap keeps its head and its tail (a
// runner's summary is at the end) with a marker between them.
func (rc *RunContext) PutSideFile(name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if fi, err := f.Stat(); err == nil && rc.logCap > 0 && fi.Size() > rc.logCap {
		head, tail := splitCap(rc.logCap)
		marker := fmt.Sprintf("\n[osbench: output truncated: %d bytes dropped between the first %d and the last %d]\n", fi.Size()-head-tail, head, tail)
		r = io.MultiReader(io.LimitReader(f, head), strings.NewReader(marker), io.NewSectionReader(f, fi.Size()-tail, tail))
	}
	d, n, err := rc.cache.PutReader(r)
	if err != nil {
		return err
	}
	rc.side = append(rc.side, cache.Output{Name: name, Kind: cache.KindBlob, Digest: d, Size: n})
	return nil
}

// splitCap divides a log cap between the head and the tail kept.
func splitCap(limit int64) (head, tail int64) {
	tail = limit / 2
	return limit - tail, tail
}

// SideWriter returns a writer for a side artifact (a log) that keeps at most
// the engine's log cap, streaming: the first half of the cap goes to disk as
// it comes, the last half of the output is kept in a ring of that size, and
// Close joins them with a truncation marker — so the runner's summary at
// the end survives output of any size. Close stores it.
func (rc *RunContext) SideWriter(name string) (io.WriteCloser, error) {
	f, err := os.CreateTemp(rc.WorkDir, "side-*")
	if err != nil {
		return nil, err
	}
	w := &sideWriter{rc: rc, name: name, f: f, limit: rc.logCap}
	if w.limit > 0 {
		w.headCap, w.tailCap = splitCap(w.limit)
	}
	return w, nil
}

// sideWriter is safe for concurrent writers: a command's stdout and stderr
// are copied by separate goroutines into one log.
type sideWriter struct {
	mu      sync.Mutex
	rc      *RunContext
	name    string
	f       *os.File
	limit   int64
	headCap int64
	tailCap int64
	written int64 // to the file (the head)
	// ring holds the last tailCap bytes past the head; ringLen of them
	// are valid, ringAt is where the next byte goes; past counts every
	// byte past the head.
	ring    []byte
	ringAt  int
	ringLen int
	past    int64
}

func (w *sideWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if w.limit > 0 && w.written < w.headCap {
		keep := min(int64(len(p)), w.headCap-w.written)
		m, err := w.f.Write(p[:keep])
		w.written += int64(m)
		if err != nil {
			return m, err
		}
		p = p[keep:]
	} else if w.limit <= 0 {
		m, err := w.f.Write(p)
		w.written += int64(m)
		if err != nil {
			return m, err
		}
		return n, nil
	}
	if len(p) > 0 {
		w.past += int64(len(p))
		if w.ring == nil {
			w.ring = make([]byte, w.tailCap)
		}
		if int64(len(p)) > w.tailCap {
			p = p[int64(len(p))-w.tailCap:]
		}
		for len(p) > 0 && len(w.ring) > 0 {
			c := copy(w.ring[w.ringAt:], p)
			p = p[c:]
			w.ringAt = (w.ringAt + c) % len(w.ring)
			w.ringLen = min(w.ringLen+c, len(w.ring))
		}
	}
	return n, nil
}

func (w *sideWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if dropped := w.past - int64(w.ringLen); dropped > 0 {
		fmt.Fprintf(w.f, "\n[osbench: output truncated: %d bytes dropped between the first %d and the last %d]\n", dropped, w.written, w.ringLen)
	}
	if w.ringLen > 0 {
		start := (w.ringAt - w.ringLen + len(w.ring)) % len(w.ring)
		if start+w.ringLen <= len(w.ring) {
			w.f.Write(w.ring[start : start+w.ringLen])
		} else {
			w.f.Write(w.ring[start:])
			w.f.Write(w.ring[:w.ringAt])
		}
	}
	name := w.f.Name()
	if err := w.f.Close(); err != nil {
		return err
	}
	defer os.Remove(name)
	d, n, err := w.rc.cache.PutFile(name)
	if err != nil {
		return err
	}
	w.rc.side = append(w.rc.side, cache.Output{Name: w.name, Kind: cache.KindBlob, Digest: d, Size: n})
	return nil
}

// SetLabel sets the short human description of this run's result.
func (rc *RunContext) SetLabel(s string) { rc.label = s }

// record builds the action record of a successful run.
func (rc *RunContext) record(key cache.Digest) *cache.ActionRecord {
	sort.Slice(rc.results, func(i, j int) bool { return rc.results[i].Name < rc.results[j].Name })
	return &cache.ActionRecord{
		Key:          key,
		Step:         rc.Step.ID,
		Results:      rc.results,
		Side:         rc.side,
		OutputDigest: outputDigest(rc.results),
		Label:        rc.label,
	}
}

// Artifacts are the results of one input step.
type Artifacts struct {
	cache *cache.Cache
	rec   *cache.ActionRecord
}

// Label is the producing step's label.
func (a *Artifacts) Label() string { return a.rec.Label }

func (a *Artifacts) output(name string, kind cache.Kind) (cache.Output, error) {
	for _, o := range a.rec.Results {
		if o.Name == name {
			if o.Kind != kind {
				return o, fmt.Errorf("result %s of %s is a %s, not a %s", name, a.rec.Step, o.Kind, kind)
			}
			return o, nil
		}
	}
	return cache.Output{}, fmt.Errorf("step %s has no result %q", a.rec.Step, name)
}

// Bytes returns the content of a blob result, checked against its digest.
func (a *Artifacts) Bytes(name string) ([]byte, error) {
	o, err := a.output(name, cache.KindBlob)
	if err != nil {
		return nil, err
	}
	return a.cache.ReadBytes(o.Digest)
}

// DecodeJSON decodes a blob result into v.
func (a *Artifacts) DecodeJSON(name string, v any) error {
	b, err := a.Bytes(name)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Materialize writes a tree result into dir (created if needed).
func (a *Artifacts) Materialize(name, dir string) error {
	o, err := a.output(name, cache.KindTree)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return a.cache.Materialize(o.Digest, dir)
}

// TreeFile reads one file of a tree result without materializing it.
func (a *Artifacts) TreeFile(name, rel string) ([]byte, error) {
	o, err := a.output(name, cache.KindTree)
	if err != nil {
		return nil, err
	}
	return a.cache.ReadTreeFile(o.Digest, filepath.ToSlash(rel))
}

// Tree returns the manifest of a tree result.
func (a *Artifacts) Tree(name string) (*cache.Tree, error) {
	o, err := a.output(name, cache.KindTree)
	if err != nil {
		return nil, err
	}
	return a.cache.ReadTree(o.Digest)
}

// OwnResult returns a result this run has already recorded.
func (rc *RunContext) OwnResult(name string) (cache.Output, error) {
	for _, o := range rc.results {
		if o.Name == name {
			return o, nil
		}
	}
	return cache.Output{}, fmt.Errorf("step %s has recorded no result %q", rc.Step.ID, name)
}

// Blob reads a content-addressed blob the step's configuration names by
// digest — an input too large or too private for the configuration itself
// (a prediction's patch). The digest is in the key, so the step stays a pure
// function of its key; a missing or damaged blob is an error.
func (rc *RunContext) Blob(d cache.Digest) ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("step %s: invalid blob digest %q", rc.Step.ID, d)
	}
	return rc.cache.ReadBytes(d)
}

// SideDigest returns the digest of a side artifact (a log), "" when the step
// kept none by that name.
func (a *Artifacts) SideDigest(name string) cache.Digest {
	for _, o := range a.rec.Side {
		if o.Name == name {
			return o.Digest
		}
	}
	return ""
}

// Side returns the content of a side artifact.
func (a *Artifacts) Side(name string) ([]byte, error) {
	d := a.SideDigest(name)
	if d == "" {
		return nil, fmt.Errorf("step %s kept no side artifact %q", a.rec.Step, name)
	}
	return a.cache.ReadBytes(d)
}

// Has reports whether the step recorded a result by that name.
func (a *Artifacts) Has(name string) bool { return hasResult(a.rec, name) }
