package testrun

import (
	"sync"
	"time"
)

// A build that runs out of disk rarely says so in words osbench can match:
// CMake's try_compile reports "Cannot open file for write ... No such file
// or directory", a linker "final link failed", a test "1 missing". Such a
// run, cached as a result, is a fact about the machine taken for one about
// the code (the corpus kept jansson's "no tests" from a disk-full spell).
// So the test step also watches the free space of the file system its
// commands write (the work dir's, which holds the checkout, the build and
// the copy-on-write scratch): a run that did not end cleanly while that
// fell below lowDiskFree is the machine's (machineFailure), whatever it
// printed.

// lowDiskFree is the free space below which a failing run is taken for a
// full disk: less than a build or a test needs to write its files.
const lowDiskFree = 256 << 20

// diskSampleEvery is how often the free space is read during a command:
// often enough to see a spell of a few seconds, cheap (one statfs).
const diskSampleEvery = 500 * time.Millisecond

// diskWatch records the least free space of a file system while commands
// run.
type diskWatch struct {
	dir string
	mu  sync.Mutex
	// low is the least free space seen since the last reset, -1 none.
	low int64
}

func newDiskWatch(dir string) *diskWatch { return &diskWatch{dir: dir, low: -1} }

// during samples the free space until stop is called; stop takes a last
// sample, so a command shorter than a sample period is seen too.
func (d *diskWatch) during() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(diskSampleEvery)
		defer t.Stop()
		for {
			d.sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		d.sample()
	}
}

func (d *diskWatch) sample() {
	free, ok := freeBytes(d.dir)
	if !ok {
		return
	}
	d.mu.Lock()
	if d.low < 0 || free < d.low {
		d.low = free
	}
	d.mu.Unlock()
}

// lowest is the least free space seen since the last reset, -1 none.
func (d *diskWatch) lowest() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.low
}

func (d *diskWatch) reset() {
	d.mu.Lock()
	d.low = -1
	d.mu.Unlock()
}
