//go:build unix

package executors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeCreator stands in for wineboot: it records its calls and leaves a
// file in the prefix, so tests can tell a built prefix from a reused one.
type fakeCreator struct {
	calls atomic.Int32
	fail  error
	// failFirst fails only the first that many calls (with fail).
	failFirst int32
}

func (f *fakeCreator) create(_ context.Context, prefix string) error {
	f.calls.Add(1)
	if entries, err := os.ReadDir(prefix); err != nil || len(entries) != 0 {
		return errors.New("create was given a prefix that is not an empty directory")
	}
	if err := os.WriteFile(filepath.Join(prefix, "system.reg"), []byte("built"), 0o644); err != nil {
		return err
	}
	if f.failFirst > 0 && f.calls.Load() > f.failFirst {
		return nil
	}
	return f.fail
}

func newTestPool(dir string, size int, creator *fakeCreator) *prefixPool {
	return &prefixPool{
		dir:        dir,
		size:       size,
		readyMark:  "wine-test\n",
		create:     creator.create,
		retryEvery: 10 * time.Millisecond,
	}
}

func mustLease(t *testing.T, p *prefixPool) *prefixLease {
	t.Helper()
	l, err := p.lease(context.Background())
	if err != nil {
		t.Fatalf("lease: %v", err)
	}
	return l
}

func TestPrefixPoolBuildsOnceAndReuses(t *testing.T) {
	creator := &fakeCreator{}
	pool := newTestPool(t.TempDir(), 2, creator)
	first := mustLease(t, pool)
	if err := first.release(); err != nil {
		t.Fatal(err)
	}
	second := mustLease(t, pool)
	defer second.release()
	if second.prefix != first.prefix {
		t.Errorf("second lease got %s, want the released %s", second.prefix, first.prefix)
	}
	if n := creator.calls.Load(); n != 1 {
		t.Errorf("prefix built %d times, want once", n)
	}
}

func TestPrefixPoolRebuildsIncompletePrefixes(t *testing.T) {
	tests := []struct {
		desc      string
		ready     string // content of the ready file; "" for none
		prefix    bool   // whether the prefix directory exists
		wantBuild bool
	}{
		{"never built", "", false, true},
		{"half built", "", true, true},
		{"built by another Wine", "wine-older\n", true, true},
		{"ready file without prefix", "wine-test\n", false, true},
		{"complete", "wine-test\n", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			creator := &fakeCreator{}
			pool := newTestPool(t.TempDir(), 1, creator)
			prefix := pool.slotPath(0)
			leftover := filepath.Join(prefix, "drive_c", "leftover")
			if tt.prefix {
				writeFile(t, leftover, "from before", 0o644)
			}
			if tt.ready != "" {
				writeFile(t, prefix+".ready", tt.ready, 0o644)
			}

			lease := mustLease(t, pool)
			defer lease.release()

			if built := creator.calls.Load() == 1; built != tt.wantBuild {
				t.Fatalf("built = %v, want %v", built, tt.wantBuild)
			}
			_, err := os.Stat(leftover)
			if kept := err == nil; tt.wantBuild && kept {
				t.Errorf("a rebuilt prefix kept %s from the incomplete one", leftover)
			} else if !tt.wantBuild && !kept {
				t.Errorf("a complete prefix lost %s: %v", leftover, err)
			}
			if mark, err := os.ReadFile(prefix + ".ready"); err != nil || string(mark) != "wine-test\n" {
				t.Errorf("ready file = %q, %v; want %q", mark, err, "wine-test\n")
			}
		})
	}
}

func TestPrefixPoolFailedBuildIsRetried(t *testing.T) {
	dir := t.TempDir()
	failing := &fakeCreator{fail: errors.New("wineboot: exit code 1")}
	_, err := newTestPool(dir, 1, failing).lease(context.Background())
	if err == nil || !strings.Contains(err.Error(), "wineboot: exit code 1") {
		t.Fatalf("lease error = %v, want the creation failure", err)
	}
	if n := failing.calls.Load(); n != prefixBuildAttempts {
		t.Errorf("a failing build was tried %d times in one lease, want %d", n, prefixBuildAttempts)
	}
	if _, err := os.Stat(filepath.Join(dir, "slot-0.ready")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed build left a ready file (stat: %v)", err)
	}

	working := &fakeCreator{}
	lease := mustLease(t, newTestPool(dir, 1, working))
	defer lease.release()
	if working.calls.Load() != 1 {
		t.Errorf("the prefix of a failed build was reused instead of rebuilt")
	}
}

// A setup command that fails once (Wine does, with no output, under load)
// costs a second build, not the lease.
func TestPrefixPoolBuildFailingOnceIsBuiltAgain(t *testing.T) {
	dir := t.TempDir()
	flaky := &fakeCreator{fail: errors.New("wine reg: exit code 1"), failFirst: 1}
	lease := mustLease(t, newTestPool(dir, 1, flaky))
	defer lease.release()
	if n := flaky.calls.Load(); n != 2 {
		t.Errorf("built %d times, want 2 (the failed build, then one from nothing)", n)
	}
	if mark, err := os.ReadFile(filepath.Join(dir, "slot-0.ready")); err != nil || string(mark) != "wine-test\n" {
		t.Errorf("ready file = %q, %v; want the prefix marked complete", mark, err)
	}
}

// TestPrefixPoolLeasesAreExclusive uses a pool object per lease, as
// separate osbench processes sharing a state directory would: only the
// file locks keep them apart.
func TestPrefixPoolLeasesAreExclusive(t *testing.T) {
	dir := t.TempDir()
	creator := &fakeCreator{}
	a := mustLease(t, newTestPool(dir, 2, creator))
	b := mustLease(t, newTestPool(dir, 2, creator))
	if a.prefix == b.prefix {
		t.Fatalf("two leases share the prefix %s", a.prefix)
	}
	defer b.release()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := newTestPool(dir, 2, creator).lease(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third lease of two prefixes: error = %v, want it to wait until the deadline", err)
	}

	time.AfterFunc(50*time.Millisecond, func() { _ = a.release() })
	c := mustLease(t, newTestPool(dir, 2, creator))
	defer c.release()
	if c.prefix != a.prefix {
		t.Errorf("waiting lease got %s, want the released %s", c.prefix, a.prefix)
	}
	if n := creator.calls.Load(); n != 2 {
		t.Errorf("prefixes built %d times, want 2", n)
	}
}
