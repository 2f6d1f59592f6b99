// Package suite is a test suite the tracer watches: tests that pass, skip,
// fail, run in parallel on many threads, recover from a fault, start a
// child process, or sleep until cancelled.
package suite

// Add is the code under test.
func Add(a, b int) int { return a + b }
