//go:build !unix

package executors

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// On hosts other than Unix (Windows) the local executor is a plain fallback:
// no process groups, no change of user.

// homeVars and tempVars are the variables pointed at a command's private
// home and temp directories.
var (
	homeVars = []string{"USERPROFILE"}
	tempVars = []string{"TEMP", "TMP"}
)

// Windows environment variable names are case-insensitive ("Path").
func envKeyEqual(a, b string) bool { return strings.EqualFold(a, b) }

func sysProcAttr(runUser) *syscall.SysProcAttr { return nil }

// terminateTree has no polite form here: the process is killed.
func terminateTree(p *os.Process) error { return p.Kill() }

func killTree(p *os.Process) error { return p.Kill() }

// lookPath searches osbench's own PATH (and PATHEXT), not pathList; good
// enough for the fallback.
func lookPath(file, _ string) (string, error) { return exec.LookPath(file) }

// checkReachable has nothing to check: commands run as osbench's own user.
func checkReachable(runUser, []string) error { return nil }

func prepareDirs(cmd Cmd, _ runUser) ([]uint32, error) {
	dirs := append(append(append(append([]string{}, cmd.WritableDirs...), cmd.ownedDirs...), cmd.ReadOnlyDirs...), cmd.CopyOnWriteDirs...)
	if cmd.WorkDir != "" {
		dirs = append(dirs, cmd.WorkDir, scratchHome(cmd.WorkDir), scratchTemp(cmd.WorkDir))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return nil, nil
}
