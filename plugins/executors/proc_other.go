//go:build !linux

package executors

import (
	"os/exec"
	"syscall"
)

// setDeathSignal does nothing: only Linux can tie a child's life to its
// parent's.
func setDeathSignal(*syscall.SysProcAttr) {}

// startWaiter watches the started command c. exited is closed once its
// first process has exited; wait returns how it ended.
//
// Without waitid(WNOWAIT) the process can only be observed by reaping it, so
// the group is killed after its leader's pid was freed; pids are handed out
// in sequence, so hitting an unrelated process group in that window is
// unlikely but, unlike on Linux, not impossible.
func startWaiter(c *exec.Cmd) (exited <-chan struct{}, wait func() error) {
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = c.Wait()
	}()
	return done, func() error {
		<-done
		return err
	}
}
