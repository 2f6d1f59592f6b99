//go:build linux

package testrun

import (
	"io"
	"os/exec"
	"path/filepath"

	"github.com/osbench/osbench/plugins/executors"
)

// hostLister is evidenceRun.list for the evidence tests: a runner's
// listing command run directly on the host in repo, with env (nil: the
// test's own) and, when bin is set, the program taken from bin (Debian's
// cargo in /usr/bin, not a rustup proxy on the PATH).
func hostLister(repo string, env []string, bin string) func(argv []string, w io.Writer) (executors.Result, error) {
	return func(argv []string, w io.Writer) (executors.Result, error) {
		prog := argv[0]
		if bin != "" {
			prog = filepath.Join(bin, prog)
		}
		cmd := exec.Command(prog, argv[1:]...)
		cmd.Dir, cmd.Env, cmd.Stdout = repo, env, w
		err := cmd.Run()
		return executors.Result{ExitCode: cmd.ProcessState.ExitCode()}, err
	}
}
