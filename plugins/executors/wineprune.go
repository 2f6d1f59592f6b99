package executors

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// PruneResult says what PruneWinePrefixes removed.
type PruneResult struct {
	Prefixes int   // prefixes removed
	Bytes    int64 // their size on disk
}

// PruneWinePrefixes removes the Wine prefixes under the wine executor's
// state directory that no command has leased for unusedFor, and those that
// were never completed. Each prefix is about 700 MB, and the pool keeps one
// per run user and concurrent command: the uids of commands that write
// shared caches depend on which caches they write (slotClass), so after a
// toolchain bump or with another cache path the old prefixes are never
// leased again and would stay on disk forever.
//
// A prefix is removed under its own lock, so one a command is using, or
// leases meanwhile, is never touched: a lease that comes after finds no
// ready file and builds the prefix again. stateDir is the executor's state
// directory (<cache>/state/executors/wine); a missing one is no error.
func PruneWinePrefixes(stateDir string, unusedFor time.Duration, now time.Time) (PruneResult, error) {
	var res PruneResult
	locks, err := filepath.Glob(filepath.Join(stateDir, "prefixes", "uid-*", "slot-*.lock"))
	if err != nil {
		return res, err
	}
	var errs []error
	for _, lockPath := range locks {
		prefix := strings.TrimSuffix(lockPath, ".lock")
		removed, size, err := prunePrefix(prefix, unusedFor, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if removed {
			res.Prefixes++
			res.Bytes += size
		}
	}
	return res, errors.Join(errs...)
}

// prunePrefix removes one prefix if it is free and stale.
func prunePrefix(prefix string, unusedFor time.Duration, now time.Time) (bool, int64, error) {
	lock := flock.New(prefix + ".lock")
	locked, err := lock.TryLock()
	if err != nil {
		return false, 0, fmt.Errorf("locking Wine prefix %s: %w", prefix, err)
	}
	if !locked {
		return false, 0, nil // in use
	}
	defer lock.Close()
	info, err := os.Stat(prefix + ".ready")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Never completed (or already pruned): a lease rebuilds it anyway.
	case err != nil:
		return false, 0, err
	case now.Sub(info.ModTime()) < unusedFor:
		return false, 0, nil
	}
	if _, err := os.Lstat(prefix); errors.Is(err, fs.ErrNotExist) {
		return false, 0, nil
	}
	size := diskUsage(prefix)
	// The ready file first, as ensureComplete does: a prune killed halfway
	// leaves a prefix that is rebuilt, never one taken for complete.
	if err := os.Remove(prefix + ".ready"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, 0, fmt.Errorf("pruning Wine prefix %s: %w", prefix, err)
	}
	if err := os.RemoveAll(prefix); err != nil {
		return false, 0, fmt.Errorf("pruning Wine prefix %s: %w", prefix, err)
	}
	return true, size, nil
}

// diskUsage is the apparent size of the regular files under dir, for the
// report only (errors count as nothing).
func diskUsage(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
