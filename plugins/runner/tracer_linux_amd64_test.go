package runner

import (
	"errors"
	"os"
	"os/exec"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// noPtraceVar makes this test binary a child that forbids itself ptrace
// (a seccomp filter, as a container's profile would) and asks for the
// tracer.
const noPtraceVar = "OSBENCH_TEST_NO_PTRACE"

func init() {
	if os.Getenv(noPtraceVar) != "1" {
		return
	}
	if err := forbidPtrace(); err != nil {
		os.Stdout.WriteString("seccomp: " + err.Error() + "\n")
		os.Exit(3)
	}
	if _, err := Tracer(); errors.Is(err, ErrNoTracer) {
		os.Stdout.WriteString("no tracer: " + err.Error() + "\n")
		os.Exit(0)
	}
	os.Stdout.WriteString("the tracer was handed out\n")
	os.Exit(1)
}

// TestTracerFailsLoudlyWithoutPtrace: where ptrace is forbidden, Tracer
// says so with ErrNoTracer (which the test step turns into an
// infrastructure failure) instead of handing out a tracer whose every run
// goes untraced; where it is permitted, it hands the tracer out.
func TestTracerFailsLoudlyWithoutPtrace(t *testing.T) {
	if p, err := Tracer(); p == "" || err != nil {
		t.Fatalf("Tracer() here = %q, %v; want this test binary", p, err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), noPtraceVar+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("without ptrace: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// forbidPtrace installs a seccomp filter that fails ptrace(2) with EPERM
// in every thread of this process and every process it starts.
func forbidPtrace() error {
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_PTRACE},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	// Every thread of the process (TSYNC): Go starts processes from any.
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return errno
	}
	return nil
}
