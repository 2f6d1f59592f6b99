package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/osbench/osbench/plugins/executors/temporal/temporaltest"
)

// benchTemporal measures distribution: the Go examples (linux) built through
// a Temporal dev server by 1 worker and by 2 workers (each -j 1, every
// process over one cache directory, as workers on one machine can be —
// the remote cache's transfers are measured apart), every step a miss, the
// tool caches warm (shared from warmCache's state/, so compiling the tests
// does not drown the scheduling). The ratio says how much a second worker
// buys.
func benchTemporal(bin string, manifests []string, warmCache, tmp string) ([]row, error) {
	srv, err := temporaltest.StartServer(tmp)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	var walls []time.Duration
	for _, n := range []int{1, 2} {
		wall, err := temporalBuild(bin, srv.HostPort, manifests, warmCache, filepath.Join(tmp, fmt.Sprintf("temporal-%d", n)), n)
		if err != nil {
			return nil, err
		}
		walls = append(walls, wall)
	}
	ratio := walls[1].Seconds() / walls[0].Seconds()
	return []row{{
		"Go examples (linux) through Temporal: 2 workers / 1 worker (-j 1 each)",
		fmt.Sprintf("%.2f (%s / %s)", ratio, walls[1].Round(time.Millisecond), walls[0].Round(time.Millisecond)),
		"≤ 0.6", ratio <= 0.6,
	}}, nil
}

func temporalBuild(bin, hostPort string, manifests []string, warmCache, dir string, workers int) (time.Duration, error) {
	fresh := func(name string) (string, error) {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
		return d, os.Symlink(filepath.Join(warmCache, "state"), filepath.Join(d, "state"))
	}
	flags := []string{"--temporal", hostPort, "--log-level", "warn"}
	cache, err := fresh("cache")
	if err != nil {
		return 0, err
	}
	for i := 0; i < workers; i++ {
		log, err := os.Create(filepath.Join(dir, fmt.Sprintf("worker-%d.log", i)))
		if err != nil {
			return 0, err
		}
		w := exec.Command(bin, append(append([]string{"--cache-dir", cache, "--platform", "linux", "-j", "1"}, flags...), "worker")...)
		w.Stdout, w.Stderr = log, log
		if err := w.Start(); err != nil {
			return 0, err
		}
		log.Close()
		defer func() {
			w.Process.Signal(syscall.SIGTERM)
			w.Wait()
		}()
	}
	time.Sleep(2 * time.Second) // the workers' pollers connect
	wall, out, err := timed(bin, append(append(append([]string{"--cache-dir", cache, "--platform", "linux"}, flags...), "build"), manifests...)...)
	if err != nil {
		return 0, err
	}
	if strings.Contains(out, " 0 ran,") {
		return 0, fmt.Errorf("the build through temporal ran nothing:\n%s", out)
	}
	return wall, nil
}
