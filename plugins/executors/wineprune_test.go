package executors

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

func TestPruneWinePrefixes(t *testing.T) {
	state := t.TempDir()
	now := time.Now()
	old := now.Add(-100 * time.Hour)
	dir := filepath.Join(state, "prefixes", "uid-2100000000")
	type slot struct {
		name   string
		ready  bool
		used   time.Time
		locked bool
		pruned bool
	}
	slots := []slot{
		{name: "slot-0", ready: true, used: old, pruned: true},
		{name: "slot-1", ready: true, used: now.Add(-time.Hour)},
		{name: "slot-2", ready: true, used: old, locked: true},
		{name: "slot-3", ready: false, pruned: true}, // never completed
	}
	for _, s := range slots {
		p := filepath.Join(dir, s.name)
		if err := os.MkdirAll(filepath.Join(p, "drive_c"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "drive_c", "big.dll"), make([]byte, 1000), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".lock", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if s.ready {
			if err := os.WriteFile(p+".ready", []byte("wine-8"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p+".ready", s.used, s.used); err != nil {
				t.Fatal(err)
			}
		}
		if s.locked {
			l := flock.New(p + ".lock")
			if ok, err := l.TryLock(); err != nil || !ok {
				t.Fatalf("locking %s: %v", p, err)
			}
			t.Cleanup(func() { l.Close() })
		}
	}

	res, err := PruneWinePrefixes(state, 72*time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Prefixes != 2 || res.Bytes != 2000 {
		t.Errorf("pruned %d prefixes of %d bytes, want 2 of 2000", res.Prefixes, res.Bytes)
	}
	for _, s := range slots {
		_, err := os.Stat(filepath.Join(dir, s.name))
		if gone := os.IsNotExist(err); gone != s.pruned {
			t.Errorf("%s: removed = %v, want %v", s.name, gone, s.pruned)
		}
		if _, err := os.Stat(filepath.Join(dir, s.name) + ".ready"); s.pruned && !os.IsNotExist(err) {
			t.Errorf("%s: ready file left behind a removed prefix", s.name)
		}
	}

	// A state directory without prefixes is nothing to do.
	if res, err := PruneWinePrefixes(t.TempDir(), time.Hour, now); err != nil || res.Prefixes != 0 {
		t.Errorf("empty state: %+v, %v", res, err)
	}
}

// TestLeaseStampsLastUse: a lease moves the ready file's time, which is
// what pruning reads.
func TestLeaseStampsLastUse(t *testing.T) {
	dir := t.TempDir()
	pool := &prefixPool{dir: dir, size: 1, readyMark: "m", retryEvery: time.Millisecond,
		create: func(_ context.Context, prefix string) error { return nil }}
	l, err := pool.lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l.release()
	ready := pool.slotPath(0) + ".ready"
	old := time.Now().Add(-100 * time.Hour)
	if err := os.Chtimes(ready, old, old); err != nil {
		t.Fatal(err)
	}
	l, err = pool.lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	info, err := os.Stat(ready)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(info.ModTime()) > time.Minute {
		t.Errorf("ready file time %v after a lease, want now", info.ModTime())
	}
}
