package entrytrace

import (
	"bufio"
	"context"
	"debug/elf"
	"debug/gosym"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Command is a program to trace and the functions to watch.
type Command struct {
	Path string   // the executable to start
	Args []string // argv, Args[0] included
	Env  []string
	Dir  string
	// Stdin, Stdout and Stderr are the program's; nil is /dev/null.
	Stdin, Stdout, Stderr *os.File
	// Target is the executable whose functions are watched, in every
	// process of the traced tree that runs it: a test binary started by a
	// launcher or a sandbox (Path) through forks and execs. Empty: Path.
	Target string
	// Select picks the target's symbols to watch and names them (GoTest
	// for a Go test binary). Several symbols may share a name.
	Select func(symbol string) (name string, ok bool)
	// Within, when set, replaces Target: every ELF image a process of the
	// tree executes from below this directory is a target (the programs
	// of a build tree that a test driver such as CTest runs), and each
	// name is "PATH:NAME", PATH the image's path below Within.
	Within string
}

// breakpoint is one armed function entry in one process's memory.
type breakpoint struct {
	name     string
	original byte
	removed  bool
}

// image is the breakpoints of one process's memory: nil for a process
// that does not run the target.
type image struct {
	bps map[uint64]*breakpoint
}

const (
	int3      = 0xCC
	siKernel  = 0x80 // si_code of a trap the CPU raised (int3), not kill(2)
	traceOpts = unix.PTRACE_O_TRACECLONE | unix.PTRACE_O_TRACEFORK | unix.PTRACE_O_TRACEVFORK |
		unix.PTRACE_O_TRACEEXEC | unix.PTRACE_O_EXITKILL
)

// Trace runs the command to its end under ptrace, following the processes
// it starts up to the target, and reports the selected functions of the
// target that its processes entered. Processes the target itself starts
// are let go at once (a test's helper processes and commands keep their
// own signals, job control and tracing). When the first process ends,
// what it left running under the tracer is killed. The calling process must not start or wait for other children
// while Trace runs: a tracer reaps its tracees with wait(-1), which would
// take theirs too (the test launcher runs it as a process of its own). A
// cancelled ctx kills the program.
func Trace(ctx context.Context, c Command) (*Result, error) {
	if c.Target == "" {
		c.Target = c.Path
	}
	var tgt *target
	if c.Within == "" {
		var err error
		if tgt, err = readTarget(c.Target, c.Select); err != nil {
			return nil, err
		}
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	started := make(chan int, 1)
	go func() {
		// Every ptrace request must come from the thread that started the
		// program: it is the tracer.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		res, err := run(c, tgt, started)
		done <- outcome{res, err}
	}()
	var pid int
	select {
	case pid = <-started:
	case o := <-done:
		return o.res, o.err
	}
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
		_ = syscall.Kill(pid, syscall.SIGKILL)
		o := <-done
		if o.err == nil {
			o.err = ctx.Err()
		}
		return o.res, o.err
	}
}

// elfSymbol is a selected function of the target's symbol table.
type elfSymbol struct {
	name string
	addr uint64
}

// target is the executable whose processes get breakpoints: its identity
// on disk and its selected symbols (offsets from the load address when it
// is position-independent).
type target struct {
	dev, ino  uint64
	syms      []elfSymbol
	pie       bool
	firstLoad uint64
}

// devIno is a file's identity.
type devIno struct{ dev, ino uint64 }

func readTarget(path string, sel func(string) (string, bool)) (*target, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return nil, fmt.Errorf("entrytrace: %s: %w", path, err)
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("entrytrace: %w", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		return nil, fmt.Errorf("entrytrace: %s is %s, not x86-64", path, f.Machine)
	}
	all, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("entrytrace: %s: %w", path, err)
	}
	t := &target{dev: st.Dev, ino: st.Ino, pie: f.Type == elf.ET_DYN}
	for _, s := range all {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 {
			continue
		}
		if name, ok := sel(s.Name); ok {
			t.syms = append(t.syms, elfSymbol{name: name, addr: s.Value})
		}
	}
	if len(all) == 0 {
		// go test links the binaries it runs with -s (no symbol table);
		// the runtime's own function table, which every Go binary keeps
		// for its stack traces, names the same functions.
		syms, err := goFuncs(f, sel)
		if err != nil {
			return nil, fmt.Errorf("entrytrace: %s: %w", path, err)
		}
		t.syms = syms
	}
	if t.pie {
		for _, p := range f.Progs {
			if p.Type == elf.PT_LOAD {
				t.firstLoad = p.Vaddr &^ (p.Align - 1)
				break
			}
		}
	}
	return t, nil
}

// goFuncs reads a Go binary's function table (.gopclntab) for the
// functions the selector accepts; none for a binary that has none.
func goFuncs(f *elf.File, sel func(string) (string, bool)) ([]elfSymbol, error) {
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return nil, nil
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, err
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return nil, err
	}
	var out []elfSymbol
	for _, fn := range tab.Funcs {
		if name, ok := sel(fn.Name); ok {
			out = append(out, elfSymbol{name: name, addr: fn.Entry})
		}
	}
	return out, nil
}

// tracer is the state of one traced run.
type tracer struct {
	pid     int
	tgt     *target
	within  string // Command.Within
	sel     func(string) (string, bool)
	targets map[devIno]*target // Within's images read so far, nil: not a target
	procs   map[int]*image     // by process id
	seen    map[int]bool       // threads that have stopped once
	entered map[string]int     // processes that entered each function
	armed   map[string]bool
	res     Result
}

func run(c Command, tgt *target, started chan<- int) (*Result, error) {
	files, closeAll, err := stdio(c)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	proc, err := os.StartProcess(c.Path, c.Args, &os.ProcAttr{
		Dir: c.Dir, Env: c.Env, Files: files,
		Sys: &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return nil, fmt.Errorf("entrytrace: %w", err)
	}
	pid := proc.Pid
	_ = proc.Release()
	started <- pid

	tr := &tracer{pid: pid, tgt: tgt, within: c.Within, sel: c.Select, targets: map[devIno]*target{},
		procs: map[int]*image{}, seen: map[int]bool{pid: true}, entered: map[string]int{}, armed: map[string]bool{}}
	// The first stop is the trap after execve: the image is in place and
	// nothing of it has run.
	var ws syscall.WaitStatus
	if _, err := wait(pid, &ws); err != nil {
		return nil, err
	}
	if !ws.Stopped() {
		return nil, fmt.Errorf("entrytrace: %s ended before it started (%v)", c.Path, ws)
	}
	err = tr.execed(pid)
	if err == nil {
		err = unix.PtraceSetOptions(pid, traceOpts)
	}
	if err == nil {
		err = unix.PtraceCont(pid, 0)
	}
	if err == nil {
		err = tr.loop()
	}
	tr.killRest()
	if err != nil {
		return nil, err
	}
	tr.res.Entered = sortedKeys(tr.entered)
	tr.res.Entries = tr.entered
	tr.res.Armed = sortedKeys(tr.armed)
	return &tr.res, nil
}

// execed gives a process that has just started an image its breakpoints
// when the image is the target's.
func (tr *tracer) execed(pid int) error {
	tr.procs[pid] = nil
	var st syscall.Stat_t
	if err := syscall.Stat(fmt.Sprintf("/proc/%d/exe", pid), &st); err != nil {
		return nil // gone already: nothing of it can run
	}
	tgt, prefix := tr.tgt, ""
	if tr.within != "" {
		tgt, prefix = tr.withinTarget(pid, st)
		if tgt == nil {
			return nil
		}
	} else if st.Dev != tgt.dev || st.Ino != tgt.ino {
		return nil
	}
	var base uint64
	if tgt.pie {
		b, err := loadBase(pid, tgt)
		if err != nil {
			return err
		}
		base = b - tgt.firstLoad
	}
	im := &image{bps: map[uint64]*breakpoint{}}
	for _, s := range tgt.syms {
		addr := base + s.addr
		if _, dup := im.bps[addr]; dup {
			continue
		}
		var orig [1]byte
		if _, err := unix.PtracePeekData(pid, uintptr(addr), orig[:]); err != nil {
			return fmt.Errorf("entrytrace: read %s at %#x: %w", s.name, addr, err)
		}
		if _, err := unix.PtracePokeData(pid, uintptr(addr), []byte{int3}); err != nil {
			return fmt.Errorf("entrytrace: arm %s at %#x: %w", s.name, addr, err)
		}
		im.bps[addr] = &breakpoint{name: prefix + s.name, original: orig[0]}
		tr.armed[prefix+s.name] = true
	}
	tr.procs[pid] = im
	tr.res.Images++
	return nil
}

// withinTarget is the target a process that just exec'd runs, when its
// image lies below Within, with the prefix of its names; nil otherwise
// (and for an image that is not an x86-64 ELF file: a script, a program
// for Wine).
func (tr *tracer) withinTarget(pid int, st syscall.Stat_t) (*target, string) {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return nil, ""
	}
	rel, ok := strings.CutPrefix(exe, strings.TrimSuffix(tr.within, "/")+"/")
	if !ok {
		return nil, ""
	}
	key := devIno{st.Dev, st.Ino}
	t, seen := tr.targets[key]
	if !seen {
		t, _ = readTarget(exe, tr.sel)
		tr.targets[key] = t
	}
	if t == nil {
		return nil, ""
	}
	return t, rel + ":"
}

// loop follows every thread until the first process has exited.
func (tr *tracer) loop() error {
	for {
		var ws syscall.WaitStatus
		tid, err := wait(-1, &ws)
		if err != nil {
			return err
		}
		switch {
		case ws.Exited() || ws.Signaled():
			delete(tr.seen, tid)
			if tid == tr.pid {
				if ws.Exited() {
					tr.res.ExitCode = ws.ExitStatus()
				} else {
					tr.res.ExitCode, tr.res.Signal = -1, ws.Signal().String()
				}
				return nil
			}
		case ws.Stopped():
			if err := tr.stopped(tid, ws); err != nil {
				return err
			}
		}
	}
}

// stopped handles one thread's stop and resumes it.
func (tr *tracer) stopped(tid int, ws syscall.WaitStatus) error {
	sig := ws.StopSignal()
	if !tr.seen[tid] {
		// A new thread's or process's first stop (it may come before the
		// event of the one that made it).
		tr.seen[tid] = true
		if sig == syscall.SIGSTOP {
			tgid, ppid := procStatus(tid)
			if tgid == tid && tr.procs[ppid] != nil {
				// A process the target started (a helper process, a
				// command a test runs) is not followed: its signals,
				// its own tracing and its job control stay its own.
				delete(tr.seen, tid)
				if err := unix.PtraceDetach(tid); err != nil && !errors.Is(err, syscall.ESRCH) {
					return fmt.Errorf("entrytrace: let go of process %d: %w", tid, err)
				}
				return nil
			}
			return cont(tid, 0)
		}
	}
	if sig != syscall.SIGTRAP {
		if stopSignal(sig) && groupStop(tid) {
			// The stop the signal caused, reported again: a tracer of
			// this kind cannot leave it stopped and keep waiting, so it
			// goes on (re-injecting would report it forever).
			return cont(tid, 0)
		}
		return cont(tid, sig) // the program's own signal (Go's SIGURG, …)
	}
	switch ws.TrapCause() {
	case unix.PTRACE_EVENT_CLONE, unix.PTRACE_EVENT_FORK, unix.PTRACE_EVENT_VFORK:
		// A thread shares its process's image; a new process runs its
		// parent's until it execs, and the launcher chain before the
		// target runs no watched code: nothing to record until an exec.
		return cont(tid, 0)
	case unix.PTRACE_EVENT_EXEC:
		// The thread that exec'd now has the process's id; the old image
		// and its breakpoints are gone.
		if err := tr.execed(tid); err != nil {
			return err
		}
		return cont(tid, 0)
	case 0:
		return tr.trap(tid)
	}
	return cont(tid, 0)
}

// trap handles a SIGTRAP: a breakpoint of ours (the CPU's trap with the
// instruction pointer just past one) or the program's own, handed back.
func (tr *tracer) trap(tid int) error {
	var regs unix.PtraceRegs
	if err := unix.PtraceGetRegs(tid, &regs); err != nil {
		return cont(tid, 0) // the thread went away
	}
	addr := regs.Rip - 1
	im := tr.procs[tgidOf(tid)]
	var bp *breakpoint
	if im != nil {
		bp = im.bps[addr]
	}
	if bp == nil || siCode(tid) != siKernel {
		return cont(tid, syscall.SIGTRAP)
	}
	if !bp.removed {
		// Once per process: the breakpoint goes now, and a process
		// that execs the image again gets new ones.
		tr.entered[bp.name]++
		// Seen once is all the evidence needs: put the instruction back
		// and let every later call run untouched. (ptrace writes through
		// a stopped thread, this one; the memory is its whole process's.)
		if _, err := unix.PtracePokeData(tid, uintptr(addr), []byte{bp.original}); err != nil {
			return fmt.Errorf("entrytrace: disarm %s: %w", bp.name, err)
		}
		bp.removed = true
	}
	regs.Rip = addr
	if err := unix.PtraceSetRegs(tid, &regs); err != nil {
		return fmt.Errorf("entrytrace: rewind %s: %w", bp.name, err)
	}
	return cont(tid, 0)
}

// killRest kills what the first process left running: the processes of
// the tree the tracer still holds.
func (tr *tracer) killRest() {
	for pid := range tr.procs {
		if pid != tr.pid {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// tgidOf is the process a thread belongs to.
func tgidOf(tid int) int {
	tgid, _ := procStatus(tid)
	return tgid
}

// procStatus is a thread's process and that process's parent, as this
// process's PID namespace numbers them; the thread itself when unknown.
func procStatus(tid int) (tgid, ppid int) {
	tgid, ppid = tid, 0
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tid))
	if err != nil {
		return tgid, ppid
	}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			continue
		}
		switch key {
		case "Tgid":
			tgid = n
		case "PPid":
			ppid = n
		}
	}
	return tgid, ppid
}

func stopSignal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU:
		return true
	}
	return false
}

// groupStop tells a group-stop from a signal about to be delivered: only
// the latter has a siginfo.
func groupStop(tid int) bool {
	var info [128]byte
	_, _, errno := syscall.Syscall6(syscall.SYS_PTRACE, syscall.PTRACE_GETSIGINFO, uintptr(tid), 0, uintptr(unsafe.Pointer(&info[0])), 0, 0)
	return errno == syscall.EINVAL
}

// siCode is the si_code of the signal a thread stopped with.
func siCode(tid int) int32 {
	var info [128]byte
	_, _, errno := syscall.Syscall6(syscall.SYS_PTRACE, syscall.PTRACE_GETSIGINFO, uintptr(tid), 0, uintptr(unsafe.Pointer(&info[0])), 0, 0)
	if errno != 0 {
		return 0
	}
	// siginfo_t: int si_signo, int si_errno, int si_code.
	return *(*int32)(unsafe.Pointer(&info[8]))
}

func cont(tid int, sig syscall.Signal) error {
	if err := unix.PtraceCont(tid, int(sig)); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("entrytrace: resume thread %d: %w", tid, err)
	}
	return nil
}

func wait(pid int, ws *syscall.WaitStatus) (int, error) {
	for {
		tid, err := syscall.Wait4(pid, ws, syscall.WALL, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("entrytrace: wait: %w", err)
		}
		return tid, nil
	}
}

// loadBase is where the kernel mapped a position-independent target in
// a process: its mapping at file offset 0, found by device and inode (a
// path in /proc/PID/maps depends on the mount namespace looking).
func loadBase(pid int, t *target) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return 0, fmt.Errorf("entrytrace: %w", err)
	}
	defer f.Close()
	dev := fmt.Sprintf("%02x:%02x", unix.Major(t.dev), unix.Minor(t.dev))
	ino := strconv.FormatUint(t.ino, 10)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[3] != dev || fields[4] != ino || strings.Trim(fields[2], "0") != "" {
			continue
		}
		start, _, _ := strings.Cut(fields[0], "-")
		return strconv.ParseUint(start, 16, 64)
	}
	return 0, fmt.Errorf("entrytrace: no mapping of the target (dev %s inode %s) in process %d", dev, ino, pid)
}

// stdio opens /dev/null for the streams the command leaves nil.
func stdio(c Command) ([]*os.File, func(), error) {
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	files := []*os.File{c.Stdin, c.Stdout, c.Stderr}
	for i, f := range files {
		if f != nil {
			continue
		}
		flag := os.O_WRONLY
		if i == 0 {
			flag = os.O_RDONLY
		}
		n, err := os.OpenFile(os.DevNull, flag, 0)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("entrytrace: %w", err)
		}
		opened = append(opened, n)
		files[i] = n
	}
	return files, closeAll, nil
}

// Available reports whether this process may trace the programs it
// starts: a seccomp profile, an LSM or a sandbox without ptrace makes
// every traced run go untraced, and a verdict must not depend on the
// machine (the launchers ask once, before a run, and fail it loudly).
// It starts /bin/true stopped under ptrace and kills it.
var Available = sync.OnceValue(func() error {
	errc := make(chan error, 1)
	go func() {
		// The tracer is the thread that started the tracee.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		proc, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{
			Sys: &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL},
		})
		if err != nil {
			errc <- fmt.Errorf("entrytrace: ptrace is not permitted here: %w", err)
			return
		}
		var ws syscall.WaitStatus
		_, err = wait(proc.Pid, &ws)
		if err == nil && !ws.Stopped() {
			err = fmt.Errorf("entrytrace: a traced /bin/true did not stop at its exec (%v): ptrace is not working here", ws)
		}
		_ = syscall.Kill(proc.Pid, syscall.SIGKILL)
		_, _ = wait(proc.Pid, &ws)
		errc <- err
	}()
	return <-errc
})
