package executors

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Each command with a work dir runs under a disk limit: the executor
// samples how much the work dir holds (the step's checkout, its build,
// its temp dir and home, the copy-on-write scratch of shared caches) and
// stops the command once it passes the limit (issue 20). A test that
// writes without end then fails alone, with the figures, instead of
// filling the file system under every step that shares it — where each
// neighbour's failure would be a full disk nobody can attribute. As with
// memory, the decision is that a step needing more than its limit is the
// machine's to provide: the run is ended and reported as a quota error
// (EDQUOT, an infrastructure failure for every step kind: never cached),
// and the operator raises the limit. The limit is outside every key: it
// can only turn a run into no result.
//
// Sampling, not a file-system quota: project quotas need a file system
// mounted for them, a loop-mounted image per step costs a mkfs and pins
// the step's size up front. Kubernetes' kubelet measures ephemeral
// storage the same way. A burst between two samples can go past the limit
// by what the command writes in one period; the free-space watch of the
// test step and engine.InfraCause still catch a disk filled outright.

// DiskLimitVar is the environment variable of osbench that sets each
// command's disk limit: a size ("20G", "512M") or "0" for none. By default
// a command may hold a quarter of its work dir's file system.
const DiskLimitVar = "OSBENCH_STEP_DISK"

// autoDiskLimit is Local.DiskLimit's "a quarter of the work dir's file
// system" (at least minAutoDiskLimit), resolved per command.
const autoDiskLimit = -1

const minAutoDiskLimit = 1 << 30

// DefaultDiskLimit is Local.DiskLimit from DiskLimitVar: a size, 0 for
// none, or autoDiskLimit when unset. A bad value is said once and the
// default used.
func DefaultDiskLimit() int64 {
	if v, ok := os.LookupEnv(DiskLimitVar); ok && strings.TrimSpace(v) != "" {
		n, err := parseSize(v)
		if err == nil {
			return n
		}
		warnOnce(fmt.Sprintf("%s=%q: %v; using the default (a quarter of the work dir's file system)", DiskLimitVar, v, err))
	}
	return autoDiskLimit
}

// diskLimitFor resolves a configured limit for a command's work dir: 0
// when there is none to apply.
func diskLimitFor(configured int64, workDir string) int64 {
	if workDir == "" || configured == 0 {
		return 0
	}
	if configured > 0 {
		return configured
	}
	size, ok := fileSystemSize(workDir)
	if !ok {
		return 0
	}
	return max(size/4, minAutoDiskLimit)
}

// diskSampleEvery is the least time between two measures of a work dir;
// a walk that takes longer waits diskWalkShare times its own duration, so
// measuring costs at most 2% of one CPU however big the tree (a C++
// build's tree of 50,000 files takes about half a second to walk).
const (
	diskSampleEvery = 5 * time.Second
	diskWalkShare   = 50
)

// diskLimitWatch measures a command's work dir while it runs.
type diskLimitWatch struct {
	dir   string
	limit int64
	over  chan struct{} // closed when the work dir passed limit
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	most  int64 // the most the work dir held at a measure
}

// watchDiskLimit starts measuring dir against limit; nil (no watch) when
// limit is 0. Callers must call end.
func watchDiskLimit(dir string, limit int64) *diskLimitWatch {
	if limit <= 0 {
		return nil
	}
	w := &diskLimitWatch{dir: dir, limit: limit, over: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *diskLimitWatch) loop() {
	defer close(w.done)
	for {
		start := time.Now()
		used := treeUsage(w.dir)
		w.mu.Lock()
		w.most = max(w.most, used)
		w.mu.Unlock()
		if used > w.limit {
			close(w.over)
			return
		}
		wait := max(diskSampleEvery, diskWalkShare*time.Since(start))
		t := time.NewTimer(wait)
		select {
		case <-w.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// exceeded is closed once the work dir passed the limit (never, for a nil
// watch).
func (w *diskLimitWatch) exceeded() <-chan struct{} {
	if w == nil {
		return nil
	}
	return w.over
}

// end stops the watch and returns the most the work dir held at a
// measure.
func (w *diskLimitWatch) end() int64 {
	if w == nil {
		return 0
	}
	select {
	case <-w.over:
	default:
		close(w.stop)
	}
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.most
}

// errOverDiskLimit is what Run returns for a command stopped at its disk
// limit: a quota error, which every step kind's failure classification
// (engine.InfraCause) takes for the machine's.
func errOverDiskLimit(argv0, dir string, used, limit int64) error {
	return fmt.Errorf("%s stopped: its work dir %s held %s, past the disk limit of %s (%s): %w",
		argv0, dir, sizeText(used), sizeText(limit), DiskLimitVar, errDiskQuota)
}

// errDiskQuota is the quota error of a command stopped at its disk limit.
var errDiskQuota error = syscall.EDQUOT

// sizeText prints a byte count in MiB.
func sizeText(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// treeUsage is the disk space the tree at dir takes (allocated blocks,
// each hard-linked file once). Entries that vanish or cannot be read
// while the command runs count as nothing.
func treeUsage(dir string) int64 {
	var total int64
	seen := map[fileID]bool{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // gone or unreadable: the next measure sees what is left
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		n, id, linked := allocated(info)
		if linked {
			if seen[id] {
				return nil
			}
			seen[id] = true
		}
		total += n
		return nil
	})
	return total
}
