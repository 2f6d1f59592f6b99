package executors

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

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

// sandbox is the init a command runs under (see sandboxInitArg0): what
// the parent keeps of it while it runs.
type sandbox struct {
	spec   sandboxSpec
	specW  *os.File
	status *os.File
	// childEnds are the init's ends of the pipes, closed once it started.
	childEnds []*os.File
	// release removes the command's copy-on-write scratch space.
	release func()
	// mem is the command's memory cgroup (memlimit_linux.go), nil when
	// it has none.
	mem *memCgroup
	// cpu is where the command's CPU figures come from
	// (cpuwait_linux.go).
	cpu cpuAccount
}

// cleanup releases what the command needed while it ran; call it once the
// init has exited.
func (sb *sandbox) cleanup() {
	if sb != nil && sb.release != nil {
		sb.release()
	}
	if sb != nil && sb.mem != nil {
		sb.mem.remove()
	}
	if sb != nil && sb.cpu.cg != nil {
		sb.cpu.cg.remove() // fine when it was the memory cgroup too
	}
}

// wrapInSandbox turns c into the start of a sandbox init that runs c's
// program as who. Namespaces are used when osbench is root: PID and mount
// always, network unless the command asks for the host's, and the view of
// the file system unless a test turned it off.
func wrapInSandbox(c *exec.Cmd, who runUser, grace time.Duration, req sandboxRequest) (*sandbox, error) {
	namespaces := os.Geteuid() == 0
	var (
		cow     []viewMount
		release = func() {}
	)
	if namespaces {
		var err error
		if cow, release, err = cowScratch(req.cmd); err != nil {
			return nil, err
		}
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		release()
		return nil, err
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		release()
		specR.Close()
		specW.Close()
		return nil, err
	}
	sb := &sandbox{
		spec: sandboxSpec{
			Path: c.Path, Argv: c.Args, Env: dedupEnv(c.Env), Dir: c.Dir,
			Drop: who.drop, UID: who.uid, GID: who.gid, Groups: who.groups,
			Namespaces: namespaces,
			Grace:      grace,
			TmpSize:    privateTmpSize,
			Network:    req.cmd.Network || req.off.network,
			View:       namespaces && !req.off.view,
		},
		specW: specW, status: statusR, childEnds: []*os.File{specR, statusW},
		release: release,
	}
	if namespaces && req.memLimit > 0 {
		// Only a root osbench: its PID namespace kills every process
		// of the command with the init, so the cgroup is empty, and
		// can be removed, when the command ends.
		if sb.mem, err = newMemCgroup(req.memLimit); err != nil {
			warnOnce("steps run without a memory limit: " + err.Error())
		}
	}
	if namespaces {
		switch {
		case sb.mem != nil && sb.mem.v2:
			sb.cpu.cg = sb.mem.cgroupDir // one cgroup2 cgroup per command
		default:
			if sb.cpu.cg, err = newCPUCgroup(); err != nil {
				warnOnce(noCPUCgroup + err.Error())
			}
		}
	}
	switch {
	case sb.spec.View:
		sb.spec.Mounts = viewMounts(req.cmd, c, who, req.launcher, cow)
	case namespaces:
		sb.spec.Keep = keepPaths(c, req.keep...)
		for _, d := range append(slices.Clone(req.cmd.ReadOnlyDirs), req.cmd.ReadOnlyFiles...) {
			sb.spec.Mounts = append(sb.spec.Mounts, viewMount{Path: d, Kind: mountRO})
		}
		sb.spec.Mounts = append(sb.spec.Mounts, cow...)
	default:
		warnOnce("osbench is not root: steps run as its own user, with the host's network and its whole file " +
			"system (read-only and copy-on-write dirs are writable), share /tmp and can reach each other's work " +
			"directories; leftover processes are killed through a child subreaper, which a kill -9 of osbench escapes; " +
			"a test phase that timed out while starved of CPU cannot be told from one that hung (docs/security.md)")
	}
	// The init's own binary, whatever happened to the file since osbench
	// started (a rebuild replaces it).
	c.Path = "/proc/self/exe"
	c.Args = []string{sandboxInitArg0}
	c.Env = []string{}
	c.Dir = "/"
	c.ExtraFiles = []*os.File{specR, statusW}
	if len(req.cmd.LoopbackPorts) > 0 {
		if err := sb.forwardLoopback(c, req.cmd.LoopbackPorts); err != nil {
			sb.abandon()
			return nil, err
		}
	}
	attr := &syscall.SysProcAttr{Setpgid: true}
	if sb.spec.Namespaces {
		attr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNS
		if !sb.spec.Network {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
	}
	setDeathSignal(attr)
	c.SysProcAttr = attr
	return sb, nil
}

// started puts the init, pid, in the command's memory cgroup and hands it
// the spec: the init waits for the spec before it starts the command, so
// every process of the command is in the cgroup.
func (sb *sandbox) started(pid int) error {
	for _, f := range sb.childEnds {
		f.Close()
	}
	if sb.mem != nil {
		if err := sb.mem.add(pid); err != nil {
			warnOnce("a step runs without its memory limit: " + err.Error())
			if sb.cpu.cg == sb.mem.cgroupDir {
				sb.cpu.cg = nil
			}
			sb.mem.remove()
			sb.mem = nil
		}
	}
	if sb.cpu.cg != nil && (sb.mem == nil || sb.cpu.cg != sb.mem.cgroupDir) {
		if err := sb.cpu.cg.add(pid); err != nil {
			warnOnce(noCPUCgroup + err.Error())
			sb.cpu.cg.remove()
			sb.cpu.cg = nil
		}
	}
	sb.cpu.start()
	b, err := json.Marshal(sb.spec)
	if err != nil {
		return err
	}
	_, err = sb.specW.Write(b)
	sb.specW.Close()
	return err
}

// abandon releases the pipes of an init that never started.
func (sb *sandbox) abandon() {
	for _, f := range append(sb.childEnds, sb.specW, sb.status) {
		f.Close()
	}
	sb.cleanup()
}

// oomKills is the number of the command's processes the OOM killer killed
// because the command passed its memory limit.
func (sb *sandbox) oomKills() int {
	if sb.mem == nil {
		return 0
	}
	return sb.mem.oomKills()
}

// noCPUCgroup starts the warning of a command without a cgroup2 cgroup
// of its own.
const noCPUCgroup = "steps run without a cgroup2 cgroup of their own, so a test phase that timed out " +
	"while starved of CPU cannot be told from one that hung (the host's CPU stall is reported instead): "

// cpuFigures is the command's CPU time and CPU wait, and whose wait it
// is; call it once the init has exited.
func (sb *sandbox) cpuFigures() (used, wait time.Duration, scope string) {
	return sb.cpu.figures()
}

// exitStatus reads how the command ended, once the init has exited: its
// exit code (-1 for a signal or an init killed before it could say, a
// timeout), the signal that ended it (0 for none), or the init's own failure
// as an error.
func (sb *sandbox) exitStatus() (int, int, error) {
	defer sb.status.Close()
	b, err := io.ReadAll(io.LimitReader(sb.status, 4096))
	if err != nil {
		return -1, 0, err
	}
	line := strings.TrimSpace(string(b))
	switch {
	case line == "":
		return -1, 0, nil
	case strings.HasPrefix(line, "exit "):
		code, err := strconv.Atoi(strings.TrimPrefix(line, "exit "))
		if err != nil {
			return -1, 0, fmt.Errorf("sandbox: bad status %q", line)
		}
		return code, 0, nil
	case strings.HasPrefix(line, "signal "):
		sig, _ := strconv.Atoi(strings.TrimPrefix(line, "signal "))
		return -1, sig, nil
	}
	return -1, 0, fmt.Errorf("sandbox: %s", strings.TrimPrefix(line, "error "))
}
