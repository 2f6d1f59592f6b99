package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// result is what one osbench invocation did.
type result struct {
	Code     int // exit code; -1 when killed
	Stdout   string
	Stderr   string
	Wall     time.Duration
	Killed   bool          // SIGKILLed by the harness before it ended by itself
	PeakRSS  int64         // bytes: osbench's own VmHWM, last sample before it ended
	MaxRSS   int64         // bytes: ru_maxrss from wait4 (osbench and the children it waited for)
	KilledAt time.Duration // when the harness sent SIGKILL
}

func (r result) ok() bool { return r.Code == 0 && !r.Killed }

// brief is one line for a failure list: the exit and the last line osbench
// printed on stderr.
func (r result) brief() string {
	last := strings.TrimSpace(r.Stderr)
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	if len(last) > 200 {
		last = last[:200] + "…"
	}
	return fmt.Sprintf("exit %d: %s", r.Code, last)
}

// runner starts the osbench binary.
type runner struct {
	bin string
	dir string // working directory of every invocation
}

// start runs osbench with args in its own process group (so what it left
// behind after a SIGKILL can be found and cleaned up between trials).
func (rn runner) start(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer, error) {
	cmd := exec.Command(rn.bin, args...)
	cmd.Dir = rn.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr, cmd.Start()
}

// run runs osbench to the end.
func (rn runner) run(args ...string) result {
	return rn.runWith(runOpts{killAfter: -1}, args...)
}

// runOpts say how the harness watches one invocation.
type runOpts struct {
	killAfter time.Duration // SIGKILL osbench after this long; negative: never
	sampleRSS bool          // sample osbench's peak RSS from /proc while it runs
	// leaveGroup skips the harness's cleanup of osbench's process group,
	// for the measure of what osbench itself leaves behind.
	leaveGroup bool
}

// runWith runs osbench as opts say.
func (rn runner) runWith(opts runOpts, args ...string) result {
	delay, sampleRSS := opts.killAfter, opts.sampleRSS
	start := time.Now()
	cmd, stdout, stderr, err := rn.start(args...)
	if err != nil {
		return result{Code: -1, Stderr: err.Error()}
	}
	done := make(chan struct{})
	var res result
	var mu sync.Mutex
	var wg sync.WaitGroup
	if sampleRSS {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for {
				if hwm, ok := procPeakRSS(cmd.Process.Pid); ok {
					mu.Lock()
					res.PeakRSS = hwm
					mu.Unlock()
				}
				select {
				case <-done:
					return
				case <-t.C:
				}
			}
		}()
	}
	if delay >= 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-done:
			case <-time.After(delay):
				mu.Lock()
				res.Killed = cmd.Process.Signal(syscall.SIGKILL) == nil
				res.KilledAt = time.Since(start)
				mu.Unlock()
			}
		}()
	}
	werr := cmd.Wait()
	res.Wall = time.Since(start)
	close(done)
	wg.Wait()
	// Whatever is left in osbench's process group after it died is cleaned
	// up here so trials stay independent; the escape measure counts
	// leftovers itself and never relies on this.
	if !opts.leaveGroup {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.MaxRSS = ru.Maxrss * 1024
	}
	res.Code = cmd.ProcessState.ExitCode()
	if werr != nil && res.Code == 0 {
		res.Code = -1
	}
	// A SIGKILL that arrived after osbench had already exited on its own
	// did not kill it.
	if res.Killed {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			res.Killed = false
		}
	}
	return res
}

// procPeakRSS reads VmHWM (peak resident set) of pid.
func procPeakRSS(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n * 1024, err == nil
			}
		}
	}
	return 0, false
}

// processesWith lists the pids of live processes whose command line
// contains marker (zombies have an empty command line and do not count).
func processesWith(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(marker)) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

var summaryLine = regexp.MustCompile(`(?m)(\d+) steps: (\d+) cached, (\d+) ran, (\d+) failed`)

// summary reads osbench's closing line: steps, cached, ran, failed.
func summary(stdout string) (steps, cached, ran, failed int, ok bool) {
	m := summaryLine.FindAllStringSubmatch(stdout, -1)
	if m == nil {
		return 0, 0, 0, 0, false
	}
	last := m[len(m)-1]
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(last[i+1])
	}
	return n[0], n[1], n[2], n[3], true
}

// verifyClean runs `osbench cache verify`; clean means exit 0 with no
// corrupt blob and no dropped record. It returns the counts it printed.
func (rn runner) verifyClean(cacheDir string) (clean bool, corrupt, dropped int, detail string) {
	r := rn.run("--cache-dir", cacheDir, "cache", "verify")
	m := regexp.MustCompile(`(\d+) blobs checked, (\d+) corrupt, (\d+) action records dropped`).FindStringSubmatch(r.Stdout)
	if m == nil {
		return false, 0, 0, r.brief()
	}
	corrupt, _ = strconv.Atoi(m[2])
	dropped, _ = strconv.Atoi(m[3])
	return r.Code == 0 && corrupt == 0 && dropped == 0, corrupt, dropped, strings.TrimSpace(r.Stdout)
}

// copyDir copies a cache (or any tree) with cp -a, which keeps the mtimes
// gc orders by.
func copyDir(src, dst string) error {
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("cp -a %s %s: %v: %s", src, dst, err, out)
	}
	return nil
}
