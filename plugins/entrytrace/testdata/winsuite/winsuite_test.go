package winsuite

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1+2 is not 3")
	}
}

func TestNeverSelected(t *testing.T) {}

// TestParallel keeps many threads busy in tight loops, which Go's runtime
// preempts by suspending threads and reading their contexts.
func TestParallel(t *testing.T) {
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					deadline := time.Now().Add(50 * time.Millisecond)
					n := 0
					for time.Now().Before(deadline) {
						n++
					}
					runtime.KeepAlive(n)
				}()
			}
			wg.Wait()
		})
	}
}

// TestRecovered dereferences nil: an access violation the debugger must
// pass on to Go's exception handler, which turns it into a panic.
func TestRecovered(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var p *int
	_ = *p
}

func ExampleAdd() {
	fmt.Println(Add(2, 2))
	// Output: 4
}
