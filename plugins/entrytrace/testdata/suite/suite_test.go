package suite

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1+2 is not 3")
	}
}

func TestNeverSelected(t *testing.T) {}

func TestSkipped(t *testing.T) { t.Skip("skipped on purpose") }

// TestParallel keeps several threads busy so new threads are cloned while
// the tracer watches.
func TestParallel(t *testing.T) {
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := 0
					for k := range 2_000_000 {
						s += Add(k, i)
					}
					_ = s
				}()
			}
			wg.Wait()
		})
	}
}

// TestNilRecovered takes a SIGSEGV the runtime turns into a panic: the
// tracer must hand the signal back.
func TestNilRecovered(t *testing.T) {
	defer func() { _ = recover() }()
	var p *int
	_ = *p
}

func TestFails(t *testing.T) {
	if os.Getenv("ENTRYTRACE_FAIL") != "" {
		t.Fatal("asked to fail")
	}
}

// TestSpawns runs this binary again as a child process.
func TestSpawns(t *testing.T) {
	if os.Getenv("ENTRYTRACE_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$")
	cmd.Env = append(os.Environ(), "ENTRYTRACE_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestStopsChild stops a child process and sees it stopped: job control
// of a process the test starts must work under the tracer.
func TestStopsChild(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command")
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "T" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the stopped child never showed as stopped")
}

func TestChild(t *testing.T) {
	if os.Getenv("ENTRYTRACE_CHILD") == "" {
		t.Skip("only as a child")
	}
}

func TestSleeps(t *testing.T) {
	if os.Getenv("ENTRYTRACE_SLEEP") == "" {
		t.Skip("only when asked")
	}
	time.Sleep(time.Minute)
}

func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
		Add(1, 2)
	}
}

func ExampleAdd() {
	fmt.Println(Add(1, 1))
	// Output: 2
}
