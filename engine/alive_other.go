//go:build !unix

package engine

// processAlive cannot tell elsewhere; every process counts as alive, so
// no temporary is ever removed that might still be written.
func processAlive(pid int) bool { return true }
