// Package winsuite is a Windows test suite for the Win32 entry tracer:
// goroutines on many threads, preemption of busy loops, a panic the
// runtime recovers (an exception Go's own handler takes), and a test that
// is never selected.
package winsuite

// Add is what the tests test.
func Add(a, b int) int { return a + b }
