package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Kind says how an output's digest is to be read.
type Kind string

const (
	KindBlob Kind = "blob" // the digest names the bytes themselves
	KindTree Kind = "tree" // the digest names a Tree manifest (JSON) listing file blobs
)

// Output is one named artifact of a step.
type Output struct {
	Name   string `json:"name"`
	Kind   Kind   `json:"kind"`
	Digest Digest `json:"digest"`
	Size   int64  `json:"size"`
}

// ActionRecord is what the action cache keeps for one action key.
type ActionRecord struct {
	Key  Digest `json:"key"`
	Step string `json:"step"`
	// Results feed downstream keys through OutputDigest. Side artifacts (raw
	// logs with timings and absolute paths) are kept for people and never do.
	Results      []Output `json:"results"`
	Side         []Output `json:"side,omitempty"`
	OutputDigest Digest   `json:"output_digest"`
	// Label is a short human description of the result ("go1.25.1",
	// "12 pass, 1 fail"); explain shows it when an input changed.
	Label string `json:"label,omitempty"`
	// Failed records a step that ended in error. Such records are kept so
	// explain can show them, and are never served as hits.
	Failed   bool          `json:"failed,omitempty"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	Created  time.Time     `json:"created"`
}

func (c *Cache) actionPath(key Digest) string {
	return filepath.Join(c.dir, "ac", string(key[:2]), string(key))
}

// GetAction returns the record for key, or ErrMiss when there is none or it
// cannot be read. It bumps the record's last-use time (at most hourly, to
// keep no-op builds from writing) so gc trims by last use. With a remote
// attached, a record missing (or failed, or incomplete) here is pulled
// from the remote with everything it reaches (Pull).
func (c *Cache) GetAction(key Digest) (*ActionRecord, error) {
	if c.remote != nil {
		return c.Pull(context.Background(), key)
	}
	return c.getActionLocal(key)
}

func (c *Cache) getActionLocal(key Digest) (*ActionRecord, error) {
	if !key.Valid() {
		return nil, fmt.Errorf("get action: invalid key %q", key)
	}
	p := c.actionPath(key)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, err
	}
	var rec ActionRecord
	if err := json.Unmarshal(b, &rec); err != nil || rec.Key != key {
		// A record that does not decode, or belongs to another key, is a miss.
		return nil, ErrMiss
	}
	c.touch(p)
	return &rec, nil
}

// touch marks p as used now if its mtime is older than an hour.
func (c *Cache) touch(p string) {
	now := c.now()
	if fi, err := os.Stat(p); err == nil && now.Sub(fi.ModTime()) > time.Hour {
		os.Chtimes(p, now, now)
	}
}

// PutAction stores rec under its key. Call it only after every blob the
// record names is stored: the record is what makes them reachable. With a
// writable remote attached, a successful record is then uploaded (Push);
// a failed one never is.
func (c *Cache) PutAction(rec *ActionRecord) error {
	if err := c.putActionLocal(rec); err != nil {
		return err
	}
	return c.Push(context.Background(), rec)
}

func (c *Cache) putActionLocal(rec *ActionRecord) error {
	if !rec.Key.Valid() {
		return fmt.Errorf("put action: invalid key %q", rec.Key)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = writeAtomic(filepath.Join(c.dir, "tmp"), c.actionPath(rec.Key), bytes.NewReader(b), true)
	return err
}

// DeleteAction forgets key (used when an output turned out corrupt).
func (c *Cache) DeleteAction(key Digest) error {
	if !key.Valid() {
		return nil
	}
	err := os.Remove(c.actionPath(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
