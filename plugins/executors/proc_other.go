//go:build !linux

package executors

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
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

// acquireSlot keeps the fixed unprivileged user: only Linux gives each
// command a uid of its own.
func acquireSlot(who runUser, _ []string) (runUser, func(), error) { return who, func() {}, nil }

// sandbox is Linux's; elsewhere commands run without one (a nil *sandbox).
type sandbox struct{}

func wrapInSandbox(_ *exec.Cmd, _ runUser, _ time.Duration, req sandboxRequest) (*sandbox, error) {
	if len(req.cmd.LoopbackPorts) > 0 {
		return nil, errors.New("loopback ports need the Linux sandbox")
	}
	return nil, nil
}

func (*sandbox) started(int) error                                    { return nil }
func (*sandbox) oomKills() int                                        { return 0 }
func (*sandbox) cpuFigures() (used, wait time.Duration, scope string) { return 0, 0, "" }
func (*sandbox) abandon()                                             {}
func (*sandbox) cleanup()                                             {}
func (*sandbox) exitStatus() (int, int, error)                        { return -1, 0, nil }

// testLauncherUsable: the test launcher needs Linux namespaces.
func testLauncherUsable() error { return errors.New("the test launcher needs Linux namespaces") }

func writeTestLauncher(string, []string) (string, error) { return "", errors.New("no test launcher") }

func testLauncherDir(string, []string) string { return "" }

func withTestLauncher(env []string, _ string, _ bool) []string { return env }
