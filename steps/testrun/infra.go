package testrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/runner"
)

// A run tells the machine's failures from the code's (issue 20): what a
// run shows of each is below, and whatever the machine caused is an
// engine.InfraError — never cached, retried by the engine, reported with
// its cause.

// Causes of the test step's infrastructure failures.
const (
	CauseNotStarted    = "timed out before any test started"
	CauseCompileTimout = "compile phase timed out"
	CauseKilled        = "killed by a signal osbench did not send"
	CauseOOM           = "a process of the step was killed by the OOM killer"
	CauseWine          = "lost wineserver or broken Wine prefix"
	CauseToolInstall   = "tool-install race"
	CauseNotReproduced = "test-phase timeout did not reproduce"
	CauseNoTracer      = "no entry tracer (ptrace not permitted)"
)

// compileBudget is the time a compile phase (the Go test binaries' build,
// a build command) gets: its own budget, apart from the test phase's, so
// a slow compile on a loaded machine is never a test timeout. It is wall
// time, like the test timeout; a compile that exceeds it is taken for the
// machine (an infrastructure failure), since compilers do not hang on the
// code osbench feeds them.
func compileBudget(testTimeout time.Duration) time.Duration {
	return max(2*testTimeout, 20*time.Minute)
}

// machineSignals are the signals that, ending the whole command, come from
// outside it: the OOM killer's SIGKILL, an operator's or a supervisor's
// TERM, INT or HUP. A SIGSEGV, SIGABRT, SIGBUS … of the command is the
// code's own crash and stays a result.
var machineSignals = map[int]string{
	int(syscall.SIGKILL): "SIGKILL (the OOM killer's signature)",
	int(syscall.SIGTERM): "SIGTERM",
	int(syscall.SIGINT):  "SIGINT",
	int(syscall.SIGHUP):  "SIGHUP",
}

// watchPatterns are output lines that only the machine causes. Matching
// is on whole lines of the run's output (stdout and stderr), bounded per
// line, so the watch costs no memory however much a suite prints.
var watchPatterns = []struct {
	cause string
	re    *regexp.Regexp
}{
	{engine.CauseNoSpace, regexp.MustCompile(`(?i)no space left on device|disk quota exceeded`)},
	// Wine's own fatal messages (dlls/ntdll/unix/server.c, loader.c):
	// the wineserver went away or never came, or the prefix is unusable.
	// The last is the wine executor's watch of the wineserver it started
	// (plugins/executors/wineserver.go): a server killed under a running
	// program leaves Wine silent.
	{CauseWine, regexp.MustCompile(`wine client error:|could not exec wineserver|the wine server (never started|failed to run)|a wine server seems to be running, but I cannot connect|the wrong wineserver is still running|cannot report I/O result back to server|wine: could not load kernel32\.dll|is not owned by you|in WINEPREFIX: not an absolute path|` +
		regexp.QuoteMeta(executors.WineServerLostMessage))},
	// Two go commands fetching one toolchain or module into a shared
	// cache at once (seen: chmod …/toolchain@…/asm: operation not
	// permitted); the toolchain step's lock prevents most, this catches
	// what is left.
	{CauseToolInstall, regexp.MustCompile(`go: downloading go1\.\S+ .*(operation not permitted|file exists|text file busy)|toolchain@v0\.0\.1-go\S+: .*(operation not permitted|no such file or directory)|go: .*: (verifying|extracting) .*: (operation not permitted|text file busy)`)},
	// A test binary the kernel killed (go test reports it per package).
	{"killed", regexp.MustCompile(`^signal: killed$|(^|\s)Killed(\s|$)|"Output":"signal: killed\\n"`)},
}

// watch reads a run's output line by line for the machine's marks and for
// the first sign that tests started. Each stream (stdout, stderr) gets a
// writer of its own (stream), so their lines never mix.
type watch struct {
	mu      sync.Mutex
	start   *regexp.Regexp
	started bool
	causes  map[string]string // cause → the first line that showed it
	// disk is the free space of the commands' file system (diskwatch.go),
	// nil unwatched.
	disk *diskWatch
}

const watchLineCap = 4096

// newWatch watches for the start mark of the runner that reads parser's
// output (runner.Runner.Started: a test2json run event, libtest's
// "running N tests", CTest's "Start N:" or "Test #N:"); a runner with none
// always counts as started (watch.Started).
func newWatch(parser string) *watch {
	w := &watch{causes: map[string]string{}}
	if r, ok := runner.ForParser(parser); ok {
		w.start = r.StartMark()
	}
	return w
}

// stream returns a writer for one output stream of a command.
func (w *watch) stream() io.Writer { return &watchStream{w: w} }

type watchStream struct {
	w    *watch
	line []byte
}

func (s *watchStream) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if room := watchLineCap - len(s.line); room > 0 {
				s.line = append(s.line, p[:min(room, len(p))]...)
			}
			break
		}
		if room := watchLineCap - len(s.line); room > 0 {
			s.line = append(s.line, p[:min(room, i)]...)
		}
		s.w.check(strings.TrimRight(string(s.line), "\r"))
		s.line = s.line[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (w *watch) check(line string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.start != nil && !w.started && w.start.MatchString(line) {
		w.started = true
	}
	for _, p := range watchPatterns {
		if _, seen := w.causes[p.cause]; !seen && p.re.MatchString(line) {
			w.causes[p.cause] = line
		}
	}
}

// reset forgets what a previous attempt showed.
func (w *watch) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started, w.causes = false, map[string]string{}
	if w.disk != nil {
		w.disk.reset()
	}
}

// Started reports whether the run showed a test start, or reported a
// result. A runner whose start osbench cannot see (a report file written at
// the end, TAP made from .trs files after the run) counts as started: its
// timeout goes through the reproduce rule, as before, rather than being
// taken for the machine's.
func (w *watch) Started(results int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.start == nil || w.started || results > 0
}

func (w *watch) seen(cause string) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	line, ok := w.causes[cause]
	return line, ok
}

// sizeString shows a byte count in MiB.
func sizeString(n int64) string {
	if n <= 0 {
		return "none"
	}
	return strconv.FormatInt(n>>20, 10) + " MiB"
}

// oomKills reads the kernel's count of OOM kills (/proc/vmstat oom_kill),
// -1 when it cannot. It is a machine-wide count: a kill during the step
// is attributed to the step only when the step's own output shows a
// killed process too.
func oomKills() int64 {
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// machineFailure says whether a run's end was the machine's doing, and
// why: the command killed by a signal osbench did not send, a test binary
// killed while the kernel counted an OOM kill, the disk full, Wine's server
// or prefix lost, a tool-install race. Patterns count only for a run that
// did not end cleanly (a passing suite that prints "no space left on
// device" in a test of its own error messages is a pass).
func machineFailure(res executors.Result, w *watch, oomBefore, oomAfter int64, isWine bool) error {
	if res.OOMKills > 0 && (res.ExitCode != 0 || res.TimedOut) {
		// The step's own memory cgroup counted the kills: the step
		// passed its limit, on any machine with that limit.
		return engine.Infra(CauseOOM, fmt.Errorf("the OOM killer killed %d process(es) of the command: it passed its memory limit of %s (%s)",
			res.OOMKills, sizeString(executors.DefaultMemoryLimit()), executors.MemoryLimitVar))
	}
	if why, ok := machineSignals[res.Signal]; ok && !res.TimedOut {
		return engine.Infra(CauseKilled, fmt.Errorf("the test command was killed by %s", why))
	}
	if res.ExitCode == 0 && !res.TimedOut {
		return nil
	}
	if line, ok := w.seen("killed"); ok && oomBefore >= 0 && oomAfter > oomBefore {
		return engine.Infra(CauseOOM, fmt.Errorf("the kernel counted %d OOM kills during the run, and it shows %q", oomAfter-oomBefore, line))
	}
	if line, ok := w.seen(engine.CauseNoSpace); ok {
		return engine.Infra(engine.CauseNoSpace, fmt.Errorf("the run's output shows %q", line))
	}
	if w.disk != nil {
		if low := w.disk.lowest(); low >= 0 && low < lowDiskFree {
			return engine.Infra(engine.CauseNoSpace, fmt.Errorf("the file system of %s had only %s free during the run (below %s): a failure then is the disk's",
				w.disk.dir, sizeString(low), sizeString(lowDiskFree)))
		}
	}
	if line, ok := w.seen(CauseWine); ok && isWine {
		return engine.Infra(CauseWine, fmt.Errorf("wine said %q", line))
	}
	if line, ok := w.seen(CauseToolInstall); ok {
		return engine.Infra(CauseToolInstall, fmt.Errorf("the go command said %q", line))
	}
	return nil
}
