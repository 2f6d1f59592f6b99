package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// loadFigures are the load-independence measures (issue 20): the bundled
// examples built with no load of the harness's own and again under busy
// processes, each on a cache with no records (the tool caches shared).
type loadFigures struct {
	Busy        int
	Examples    int
	IdleWall    time.Duration
	IdleCode    int
	LoadedWall  time.Duration
	LoadedCode  int
	LoadAverage string // /proc/loadavg's 1-minute figure at the end of the loaded build
	// InfraFailed and CodeFailed count the loaded build's failed steps
	// by whose failure it was; Causes lists the infrastructure causes.
	InfraFailed, CodeFailed int
	Causes                  []string
	Retried                 int // steps run again after an infrastructure failure
	RerunCode               int // the rerun without load, when the loaded build failed (-1: none)
	Identical               bool
	TasksIdle, TasksLoaded  int
}

// load builds every bundled example twice: without and with busy
// processes at full priority (the harness's own; the machine's other load
// adds to both), then reruns a failed loaded build without them, and
// compares the tasks.jsonl files byte for byte.
func (h *harness) load(busyN int) (*loadFigures, error) {
	paths, _ := filepath.Glob(filepath.Join(h.cfg.Root, "manifests", "examples", "*.hcl"))
	if len(paths) == 0 {
		return nil, fmt.Errorf("load: no manifests under manifests/examples")
	}
	sort.Strings(paths)
	state := filepath.Join(h.cfg.ExampleState, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, err
	}
	if err := reachable(state, h.scratch); err != nil {
		return nil, err
	}
	fig := &loadFigures{Busy: busyN, Examples: len(paths), RerunCode: -1}
	fresh := func(name string) (string, string, error) {
		cache, out := filepath.Join(h.scratch, name+"-cache"), filepath.Join(h.scratch, name+"-out")
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return "", "", err
		}
		return cache, out, os.Symlink(state, filepath.Join(cache, "state"))
	}
	idleCache, idleOut, err := fresh("load-idle")
	if err != nil {
		return nil, err
	}
	r := h.rn.run(append(h.buildArgs(idleCache, idleOut), paths...)...)
	fig.IdleWall, fig.IdleCode = r.Wall, r.Code
	loadCache, loadOut, err := fresh("load-busy")
	if err != nil {
		return nil, err
	}
	stop, err := spin(busyN)
	if err != nil {
		return nil, err
	}
	r = h.rn.run(append(append([]string{"--infra-backoff", "10s"}, h.buildArgs(loadCache, loadOut)...), paths...)...)
	fig.LoadAverage = loadAverage()
	stop()
	fig.LoadedWall, fig.LoadedCode = r.Wall, r.Code
	steps, err := readBuildSteps(filepath.Join(loadOut, "build-steps.json"))
	if err != nil {
		return nil, fmt.Errorf("load: %v: %s", err, r.brief())
	}
	for _, s := range steps {
		if len(s.Retries) > 0 {
			fig.Retried++
		}
		if s.Status != "failed" {
			continue
		}
		if s.Infra != "" {
			fig.InfraFailed++
			fig.Causes = append(fig.Causes, s.ID+": "+s.Infra)
		} else {
			fig.CodeFailed++
		}
	}
	sort.Strings(fig.Causes)
	if r.Code != 0 {
		fig.RerunCode = h.rn.run(append(h.buildArgs(loadCache, loadOut), paths...)...).Code
	}
	idle, _ := os.ReadFile(filepath.Join(idleOut, "tasks.jsonl"))
	loaded, _ := os.ReadFile(filepath.Join(loadOut, "tasks.jsonl"))
	fig.Identical = len(idle) > 0 && bytes.Equal(idle, loaded)
	fig.TasksIdle, fig.TasksLoaded = bytes.Count(idle, []byte("\n")), bytes.Count(loaded, []byte("\n"))
	return fig, nil
}

// spin starts n processes that keep a core busy each, and returns what
// stops them.
func spin(n int) (func(), error) {
	var cmds []*exec.Cmd
	stop := func() {
		for _, c := range cmds {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			c.Wait()
		}
	}
	for i := 0; i < n; i++ {
		c := exec.Command("sh", "-c", "while :; do :; done")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		cmds = append(cmds, c)
	}
	return stop, nil
}

func (f *loadFigures) print(w io.Writer) {
	fmt.Fprintf(w, "\nload: the %d bundled examples on fresh records, idle and beside %d busy processes (load average %s at the end)\n", f.Examples, f.Busy, f.LoadAverage)
	fmt.Fprintf(w, "  idle build: exit %d, %s; loaded build: exit %d, %s\n", f.IdleCode, f.IdleWall.Round(time.Second), f.LoadedCode, f.LoadedWall.Round(time.Second))
	fmt.Fprintf(w, "  loaded build's failures: %d infrastructure, %d of the code; %d steps retried\n", f.InfraFailed, f.CodeFailed, f.Retried)
	for _, c := range f.Causes {
		fmt.Fprintf(w, "    %s\n", c)
	}
	if f.RerunCode >= 0 {
		fmt.Fprintf(w, "  rerun without the busy processes: exit %d\n", f.RerunCode)
	}
	fmt.Fprintf(w, "  tasks.jsonl identical: %v (%d tasks idle, %d loaded)\n", f.Identical, f.TasksIdle, f.TasksLoaded)
}
