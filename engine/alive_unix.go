//go:build unix

package engine

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this pid exists (a pid
// reused since only keeps a leftover, never removes a live one's file).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
