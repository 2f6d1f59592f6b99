package executors

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setDeathSignal makes the kernel kill the command if osbench dies (kill -9,
// OOM) so that no test suite runs on unsupervised. The runtime applies it
// after the switch of user, which would otherwise clear it.
func setDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}

// startWaiter watches the started command c. exited is closed once its
// first process has exited; wait then reaps it and collects the output.
//
// The process is left unreaped (a zombie) until wait is called, and that
// matters: while it exists, its pid, which is also the id of its process
// group, cannot be reused, so killing the group afterwards can only hit
// processes the command started, never an unrelated process that happened
// to get the same number.
func startWaiter(c *exec.Cmd) (exited <-chan struct{}, wait func() error) {
	done := make(chan struct{})
	pid := c.Process.Pid
	go func() {
		defer close(done)
		for {
			var info unix.Siginfo
			err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if !errors.Is(err, unix.EINTR) {
				// Any other error (ECHILD) means there is nothing
				// left to wait for; c.Wait reports it.
				return
			}
		}
	}()
	return done, c.Wait
}
