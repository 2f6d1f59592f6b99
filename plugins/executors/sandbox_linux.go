package executors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Every command of the local executor on Linux runs under a small init
// process: osbench's own binary, started again with sandboxInitArg0 as its
// argv[0] (see the init function below). The init is the only child of
// osbench; the command is the init's child.
//
// When osbench is root the init is pid 1 of a new PID namespace and has a
// mount namespace of its own. A PID namespace is chosen over a child
// subreaper or a cgroup because the kernel itself kills every process of
// the namespace when its init dies, however the init dies: a SIGKILL from
// osbench at a timeout, or the death signal when osbench is killed. A
// subreaper must be alive to clean up, and a double fork that outlives a
// killed subreaper is adopted by the host's init; a cgroup needs a
// delegated hierarchy, which this host's mixed v1/v2 layout does not give
// every installation. The mount namespace gives the step its view of the
// file system (view_linux.go: nothing of the host but what the command
// names, its own /tmp, /var/tmp and /dev/shm as empty tmpfs, a /proc that
// shows only the step's processes) and a passwd database in which "nobody"
// has the step's uid; a network namespace, unless the command asks for the
// network, leaves it loopback only (netns_linux.go).
//
// When osbench is not root no namespace can be created (without a user
// namespace, which would change the uids the suite sees). The init then
// makes itself a child subreaper, so setsid and double-forked processes are
// still reparented to it and killed when the command ends or times out; only
// a SIGKILL of osbench itself, which kills the init too, lets them escape.
const sandboxInitArg0 = "osbench-sandbox-init"

// The file descriptors the init gets: the spec to read, and a pipe for the
// command's exit status.
const (
	sandboxSpecFD   = 3
	sandboxStatusFD = 4
)

// sandboxSpec is what osbench tells the init.
type sandboxSpec struct {
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir"`
	// Drop switches the command to UID:GID with Groups as its only
	// supplementary groups.
	Drop   bool     `json:"drop"`
	UID    int      `json:"uid"`
	GID    int      `json:"gid"`
	Groups []uint32 `json:"groups"`
	// Namespaces reports that the init runs in its own PID and mount
	// namespaces and must set up the mounts.
	Namespaces bool `json:"namespaces"`
	// Grace is how long the processes left after the command get
	// between SIGTERM and SIGKILL.
	Grace time.Duration `json:"grace"`
	// TmpSize caps each private tmpfs, in bytes.
	TmpSize int64 `json:"tmp_size"`
	// Keep are host trees that stay visible below the private tmpfs
	// mounts (see keepPaths), when there is no view.
	Keep []string `json:"keep"`
	// Network reports that the command keeps the host's network;
	// without it the init runs in a network namespace of its own and
	// brings its loopback up (netns_linux.go).
	Network bool `json:"network"`
	// View reports that the command sees the view of Mounts (and the
	// system dirs) instead of the host's file system (view_linux.go).
	// Without it Mounts only protects the read-only and copy-on-write
	// dirs in place.
	View   bool        `json:"view"`
	Mounts []viewMount `json:"mounts"`
	// Loopback are the ports of Cmd.LoopbackPorts, listened on by the
	// init and handed to osbench (loopback_linux.go).
	Loopback []int `json:"loopback,omitempty"`
}

// privateTmpDirs are the world-writable directories of a Debian host that
// get an empty tmpfs of their own in each step, so steps cannot leave files
// for each other there.
var privateTmpDirs = []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock"}

// privateTmpSize caps each tmpfs of a step (/tmp, /var/tmp, /dev/shm): a
// suite that fills it gets ENOSPC instead of filling the host's memory.
const privateTmpSize = 1 << 30

func init() {
	if len(os.Args) > 0 && os.Args[0] == sandboxInitArg0 {
		os.Exit(sandboxInit())
	}
}

// sandboxInit is the init process. It never writes to its stdout or
// stderr, which are the command's; failures before the command starts go
// to the status pipe as "error ...".
func sandboxInit() int {
	status := os.NewFile(sandboxStatusFD, "status")
	report := func(format string, args ...any) {
		fmt.Fprintf(status, format+"\n", args...)
	}
	syscall.CloseOnExec(sandboxSpecFD)
	syscall.CloseOnExec(sandboxStatusFD)
	var spec sandboxSpec
	specFile := os.NewFile(sandboxSpecFD, "spec")
	if err := json.NewDecoder(specFile).Decode(&spec); err != nil {
		report("error reading the sandbox spec: %v", err)
		return 1
	}
	specFile.Close()
	// Signals that stop the step are forwarded; the init itself ends
	// only after the command.
	stop := make(chan os.Signal, 4)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	if spec.Namespaces {
		if err := setupMounts(spec); err != nil {
			report("error setting up the step's mounts: %v", err)
			return 1
		}
	} else if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		report("error becoming a child subreaper: %v", err)
		return 1
	}
	if len(spec.Loopback) > 0 {
		if err := startLoopbackForwards(spec.Loopback); err != nil {
			report("error forwarding loopback ports: %v", err)
			return 1
		}
	}
	pid, err := startSandboxed(spec)
	if err != nil {
		report("error starting %s: %v", spec.Argv[0], err)
		return 1
	}
	ws := reapUntil(pid, stop, spec)
	killAll(spec, syscall.SIGTERM)
	drainChildren(spec)
	switch {
	case ws.Signaled():
		report("signal %d", int(ws.Signal()))
	default:
		report("exit %d", ws.ExitStatus())
	}
	return 0
}

// startSandboxed starts the command as its run user. no_new_privs is set
// on the thread that forks, and so for the command and all it starts: a
// setuid binary (su, mount, a planted copy) cannot give it root back.
func startSandboxed(spec sandboxSpec) (int, error) {
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("no_new_privs: %w", err)
	}
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if spec.Drop {
		attr.Credential = &syscall.Credential{Uid: uint32(spec.UID), Gid: uint32(spec.GID), Groups: append([]uint32{}, spec.Groups...)}
	}
	return syscall.ForkExec(spec.Path, spec.Argv, &syscall.ProcAttr{
		Dir:   spec.Dir,
		Env:   spec.Env,
		Files: []uintptr{0, 1, 2},
		Sys:   attr,
	})
}

// reapUntil reaps children (orphans are reparented to the init) until the
// command itself has exited, forwarding stop signals to the whole step.
func reapUntil(pid int, stop <-chan os.Signal, spec sandboxSpec) syscall.WaitStatus {
	exited := make(chan syscall.WaitStatus, 1)
	go func() {
		for {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(-1, &ws, 0, nil)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if err != nil || got == pid {
				exited <- ws
				return
			}
		}
	}()
	// After a stop signal the step gets Grace to end, then everything is
	// killed: the init ends on its own even when the command ignores
	// SIGTERM, so a subreaper (which dies with its orphans' only
	// supervisor) is rarely killed by osbench.
	var kill <-chan time.Time
	for {
		select {
		case ws := <-exited:
			return ws
		case sig := <-stop:
			killAll(spec, sig.(syscall.Signal))
			if kill == nil {
				kill = time.After(spec.Grace)
			}
		case <-kill:
			killAll(spec, syscall.SIGKILL)
			kill = time.After(spec.Grace)
		}
	}
}

// drainChildren reaps what is left, killing it after grace. It returns when
// the init has no child left, so when osbench sees the init exit, nothing
// the command started is running.
func drainChildren(spec sandboxSpec) {
	deadline := time.Now().Add(spec.Grace)
	killed := false
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.ECHILD) {
			return
		}
		if got > 0 {
			continue
		}
		if !killed && time.Now().After(deadline) {
			killAll(spec, syscall.SIGKILL)
			killed = true
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killAll sends sig to every process of the step: in a PID namespace
// kill(-1) reaches exactly those (never the init); a subreaper signals its
// descendants, and must never use kill(-1), which would reach every
// process of osbench's user. A process forking while it is killed leaves
// a child that drainChildren's loop kills on its next round.
func killAll(spec sandboxSpec, sig syscall.Signal) {
	if spec.Namespaces {
		_ = syscall.Kill(-1, sig)
		return
	}
	for _, pid := range descendants() {
		_ = syscall.Kill(pid, sig)
	}
}

// descendants lists every process below the init, from /proc's parent
// links. Orphans of the step are the init's children (it is their
// subreaper), so the walk finds them too.
func descendants() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			parent[pid] = ppid
		}
	}
	self := os.Getpid()
	var out []int
	for pid := range parent {
		for p, hops := parent[pid], 0; p != 0 && hops < 1000; p, hops = parent[p], hops+1 {
			if p == self {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// setupMounts gives the step its private mounts, its view of the file
// system (view_linux.go) and, unless it keeps the host's network, its
// loopback. Propagation is made private first, so nothing mounted here
// appears on the host.
//
// Without a view (tests that turn it off), what the command needs below a directory that gets a private tmpfs (a
// work dir or a cache under /tmp, as in tests) is carried over: each kept
// tree is cloned as a detached bind mount before the tmpfs covers it and
// attached again at the same path inside the tmpfs.
func setupMounts(spec sandboxSpec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	if !spec.Network {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if spec.View {
		if err := setupView(spec); err != nil {
			return err
		}
	} else {
		if err := protectInPlace(spec); err != nil {
			return err
		}
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mounting /proc: %w", err)
		}
		for _, dir := range privateTmpDirs {
			if err := privateTmp(dir, spec); err != nil {
				return err
			}
		}
	}
	if spec.Drop {
		if err := overlayUserDB("/etc/passwd", passwdWithUID(spec.UID, spec.GID)); err != nil {
			return err
		}
		if err := overlayUserDB("/etc/group", groupWithGID(spec.GID)); err != nil {
			return err
		}
	}
	return nil
}

// privateTmp mounts an empty tmpfs on dir, keeping the trees of spec.Keep
// that lie below it.
func privateTmp(dir string, spec sandboxSpec) error {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return nil // absent, or a link (/var/lock): its target is covered
	}
	type kept struct {
		path string
		fd   int
	}
	var keep []kept
	defer func() {
		for _, k := range keep {
			unix.Close(k.fd)
		}
	}()
	for _, p := range spec.Keep {
		if !strings.HasPrefix(p, dir+"/") {
			continue
		}
		fd, err := unix.OpenTree(unix.AT_FDCWD, p, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return fmt.Errorf("keeping %s: %w", p, err)
		}
		keep = append(keep, kept{p, fd})
	}
	opts := fmt.Sprintf("mode=1777,size=%d", spec.TmpSize)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting a private %s: %w", dir, err)
	}
	for _, k := range keep {
		// Searchable, not listable: the names of the kept trees'
		// parents are no business of the step.
		if err := mkdirAllMode(k.path, 0o711); err != nil {
			return fmt.Errorf("keeping %s: %w", k.path, err)
		}
		if err := unix.MoveMount(k.fd, "", unix.AT_FDCWD, k.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("keeping %s: %w", k.path, err)
		}
	}
	return nil
}

// mkdirAllMode is os.MkdirAll with the mode applied despite the umask.
func mkdirAllMode(path string, mode os.FileMode) error {
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if err := mkdirAllMode(filepath.Dir(path), mode); err != nil {
		return err
	}
	if err := os.Mkdir(path, mode); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return os.Chmod(path, mode)
}

// keepPaths are the host directories a command must still see when the
// private tmpfs mounts cover their parents: its directories, the program's,
// its PATH and every existing absolute path its environment or arguments
// name (a file's directory), and extra. Trees inside other kept trees are
// dropped.
func keepPaths(c *exec.Cmd, extra ...string) []string {
	var paths []string
	add := func(p string) {
		if filepath.IsAbs(p) {
			paths = append(paths, filepath.Clean(p))
		}
	}
	add(c.Dir)
	add(filepath.Dir(c.Path))
	for _, p := range extra {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			p = filepath.Dir(p)
		}
		add(p)
	}
	values := slices.Clone(c.Args[1:])
	for _, kv := range c.Env {
		_, v, _ := strings.Cut(kv, "=")
		values = append(values, v)
	}
	for _, v := range values {
		for _, p := range filepath.SplitList(v) {
			if info, err := os.Stat(p); err == nil {
				if info.IsDir() {
					add(p)
				} else {
					add(filepath.Dir(p))
				}
			}
		}
	}
	slices.Sort(paths)
	var out []string
	for _, p := range paths {
		if n := len(out); n > 0 && (p == out[n-1] || strings.HasPrefix(p, out[n-1]+"/")) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// overlayUserDB mounts a copy of file, changed by edit, over it. The copy
// is written to the step's private /tmp, mounted, and unlinked: the mount
// keeps it, and the step's /tmp stays empty.
func overlayUserDB(file string, edit func(string) string) error {
	orig, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	f, err := os.CreateTemp("/tmp", ".osbench-userdb-*")
	if err != nil {
		return fmt.Errorf("copy of %s: %w", file, err)
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(edit(string(orig)))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("copy of %s: %w", file, err)
	}
	if err := unix.Mount(f.Name(), file, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("mounting the step's %s: %w", file, err)
	}
	if err := unix.Mount("", file, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
		return fmt.Errorf("making the step's %s read-only: %w", file, err)
	}
	return nil
}

// passwdWithUID gives "nobody" the step's uid and gid: a suite that looks
// its user up (os/user, getpwuid, id -un) finds the same name, home and
// shell as under the fixed uid 65534 of earlier versions. Without an entry
// cgo's user.Current fails, and suites using it would fail for no reason
// of their own.
func passwdWithUID(uid, gid int) func(string) string {
	return func(db string) string {
		return rewriteDBLine(db, "nobody", func(f []string) []string {
			if len(f) >= 4 {
				f[2], f[3] = strconv.Itoa(uid), strconv.Itoa(gid)
			}
			return f
		}, fmt.Sprintf("nobody:x:%d:%d:nobody:/nonexistent:/usr/sbin/nologin", uid, gid))
	}
}

// groupWithGID does the same for the group "nogroup".
func groupWithGID(gid int) func(string) string {
	return func(db string) string {
		return rewriteDBLine(db, "nogroup", func(f []string) []string {
			if len(f) >= 3 {
				f[2] = strconv.Itoa(gid)
			}
			return f
		}, fmt.Sprintf("nogroup:x:%d:", gid))
	}
}

// rewriteDBLine edits the colon-separated line of name in db, or appends
// fallback when db has none.
func rewriteDBLine(db, name string, edit func([]string) []string, fallback string) string {
	lines := strings.SplitAfter(db, "\n")
	for i, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		fields := strings.Split(body, ":")
		if fields[0] == name {
			lines[i] = strings.Join(edit(fields), ":") + strings.TrimPrefix(line, body)
			return strings.Join(lines, "")
		}
	}
	if db != "" && !strings.HasSuffix(db, "\n") {
		db += "\n"
	}
	return db + fallback + "\n"
}
