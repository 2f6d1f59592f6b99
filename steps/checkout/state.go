package checkout

import (
	"fmt"
	"os"

	"github.com/osbench/osbench/engine"
)

// stateDir is rc.StateDir for the mirrors of the checkout: git mirrors,
// osbench's own module cache of Go module sources, crate archives, the
// Debian pool and pinned archives. They hold the complete upstream sources
// of every task, so their top directory is osbench's alone (0700): the
// run users of build and test commands may not read them, even on a host
// where commands see the host's file system (a root osbench shows them
// none of it). Only osbench itself, never a command, reads or writes a
// mirror.
func stateDir(rc *engine.RunContext, parts ...string) (string, error) {
	dir, err := rc.StateDir(parts...)
	if err != nil {
		return "", err
	}
	top, err := rc.StateDir(parts[0])
	if err != nil {
		return "", err
	}
	if err := os.Chmod(top, 0o700); err != nil {
		return "", fmt.Errorf("making the checkout's state %s private: %w", top, err)
	}
	return dir, nil
}
