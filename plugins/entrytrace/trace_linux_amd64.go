package entrytrace

import (
	"bufio"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Command is a program to trace and the functions to watch.
type Command struct {
	Path string   // the executable (an ELF file)
	Args []string // argv, Args[0] included
	Env  []string
	Dir  string
	// Stdin, Stdout and Stderr are the program's; nil is /dev/null.
	Stdin, Stdout, Stderr *os.File
	// Select picks the symbols to watch and names them (GoTest for a Go
	// test binary). Several symbols may share a name.
	Select func(symbol string) (name string, ok bool)
}

// breakpoint is one armed function entry.
type breakpoint struct {
	name     string
	original byte
	removed  bool
}

const (
	int3      = 0xCC
	siKernel  = 0x80 // si_code of a trap the CPU raised (int3), not kill(2)
	exitKill  = unix.PTRACE_O_EXITKILL
	traceOpts = unix.PTRACE_O_TRACECLONE | unix.PTRACE_O_TRACEEXEC | exitKill
)

// Trace runs the command to its end under ptrace and reports the selected
// functions it entered. The calling process must not start or wait for
// other children while Trace runs: a tracer reaps every thread of the
// program with wait(-1), which would take theirs too (the test launcher
// runs it as a process of its own). A cancelled ctx kills the program.
func Trace(ctx context.Context, c Command) (*Result, error) {
	syms, err := selectSymbols(c.Path, c.Select)
	if err != nil {
		return nil, err
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
		res, err := run(c, syms, started)
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
		if pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		o := <-done
		if o.err == nil {
			o.err = ctx.Err()
		}
		return o.res, o.err
	}
}

// elfSymbol is a selected function of the executable's symbol table.
type elfSymbol struct {
	name string
	addr uint64
}

// selectSymbols reads the executable's function symbols the selector
// accepts; it also says whether the file is position-independent, in
// which case the addresses are offsets from the load address.
func selectSymbols(path string, sel func(string) (string, bool)) (symbolTable, error) {
	f, err := elf.Open(path)
	if err != nil {
		return symbolTable{}, fmt.Errorf("entrytrace: %w", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		return symbolTable{}, fmt.Errorf("entrytrace: %s is %s, not x86-64", path, f.Machine)
	}
	all, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return symbolTable{}, fmt.Errorf("entrytrace: %s: %w", path, err)
	}
	t := symbolTable{pie: f.Type == elf.ET_DYN}
	for _, s := range all {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 {
			continue
		}
		if name, ok := sel(s.Name); ok {
			t.syms = append(t.syms, elfSymbol{name: name, addr: s.Value})
		}
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

type symbolTable struct {
	syms      []elfSymbol
	pie       bool
	firstLoad uint64
}

// tracer is the state of one traced run.
type tracer struct {
	pid     int
	bps     map[uint64]*breakpoint
	entered map[string]bool
	threads map[int]bool
	res     Result
}

func run(c Command, t symbolTable, started chan<- int) (*Result, error) {
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

	tr := &tracer{pid: pid, bps: map[uint64]*breakpoint{}, entered: map[string]bool{}, threads: map[int]bool{pid: true}}
	// The first stop is the trap after execve: the image is in place and
	// nothing of it has run.
	var ws syscall.WaitStatus
	if _, err := wait(pid, &ws); err != nil {
		return nil, err
	}
	if !ws.Stopped() {
		return nil, fmt.Errorf("entrytrace: %s ended before it started (%v)", c.Path, ws)
	}
	if err := tr.arm(t); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		_, _ = wait(pid, &ws)
		return nil, err
	}
	if err := unix.PtraceSetOptions(pid, traceOpts); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		return nil, fmt.Errorf("entrytrace: options: %w", err)
	}
	if err := unix.PtraceCont(pid, 0); err != nil {
		return nil, fmt.Errorf("entrytrace: %w", err)
	}
	if err := tr.loop(); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		return nil, err
	}
	tr.res.Entered = sortedKeys(tr.entered)
	return &tr.res, nil
}

// arm writes a breakpoint over the first byte of every selected function.
func (tr *tracer) arm(t symbolTable) error {
	var base uint64
	if t.pie {
		b, err := loadBase(tr.pid)
		if err != nil {
			return err
		}
		base = b - t.firstLoad
	}
	armed := map[string]bool{}
	for _, s := range t.syms {
		addr := base + s.addr
		if _, dup := tr.bps[addr]; dup {
			continue
		}
		var orig [1]byte
		if _, err := unix.PtracePeekData(tr.pid, uintptr(addr), orig[:]); err != nil {
			return fmt.Errorf("entrytrace: read %s at %#x: %w", s.name, addr, err)
		}
		if _, err := unix.PtracePokeData(tr.pid, uintptr(addr), []byte{int3}); err != nil {
			return fmt.Errorf("entrytrace: arm %s at %#x: %w", s.name, addr, err)
		}
		tr.bps[addr] = &breakpoint{name: s.name, original: orig[0]}
		armed[s.name] = true
	}
	tr.res.Armed = sortedKeys(armed)
	return nil
}

// loop follows every thread until the program's main thread has exited.
func (tr *tracer) loop() error {
	for {
		var ws syscall.WaitStatus
		tid, err := wait(-1, &ws)
		if err != nil {
			return err
		}
		switch {
		case ws.Exited() || ws.Signaled():
			delete(tr.threads, tid)
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
	if !tr.threads[tid] {
		// A new thread's first stop (its SIGSTOP may come before the
		// clone event of the thread that made it).
		tr.threads[tid] = true
		if sig == syscall.SIGSTOP {
			return cont(tid, 0)
		}
	}
	if sig != syscall.SIGTRAP {
		return cont(tid, sig) // the program's own signal (Go's SIGURG, …)
	}
	switch ws.TrapCause() {
	case unix.PTRACE_EVENT_CLONE:
		msg, err := unix.PtraceGetEventMsg(tid)
		if err == nil {
			tr.threads[int(msg)] = true
		}
		return cont(tid, 0)
	case unix.PTRACE_EVENT_EXEC:
		// The breakpoints went with the old image; the new one runs
		// untraced for entries.
		tr.res.Execed = true
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
	bp, ok := tr.bps[addr]
	if !ok || tr.res.Execed || siCode(tid) != siKernel {
		return cont(tid, syscall.SIGTRAP)
	}
	tr.entered[bp.name] = true
	if !bp.removed {
		// Seen once is all the evidence needs: put the instruction back
		// and let every later call run untouched. (ptrace writes through
		// a stopped thread: this one; the memory is the whole program's.)
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

// loadBase is where the kernel mapped a position-independent executable:
// the lowest mapping of its file at offset 0.
func loadBase(pid int) (uint64, error) {
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	if err != nil {
		return 0, fmt.Errorf("entrytrace: %w", err)
	}
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "maps"))
	if err != nil {
		return 0, fmt.Errorf("entrytrace: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe || fields[2] != "00000000" {
			continue
		}
		start, _, _ := strings.Cut(fields[0], "-")
		return strconv.ParseUint(start, 16, 64)
	}
	return 0, fmt.Errorf("entrytrace: no mapping of %s in process %d", exe, pid)
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
