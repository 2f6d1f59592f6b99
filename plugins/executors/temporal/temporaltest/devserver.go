// Package temporaltest starts a real Temporal development server (the
// Temporal CLI's `server start-dev`) on loopback for tests, and stops it.
package temporaltest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// CLIVersion is the Temporal CLI the tests and the Makefile use.
const CLIVersion = "v1.5.1"

// CLI finds the Temporal CLI: $OSBENCH_TEMPORAL_CLI, the Makefile's tool
// cache ($HOME/.cache/osbench-tools/temporal-<version>/temporal), or PATH.
func CLI() (string, error) {
	if p := os.Getenv("OSBENCH_TEMPORAL_CLI"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("OSBENCH_TEMPORAL_CLI=%s: %v", p, err)
		}
		return p, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".cache", "osbench-tools", "temporal-"+CLIVersion, "temporal")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("no Temporal CLI: run `make tools` (it runs go install github.com/temporalio/cli/cmd/temporal@%s into $HOME/.cache/osbench-tools) or set OSBENCH_TEMPORAL_CLI", CLIVersion)
}

// Server is a running development server.
type Server struct {
	HostPort string
	cmd      *exec.Cmd
	logPath  string
}

// Start starts a development server on a free loopback port and stops it
// when the test ends. It fails the test when the CLI is missing: `make
// test` installs it.
func Start(t testing.TB, dynamicConfig ...string) *Server {
	t.Helper()
	s, err := StartServer(t.TempDir(), dynamicConfig...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// StartServer starts a development server on a free loopback port, its log
// in dir; Stop ends it. dynamicConfig are more KEY=VALUE settings of the
// server's dynamic config, VALUE in JSON (`key="2s"` for a duration).
func StartServer(dir string, dynamicConfig ...string) (*Server, error) {
	cli, err := CLI()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	metrics, err := freePort()
	if err != nil {
		return nil, err
	}
	httpPort, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{HostPort: "127.0.0.1:" + strconv.Itoa(port), logPath: filepath.Join(dir, "temporal.log")}
	s.cmd = exec.Command(cli, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(port),
		"--metrics-port", strconv.Itoa(metrics), "--http-port", strconv.Itoa(httpPort), "--log-level", "warn",
		// A build sends each step as an update to its workflow: let
		// more than the default 10 wait at once.
		"--dynamic-config-value", "history.maxInFlightUpdates=1000",
		// One partition per task queue: with the default four, a step
		// queued behind a busy worker lands in one partition's backlog
		// while the worker polls another, and reaches it 1–2 s after
		// it is free (measured: 8.0 s → 5.6 s for the Go examples on one
		// worker). Partitions serve thousands of tasks a second; osbench
		// queues carry a few.
		"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
		"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1")
	for _, kv := range dynamicConfig {
		s.cmd.Args = append(s.cmd.Args, "--dynamic-config-value", kv)
	}
	logf, err := os.Create(s.logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		actx, done := context.WithTimeout(ctx, 5*time.Second)
		c, err := client.DialContext(actx, client.Options{HostPort: s.HostPort, Logger: tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
		if err == nil {
			_, err = c.CheckHealth(actx, &client.CheckHealthRequest{})
			c.Close()
		}
		done()
		if err == nil {
			return s, nil
		}
		if ctx.Err() != nil {
			s.Stop()
			b, _ := os.ReadFile(s.logPath)
			return nil, fmt.Errorf("temporal dev server on %s did not come up: %v\n%s", s.HostPort, err, b)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// Stop ends the server.
func (s *Server) Stop() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
