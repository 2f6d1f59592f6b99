package panics

import "testing"

// TestWaiting pauses until the sequential tests are done, which never happens.
func TestWaiting(t *testing.T) { t.Parallel() }

func TestBeforePanic(t *testing.T) {}

func TestPanics(t *testing.T) {
	t.Run("fine", func(t *testing.T) {})
	t.Run("boom", func(t *testing.T) { panic("boom") })
}

func TestAfterPanic(t *testing.T) {}
