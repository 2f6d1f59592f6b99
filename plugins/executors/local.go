package executors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// LocalName is the registered name of the executor that runs commands on
// the host.
const LocalName = "local"

// The user an osbench running as root drops to (see Cmd.User) on Unix
// hosts other than Linux: nobody and nogroup on Debian-like systems,
// without supplementary groups. On Linux each command gets a slot uid of
// its own instead (slots.go), named nobody inside its namespace.
const (
	UnprivilegedUID = 65534
	UnprivilegedGID = 65534
)

// UserRoot is the Cmd.User value that keeps root privileges.
const UserRoot = "root"

const (
	defaultKillGrace  = 2 * time.Second
	defaultOutputWait = 2 * time.Second
)

// Local runs commands on the host, each in its own process group, so a
// timeout or a cancellation stops the whole tree the command started, and
// no process of a step outlives the step. On Linux each command runs under
// a sandbox init (sandbox_linux.go): its own PID and mount namespaces when
// osbench is root, a child subreaper otherwise.
//
// When osbench runs as root, commands run as an unprivileged user (a slot
// uid on Linux, UnprivilegedUID elsewhere) unless Cmd.User is UserRoot. Root bypasses file permission checks, so a suite
// run as root sees different results: tests that expect EACCES from a
// read-only file or directory fail. Benchmarks must measure what the suite
// does for an ordinary user.
//
// On hosts other than Unix the executor is a plain fallback: no process
// groups, no change of user, the process itself is killed on timeout.
type Local struct {
	// KillGrace is how long the process tree gets between SIGTERM and
	// SIGKILL when a timeout fires or the context is cancelled.
	KillGrace time.Duration
	// OutputWait is how long Run waits, once the command's first process
	// has exited and the rest of its process group is killed, for the
	// output pipes to close. A process that left the group (setsid) may
	// hold them open forever; after OutputWait they are closed under it.
	OutputWait time.Duration
	// MemoryLimit bounds the memory of all processes of a command
	// together, in bytes (a memory cgroup: a root osbench on Linux);
	// 0 is none. NewLocal sets DefaultMemoryLimit. It is outside every
	// key: it can only turn a run into an OOM kill, which is an
	// infrastructure failure (memlimit.go).
	MemoryLimit int64
	// DiskLimit bounds what a command's work dir may hold, in bytes
	// (disklimit.go); 0 is none, autoDiskLimit a quarter of the work
	// dir's file system. NewLocal sets DefaultDiskLimit. Outside every
	// key, like MemoryLimit: a command past it is stopped and Run
	// returns a quota error.
	DiskLimit int64

	// stateDir holds the test launchers; without one test programs run
	// directly.
	stateDir string
	// noTestLauncher turns the test launcher off (tests that show what
	// it prevents).
	noTestLauncher bool
	// crossRunner is set by an executor whose test programs run through
	// a cross launcher of its own that chains to the test launcher
	// (Wine's go_windows_amd64_exec): the toolchains get no -exec or
	// runner setting, only TestSandboxVar.
	crossRunner bool
	// off turns parts of a root osbench's isolation off (tests that show
	// what they prevent).
	off isolationOff
}

// isolationOff names the parts of the isolation a test turns off.
type isolationOff struct {
	// network keeps the host's network for every command.
	network bool
	// view shows the host's file system instead of the command's view.
	view bool
}

// sandboxRequest is what the sandbox of a command is built from: the
// command, its test launcher ("" for none), the host trees it must reach
// (for a sandbox without a view) and the isolation a test turned off.
type sandboxRequest struct {
	cmd      Cmd
	launcher string
	keep     []string
	off      isolationOff
	memLimit int64
}

// NewLocal creates the local executor. Its state directory holds the test
// launchers.
func NewLocal(cfg Config) (*Local, error) {
	l := &Local{KillGrace: defaultKillGrace, OutputWait: defaultOutputWait, MemoryLimit: DefaultMemoryLimit(), DiskLimit: DefaultDiskLimit(), stateDir: cfg.StateDir}
	if cfg.Unisolated {
		l.off = isolationOff{network: true, view: true}
	}
	return l, nil
}

// Name implements Executor.
func (l *Local) Name() string { return LocalName }

// Platform implements Executor: commands run on the host OS.
func (l *Local) Platform() string { return runtime.GOOS }

// Fingerprint implements Executor. It names the OS, the architecture,
// whether the command runs with root privileges and its isolation, which
// is what changes results. The numeric uid of a non-root osbench is left
// out: it differs between machines and changes nothing a test suite can
// observe through permissions.
func (l *Local) Fingerprint(ctx context.Context, user string) (string, error) {
	who, err := resolveRunUser(user)
	if err != nil {
		return "", fmt.Errorf("local executor: %w", err)
	}
	return fmt.Sprintf("local %s/%s user=%s%s", runtime.GOOS, runtime.GOARCH, who.mode(), isolationMode(l.off)), nil
}

// isolationMode is the fingerprint's word for the hermetic runs of a root
// osbench on Linux: a suite that needed the network or read a host file
// passed before and fails now, so results cached without the isolation
// must not be served for runs with it. It is empty otherwise, so the keys
// of a non-root osbench, which cannot isolate, stay what they were. An
// executor with the isolation turned off (Config.Unisolated) says which
// parts are left, so its results are never served for isolated runs.
func isolationMode(off isolationOff) string {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return ""
	}
	var on []string
	if !off.network {
		on = append(on, "net")
	}
	if !off.view {
		on = append(on, "view")
	}
	if len(on) == 0 {
		return " isolation=off"
	}
	return " isolation=" + strings.Join(on, ",")
}

// Run implements Executor.
func (l *Local) Run(ctx context.Context, cmd Cmd) (Result, error) {
	notRun := Result{ExitCode: -1}
	who, err := resolveRunUser(cmd.User)
	if err != nil {
		return notRun, fmt.Errorf("local executor: %w", err)
	}
	who, release, err := acquireSlot(who, sharedDirs(cmd.WritableDirs, cmd.WorkDir))
	if err != nil {
		return notRun, fmt.Errorf("local executor: %w", err)
	}
	defer release()
	return l.runAs(ctx, cmd, who)
}

// runAs runs cmd as who, whose slot (if any) the caller holds.
func (l *Local) runAs(ctx context.Context, cmd Cmd, who runUser) (Result, error) {
	notRun := Result{ExitCode: -1}
	if err := ctx.Err(); err != nil {
		return notRun, fmt.Errorf("local executor: not started: %w", err)
	}
	c, sb, err := l.prepare(cmd, who)
	if err != nil {
		return notRun, fmt.Errorf("local executor: %w", err)
	}
	defer l.dropStepLauncher(cmd)
	defer sb.cleanup()
	started := time.Now()
	if err := c.Start(); err != nil {
		sb.abandon()
		return notRun, fmt.Errorf("local executor: starting %s: %w", cmd.Argv[0], err)
	}
	if err := sb.started(c.Process.Pid); err != nil {
		// The init reads its spec first thing; it could not, so it
		// fails and says nothing more.
		_ = killTree(c.Process)
	}
	exited, wait := startWaiter(c)
	disk := watchDiskLimit(cmd.WorkDir, diskLimitFor(l.DiskLimit, cmd.WorkDir))
	cause := l.supervise(ctx, c.Process, cmd.Timeout, exited, sb != nil, disk.exceeded())
	res := Result{ExitCode: -1, Duration: time.Since(started), DiskUsed: disk.end()}
	waitErr := wait()
	if c.ProcessState != nil {
		res.ExitCode = c.ProcessState.ExitCode()
	}
	if sb != nil {
		code, sig, err := sb.exitStatus()
		if err != nil && cause == stopNone {
			return res, fmt.Errorf("local executor: %s: %w", cmd.Argv[0], err)
		}
		res.ExitCode = code
		if cause == stopNone {
			res.Signal = sig
		}
		res.OOMKills = sb.oomKills()
		res.CPUTime, res.CPUWait, res.CPUScope = sb.cpuFigures()
	}
	switch cause {
	case stopTimeout:
		res.TimedOut, res.ExitCode = true, -1
	case stopDiskLimit:
		res.ExitCode = -1
		return res, fmt.Errorf("local executor: %w", errOverDiskLimit(cmd.Argv[0], cmd.WorkDir, res.DiskUsed, disk.limit))
	case stopCanceled:
		res.ExitCode = -1
		return res, fmt.Errorf("local executor: %s stopped: %w", cmd.Argv[0], ctx.Err())
	}
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil, errors.As(waitErr, &exitErr):
	case errors.Is(waitErr, exec.ErrWaitDelay):
		// The command succeeded but a process that escaped its group
		// kept the output open; the pipes were closed under it.
	default:
		// Most likely a write to Stdout or Stderr failed: the log is
		// incomplete, which is the executor's failure, not the command's.
		return res, fmt.Errorf("local executor: %s: %w", cmd.Argv[0], waitErr)
	}
	return res, nil
}

// prepare checks cmd, sets up its directories and returns the process to
// start: on Linux the sandbox init that runs the command (sb), elsewhere
// the command itself (sb is nil).
func (l *Local) prepare(cmd Cmd, who runUser) (*exec.Cmd, *sandbox, error) {
	dir, err := checkCmd(cmd)
	if err != nil {
		return nil, nil, err
	}
	env, err := commandEnv(cmd, who)
	if err != nil {
		return nil, nil, err
	}
	groups, err := prepareDirs(cmd, who)
	if err != nil {
		return nil, nil, err
	}
	who.groups = groups
	// Checked here because a failed chdir in the child is reported as
	// "fork/exec /usr/bin/true: no such file or directory", naming the
	// program instead of the directory.
	if info, err := os.Stat(dir); err != nil {
		return nil, nil, fmt.Errorf("working directory: %w", err)
	} else if !info.IsDir() {
		return nil, nil, fmt.Errorf("working directory %s is not a directory", dir)
	}
	mustReach := append(append([]string{dir}, cmd.WritableDirs...), cmd.ownedDirs...)
	mustReach = append(append(mustReach, cmd.ReadOnlyDirs...), cmd.CopyOnWriteDirs...)
	if cmd.WorkDir != "" {
		mustReach = append(mustReach, cmd.WorkDir)
	}
	env, launcher, err := l.protectCaches(cmd, env)
	if err != nil {
		return nil, nil, err
	}
	if launcher != "" {
		mustReach = append(mustReach, launcher)
	}
	if err := checkReachable(who, mustReach); err != nil {
		return nil, nil, err
	}
	pathList, _ := envLookup(env, "PATH")
	path, err := lookPath(cmd.Argv[0], pathList)
	if err != nil {
		return nil, nil, err
	}
	c := &exec.Cmd{
		Path:        path,
		Args:        cmd.Argv,
		Dir:         dir,
		Env:         env,
		Stdout:      cmd.Stdout,
		Stderr:      cmd.Stderr,
		SysProcAttr: sysProcAttr(who),
		WaitDelay:   l.OutputWait,
	}
	sb, err := wrapInSandbox(c, who, l.KillGrace, sandboxRequest{
		cmd: cmd, launcher: launcher, keep: append(mustReach, cmd.WorkDir), off: l.off, memLimit: l.MemoryLimit,
	})
	if err != nil {
		return nil, nil, err
	}
	return c, sb, nil
}

// protectCaches sets cmd's toolchain up to run test programs through the
// test launcher, which keeps cmd.WritableDirs read-only for them. It
// returns the environment and the launcher's path ("" when there is none:
// no writable dirs, the caller runs test programs itself, or the host
// cannot; the last is said once).
func (l *Local) protectCaches(cmd Cmd, env []string) ([]string, string, error) {
	if len(launcherDirs(cmd)) == 0 || l.stateDir == "" || l.noTestLauncher {
		return env, "", nil
	}
	if err := testLauncherUsable(); err != nil {
		warnOnce("the shared build caches are writable by test programs: " + err.Error())
		return env, "", nil
	}
	launcher, err := writeTestLauncher(l.stateDir, launcherDirs(cmd))
	if err != nil {
		return nil, "", fmt.Errorf("test launcher: %w", err)
	}
	return withTestLauncher(env, launcher, l.crossRunner), launcher, nil
}

// launcherDirs are the directories cmd's test launcher keeps read-only:
// what the command writes, its copy-on-write dirs (a test program must not
// change what the command's later test programs read) and its ReadOnlyDirs
// (read-only for the whole command already when osbench is root; a
// non-root osbench has only the launcher to protect them), and more dirs
// of the executor's. A command with none of its own needs no launcher.
func launcherDirs(cmd Cmd) []string {
	dirs := append(append(slices.Clone(cmd.WritableDirs), cmd.CopyOnWriteDirs...), cmd.ReadOnlyDirs...)
	if len(dirs) == 0 {
		return nil
	}
	return append(dirs, cmd.readOnlyForTests...)
}

// dropStepLauncher removes the test launcher of a command that protects a
// directory inside its own work dir (a test step's evidence records): no
// other command protects that set, and such launchers, one per step, would
// pile up in the state directory. The step's commands run one after
// another, each writing the launcher again.
func (l *Local) dropStepLauncher(cmd Cmd) {
	if l.stateDir == "" || cmd.WorkDir == "" || len(cmd.WritableDirs) == 0 {
		return
	}
	if len(sharedDirs(cmd.WritableDirs, cmd.WorkDir)) == len(cmd.WritableDirs) {
		return // every dir is shared: the launcher serves other commands too
	}
	if dir := testLauncherDir(l.stateDir, launcherDirs(cmd)); dir != "" {
		_ = os.RemoveAll(dir)
	}
}

// stopCause says why supervise stopped a command early.
type stopCause int

const (
	stopNone stopCause = iota
	stopTimeout
	stopCanceled
	stopDiskLimit
)

// supervise returns once the command's first process has exited. When the
// timeout fires, the work dir passes its disk limit or ctx ends first, it asks the process tree to terminate
// and kills it after KillGrace. Either way it finally kills whatever is left
// of the tree, so nothing a step started keeps running (or writing into its
// work directory) after the step.
//
// A sandbox init gets longer: it kills the command's processes itself
// after KillGrace, which a subreaper (a non-root osbench) must live to do.
func (l *Local) supervise(ctx context.Context, p *os.Process, timeout time.Duration, exited <-chan struct{}, sandboxed bool, overDisk <-chan struct{}) stopCause {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	cause := stopNone
	select {
	case <-exited:
	case <-deadline:
		cause = stopTimeout
	case <-overDisk:
		cause = stopDiskLimit
	case <-ctx.Done():
		cause = stopCanceled
	}
	if cause != stopNone {
		select {
		case <-exited:
			// It finished just as it was about to be stopped: the
			// result stands.
			cause = stopNone
		default:
			// Errors are ignored here and below: the only failure
			// possible when signalling our own children is that they
			// are already gone.
			_ = terminateTree(p)
			wait := l.KillGrace
			if sandboxed {
				wait = 2*l.KillGrace + time.Second
			}
			grace := time.NewTimer(wait)
			select {
			case <-exited:
			case <-grace.C:
			}
			grace.Stop()
		}
	}
	_ = killTree(p)
	<-exited
	return cause
}

// runUser says who a command runs as.
type runUser struct {
	// root reports that the command keeps root privileges.
	root bool
	// drop reports that osbench is root and the command must run as
	// uid:gid instead.
	drop     bool
	uid, gid int
	// groups are the supplementary groups: those of the shared writable
	// directories the command names, nothing else.
	groups []uint32
}

// mode names the privilege mode in fingerprints. Root's is
// "root home=passwd" since root's commands got the home of the user
// database instead of a private one: the name changed so that no result
// cached under the private home is served for the new behaviour. No path
// enters it: the home is whatever the machine's user database says, as a
// test reading it would find.
func (u runUser) mode() string {
	if u.root {
		return "root home=passwd"
	}
	return "unprivileged"
}

func resolveRunUser(mode string) (runUser, error) {
	if mode != "" && mode != UserRoot {
		return runUser{}, fmt.Errorf("unknown user mode %q (want %q for the default or %q)", mode, "", UserRoot)
	}
	if os.Geteuid() != 0 {
		return runUser{}, nil
	}
	if mode == UserRoot {
		return runUser{root: true}, nil
	}
	return runUser{drop: true, uid: UnprivilegedUID, gid: UnprivilegedGID}, nil
}

// checkCmd rejects a malformed command and returns its working directory.
func checkCmd(cmd Cmd) (string, error) {
	if len(cmd.Argv) == 0 || cmd.Argv[0] == "" {
		return "", errors.New("empty command (Argv has no program)")
	}
	if cmd.Timeout < 0 {
		return "", fmt.Errorf("negative timeout %v", cmd.Timeout)
	}
	if cmd.WorkDir != "" && !filepath.IsAbs(cmd.WorkDir) {
		return "", fmt.Errorf("cmd.WorkDir %q is not absolute", cmd.WorkDir)
	}
	for _, dirs := range []struct {
		what  string
		paths []string
	}{{"writable", cmd.WritableDirs}, {"read-only", cmd.ReadOnlyDirs}, {"copy-on-write", cmd.CopyOnWriteDirs}} {
		for _, d := range dirs.paths {
			if !filepath.IsAbs(d) {
				return "", fmt.Errorf("%s dir %q is not absolute", dirs.what, d)
			}
		}
	}
	dir := cmd.Dir
	if dir == "" {
		dir = cmd.WorkDir
	}
	if dir == "" {
		return "", errors.New("no working directory (Dir and WorkDir are both empty)")
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("cmd.Dir %q is not absolute", dir)
	}
	return dir, nil
}

// scratchHome and scratchTemp are the private home and temp directories of
// a command inside its WorkDir.
func scratchHome(workDir string) string { return filepath.Join(workDir, "home") }
func scratchTemp(workDir string) string { return filepath.Join(workDir, "tmp") }

// commandEnv builds the complete environment of cmd: its Env, the host PATH
// when Env has none (so that commands are found at all), and the home and
// temp variables unless Env sets them. Nothing else of the host environment
// leaks in: a stray GOFLAGS or LANG would change results without entering
// any key.
//
// Home is private (inside WorkDir) for every run user but root: a manifest
// that asks for user = "root" asks for root as the system knows it, and
// suites that check the home directory against the passwd database
// (os.UserHomeDir against user.Current) must see the same path there. Temp
// stays private for root too: it holds nothing a test compares with the
// system's view, and a shared /tmp would let runs see each other's files.
func commandEnv(cmd Cmd, who runUser) ([]string, error) {
	env := make([]string, 0, len(cmd.Env)+1+len(homeVars)+len(tempVars))
	for i, kv := range cmd.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("cmd.Env[%d] = %q is not of the form KEY=VALUE", i, kv)
		}
		env = append(env, kv)
	}
	if _, ok := envLookup(env, "PATH"); !ok {
		if hostPath, ok := os.LookupEnv("PATH"); ok {
			env = append(env, "PATH="+hostPath)
		}
	}
	if cmd.WorkDir == "" {
		return env, nil
	}
	home := scratchHome(cmd.WorkDir)
	if who.root {
		h, err := passwdHome()
		if err != nil {
			return nil, err
		}
		home = h
	}
	defaults := [][2]string{}
	for _, k := range homeVars {
		defaults = append(defaults, [2]string{k, home})
	}
	for _, k := range tempVars {
		defaults = append(defaults, [2]string{k, scratchTemp(cmd.WorkDir)})
	}
	for _, kv := range defaults {
		if _, ok := envLookup(env, kv[0]); !ok {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env, nil
}

// passwdHome is the home directory the user database gives osbench's own
// user (root, when it is asked for): what user.Current reports, read from
// /etc/passwd or NSS, never from osbench's own HOME, which a sudo or a
// service manager may have set to anything.
func passwdHome() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", fmt.Errorf("home directory of the run user: %w", err)
	}
	if u.HomeDir == "" || !filepath.IsAbs(u.HomeDir) {
		return "", fmt.Errorf("home directory of user %s in the user database is %q, not an absolute path", u.Username, u.HomeDir)
	}
	return u.HomeDir, nil
}

// envLookup returns the value of key in env. The last entry wins, as it
// does for os/exec when the child is started.
func envLookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		k, v, _ := strings.Cut(env[i], "=")
		if envKeyEqual(k, key) {
			return v, true
		}
	}
	return "", false
}

var warned sync.Map

// warnOnce tells the operator, once per process, that a defence is off on
// this host. Executors have no logger; osbench's stderr is where its own
// log goes too.
func warnOnce(msg string) {
	if _, seen := warned.LoadOrStore(msg, true); !seen {
		fmt.Fprintf(os.Stderr, "osbench: warning: %s\n", msg)
	}
}
