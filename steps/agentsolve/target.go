package agentsolve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolenv"
	"github.com/osbench/osbench/schemas"
)

// The target platform in the agent's reach (docs/agents.md): a program
// osbench-target on the agent's PATH asks osbench, over a loopback port,
// to run the task's own build and test commands on the target platform —
// through the executor the evaluation uses (Wine for a Windows target on
// a Linux host), with the sandbox of a test command, on a copy of the
// workspace as it is at that moment — and prints what they print. The
// agent never gets Wine, the prefixes or the caches themselves.

// TargetProgram is the program's name; EnvTargetAddr is where it finds
// osbench (127.0.0.1:PORT).
const (
	TargetProgram = "osbench-target"
	EnvTargetAddr = "OSBENCH_TARGET_ADDR"
	// SideTarget is the transcript of every osbench-target run.
	SideTarget = "target.log"
)

// targetPort is where osbench-target reaches osbench inside the agent's
// network namespace (the next free port when a relay or the proxy has it).
const targetPort = 3129

// TargetRun is how osbench-target runs the target's tests: the task's
// environment of the target platform, and the fingerprint of its executor
// here. In the solve step's key (what the agent can learn from a run
// depends on it); nil when this host cannot run the target.
type TargetRun struct {
	Executor    string            `json:"executor"`
	Fingerprint string            `json:"fingerprint"`
	Toolchain   string            `json:"toolchain"`
	Env         map[string]string `json:"env"`
	User        string            `json:"user,omitempty"`
	Build       *schemas.Command  `json:"build,omitempty"`
	Test        schemas.Command   `json:"test"`
	Timeout     string            `json:"timeout"`
}

// targetScript is osbench-target itself: bash, which every Linux host has
// and whose /dev/tcp needs no other program. The last line osbench sends
// is the exit status.
const targetScript = `#!/bin/bash
# osbench-target [test|build]: runs the task's build and tests on the
# target platform through osbench, on a copy of the working directory's
# repository as it is now (docs/agents.md). Exits with the tests' status.
set -u
what="${1:-test}"
case "$what" in test|build) ;; *) echo "usage: osbench-target [test|build]" >&2; exit 2 ;; esac
addr="${OSBENCH_TARGET_ADDR:?osbench-target: OSBENCH_TARGET_ADDR is not set}"
if ! exec 3<>"/dev/tcp/${addr%:*}/${addr##*:}"; then
  echo "osbench-target: cannot reach osbench at $addr" >&2
  exit 3
fi
printf '%s\n' "$what" >&3
status=3
while IFS= read -r line <&3 || [ -n "$line" ]; do
  case "$line" in
  "osbench-target: exit "*) status="${line#osbench-target: exit }" ;;
  *) printf '%s\n' "$line" ;;
  esac
done
exit "$status"
`

// targetRunner serves osbench-target's requests of one attempt, one at a
// time.
type targetRunner struct {
	run       *TargetRun
	language  string
	platform  string
	workspace string
	workDir   string
	maxBytes  int64
	stateDir  toolenv.StateDir
	log       io.Writer // the transcript, redacted

	ctx    context.Context
	cancel context.CancelFunc
	runMu  sync.Mutex // one run at a time
	n      int

	liveMu sync.Mutex // guards closed and live.Add
	closed bool
	live   sync.WaitGroup
}

func newTargetRunner(ctx context.Context, cfg Config, workspace, workDir string, stateDir toolenv.StateDir, log io.Writer) *targetRunner {
	t := &targetRunner{
		run: cfg.TargetRun, language: cfg.Language, platform: cfg.Target, workspace: workspace,
		workDir: workDir, maxBytes: cfg.MaxFileBytes, stateDir: stateDir, log: log,
	}
	t.ctx, t.cancel = context.WithCancel(ctx)
	return t
}

// install writes osbench-target into dir (a directory of its own, first on
// the agent's PATH).
func (t *targetRunner) install(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, TargetProgram), []byte(targetScript), 0o755)
}

// listen serves osbench-target on a loopback port of the host, for an
// executor that does not isolate the agent's network.
func (t *targetRunner) listen() (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", TargetProgram, err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go t.serve(c)
		}
	}()
	return l.Addr().String(), func() { l.Close() }, nil
}

// stop ends a run still going (the agent is gone) and waits for every
// request to end: nothing may run on once the patch is taken.
func (t *targetRunner) stop() {
	t.liveMu.Lock()
	t.closed = true
	t.liveMu.Unlock()
	t.cancel()
	t.live.Wait()
}

// serve answers one request: a line "test" or "build", then the commands'
// output, then "osbench-target: exit N".
func (t *targetRunner) serve(conn net.Conn) {
	defer conn.Close()
	t.liveMu.Lock()
	if t.closed {
		t.liveMu.Unlock()
		return
	}
	t.live.Add(1)
	t.liveMu.Unlock()
	defer t.live.Done()

	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
	_ = conn.SetReadDeadline(time.Time{})
	what := strings.TrimSpace(line)
	if err != nil || (what != "test" && what != "build") {
		fmt.Fprintf(conn, "osbench-target: want a line \"test\" or \"build\", got %q\nosbench-target: exit 2\n", line)
		return
	}
	t.runMu.Lock()
	defer t.runMu.Unlock()
	t.n++
	// The transcript first; the agent's end of the line may go away (a
	// `| head`), and the run must not stall on it: what it no longer
	// reads is dropped.
	out := &lockedWriter{w: io.MultiWriter(t.log, &dropOnError{w: conn})}
	code := t.runOnce(what, t.n, out)
	fmt.Fprintf(out, "osbench-target: exit %d\n", code)
}

// runOnce runs the build (and with "test" the tests) on a fresh copy of
// the workspace; its status is the last command's, 3 for osbench's own
// trouble (said on out).
func (t *targetRunner) runOnce(what string, n int, out io.Writer) int {
	r := t.run
	fmt.Fprintf(out, "osbench-target: run %d, %s on %s (%s executor), a copy of the workspace\n", n, what, t.platform, r.Executor)
	fail := func(err error) int {
		fmt.Fprintf(out, "osbench-target: %v\n", err)
		return 3
	}
	// A work dir of its own beside the step's, as a test step has: the
	// executor hands it to the run's user; the agent cannot see it.
	dir, err := os.MkdirTemp(t.workDir, fmt.Sprintf("solve-target-%d-", n))
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	repo := filepath.Join(dir, "repo")
	// The copy is the one the patch is taken by (diff.go): what would be
	// refused from the patch is not in the run either.
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return fail(err)
	}
	refused, err := copyWorkspace(t.workspace, repo, t.maxBytes)
	if err != nil {
		return fail(fmt.Errorf("copying the workspace: %w", err))
	}
	for _, r := range refused {
		fmt.Fprintf(out, "osbench-target: left out %s: %s\n", r.Path, r.Reason)
	}
	timeout, err := time.ParseDuration(r.Timeout)
	if err != nil {
		return fail(fmt.Errorf("timeout %q: %w", r.Timeout, err))
	}
	ex, err := toolenv.Executor(t.stateDir, r.Executor)
	if err != nil {
		return fail(err)
	}
	// The environment of a test command of the evaluation: the
	// toolchain's, offline (the caches the build filled, read-only), the
	// task's variables over it.
	env, writable, err := toolenv.Env(t.stateDir, dir, t.language, r.Toolchain, t.platform)
	if err != nil {
		return fail(err)
	}
	env, writable, readOnly, cow := toolenv.Offline(env, writable, t.language)
	readOnly, cow, hidden := toolenv.Hide(env, t.language, repo, readOnly, cow)
	env = toolenv.Merge(env, r.Env)
	commands := []schemas.Command{}
	if r.Build != nil {
		commands = append(commands, *r.Build)
	}
	if what == "test" {
		commands = append(commands, r.Test)
	}
	if len(commands) == 0 {
		fmt.Fprintf(out, "osbench-target: the task has no build command\n")
		return 0
	}
	code := 0
	for _, c := range commands {
		argv, err := c.ExecArgv()
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(out, "$ %s\n", strings.Join(argv, " "))
		res, err := ex.Run(t.ctx, executors.Cmd{
			Argv: argv, Dir: filepath.Join(repo, filepath.FromSlash(c.Dir)), Env: env,
			Stdout: out, Stderr: out, Timeout: timeout, User: r.User,
			WorkDir: dir, WritableDirs: writable, ReadOnlyDirs: readOnly, CopyOnWriteDirs: cow, HiddenPaths: hidden,
		})
		if err != nil {
			return fail(err)
		}
		if res.TimedOut {
			fmt.Fprintf(out, "osbench-target: timed out after %s\n", timeout)
		}
		if code = res.ExitCode; code != 0 {
			break
		}
	}
	return code
}

// dropOnError writes to w until a write fails, then discards.
type dropOnError struct {
	w      io.Writer
	failed bool
}

func (d *dropOnError) Write(p []byte) (int, error) {
	if !d.failed {
		if _, err := d.w.Write(p); err != nil {
			d.failed = true
		}
	}
	return len(p), nil
}

// lockedWriter serialises the writes of a command's stdout and stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// openNoFollow opens a regular file of the workspace, never through a link
// nor waiting on a FIFO the agent swapped in after the listing.
func openNoFollow(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|oNoFollow|oNonBlock, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	return f, nil
}
