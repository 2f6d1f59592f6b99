package cache

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Stats describes what a cache holds.
type Stats struct {
	Actions     int   `json:"actions"`
	Failed      int   `json:"failed_actions"`
	Blobs       int   `json:"blobs"`
	BlobBytes   int64 `json:"blob_bytes"`
	ActionBytes int64 `json:"action_bytes"`
}

// Stats walks the cache and counts its entries.
func (c *Cache) Stats() (Stats, error) {
	var s Stats
	err := c.walkEntries("cas", func(p string, fi fs.FileInfo) error {
		s.Blobs++
		s.BlobBytes += fi.Size()
		return nil
	})
	if err != nil {
		return s, err
	}
	err = c.walkEntries("ac", func(p string, fi fs.FileInfo) error {
		s.Actions++
		s.ActionBytes += fi.Size()
		if rec, err := readRecordFile(p); err == nil && rec.Failed {
			s.Failed++
		}
		return nil
	})
	return s, err
}

func (c *Cache) walkEntries(sub string, fn func(p string, fi fs.FileInfo) error) error {
	return filepath.WalkDir(filepath.Join(c.dir, sub), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed under us by another process
		}
		return fn(p, fi)
	})
}

func readRecordFile(p string) (*ActionRecord, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var rec ActionRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// TrimOptions bound what a cache keeps. Zero means no bound.
type TrimOptions struct {
	MaxSize int64         // total bytes of blobs and records
	MaxAge  time.Duration // since last use
	// Grace keeps every blob stored (or stored again) within this long,
	// reachable or not: a running evaluation stores its patches before any
	// record refers to them, and a gc between the two must not take them.
	Grace time.Duration
}

// TrimResult says what Trim removed.
type TrimResult struct {
	ActionsRemoved int   `json:"actions_removed"`
	BlobsRemoved   int   `json:"blobs_removed"`
	BytesFreed     int64 `json:"bytes_freed"`
	BytesKept      int64 `json:"bytes_kept"`
}

type acEntry struct {
	path    string
	used    time.Time
	size    int64
	reaches []Digest // blobs (and tree members) the record keeps alive
}

// Trim removes action records by last use (older than MaxAge, then oldest
// first until the cache fits MaxSize) and then every blob no remaining record
// reaches. It holds the cache lock exclusively, so it waits for running
// builds and they wait for it.
func (c *Cache) Trim(opt TrimOptions) (TrimResult, error) {
	var res TrimResult
	if err := c.lock.Lock(); err != nil {
		return res, fmt.Errorf("lock cache: %w", err)
	}
	defer c.lock.Unlock()

	var entries []acEntry
	err := c.walkEntries("ac", func(p string, fi fs.FileInfo) error {
		e := acEntry{path: p, used: fi.ModTime(), size: fi.Size()}
		if rec, err := readRecordFile(p); err == nil {
			e.reaches = c.reachable(rec)
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return res, err
	}
	blobSize := map[Digest]int64{}
	young := map[Digest]bool{}
	now := c.now()
	err = c.walkEntries("cas", func(p string, fi fs.FileInfo) error {
		d := Digest(filepath.Base(p))
		blobSize[d] = fi.Size()
		if opt.Grace > 0 && now.Sub(fi.ModTime()) < opt.Grace {
			young[d] = true
		}
		return nil
	})
	if err != nil {
		return res, err
	}

	// Newest first: the kept prefix is what survives.
	sort.Slice(entries, func(i, j int) bool { return entries[i].used.After(entries[j].used) })
	kept := map[Digest]bool{}
	var keptBytes int64
	for _, e := range entries {
		cost := e.size
		for _, d := range e.reaches {
			if !kept[d] {
				cost += blobSize[d]
			}
		}
		tooOld := opt.MaxAge > 0 && now.Sub(e.used) > opt.MaxAge
		tooBig := opt.MaxSize > 0 && keptBytes+cost > opt.MaxSize
		if tooOld || tooBig || e.reaches == nil {
			if err := os.Remove(e.path); err == nil {
				res.ActionsRemoved++
				res.BytesFreed += e.size
			}
			continue
		}
		keptBytes += cost
		for _, d := range e.reaches {
			kept[d] = true
		}
	}
	for d, size := range blobSize {
		if kept[d] || young[d] {
			continue
		}
		if err := os.Remove(c.blobPath(d)); err == nil {
			res.BlobsRemoved++
			res.BytesFreed += size
		}
	}
	res.BytesKept = keptBytes
	// Temp files older than a day are leftovers of killed processes.
	tmps, _ := os.ReadDir(filepath.Join(c.dir, "tmp"))
	for _, t := range tmps {
		if fi, err := t.Info(); err == nil && now.Sub(fi.ModTime()) > 24*time.Hour {
			os.Remove(filepath.Join(c.dir, "tmp", t.Name()))
		}
	}
	return res, nil
}

// reachable lists the blobs a record keeps alive: its outputs and, for
// trees, every member.
func (c *Cache) reachable(rec *ActionRecord) []Digest {
	out := []Digest{}
	for _, o := range append(append([]Output{}, rec.Results...), rec.Side...) {
		if !o.Digest.Valid() {
			continue
		}
		out = append(out, o.Digest)
		if o.Kind == KindTree {
			if t, err := c.ReadTree(o.Digest); err == nil {
				for _, e := range t.Entries {
					out = append(out, e.Digest)
				}
			}
		}
	}
	return out
}

// VerifyResult lists what Verify found wrong.
type VerifyResult struct {
	Blobs   int      `json:"blobs_checked"`
	Corrupt []Digest `json:"corrupt"`
	Broken  []Digest `json:"broken_actions"` // records naming a missing blob; removed
}

// Verify rehashes every blob (removing bad ones) and drops action records
// that name a blob that is gone, so the next build recomputes them.
func (c *Cache) Verify() (VerifyResult, error) {
	var res VerifyResult
	err := c.walkEntries("cas", func(p string, fi fs.FileInfo) error {
		d := Digest(filepath.Base(p))
		res.Blobs++
		if !d.Valid() {
			os.Remove(p)
			res.Corrupt = append(res.Corrupt, d)
			return nil
		}
		if err := c.VerifyBlob(d, fi.Size()); err != nil {
			res.Corrupt = append(res.Corrupt, d)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	err = c.walkEntries("ac", func(p string, fi fs.FileInfo) error {
		rec, err := readRecordFile(p)
		ok := err == nil
		if ok {
			for _, o := range append(append([]Output{}, rec.Results...), rec.Side...) {
				if !c.Has(o.Digest, o.Size) {
					ok = false
				}
			}
		}
		if !ok {
			os.Remove(p)
			res.Broken = append(res.Broken, Digest(filepath.Base(p)))
		}
		return nil
	})
	return res, err
}
