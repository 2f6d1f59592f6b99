//go:build unix

package testrun

import "syscall"

// openNoFollow refuses a final symbolic link and never waits for a FIFO's
// writer.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
