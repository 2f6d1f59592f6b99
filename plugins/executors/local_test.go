//go:build unix

package executors

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// newTestLocal returns a local executor with short grace periods, so that
// tests of stubborn processes stay fast.
func newTestLocal(t *testing.T) *Local {
	t.Helper()
	l, err := NewLocal(Config{StateDir: scratchDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	l.KillGrace = 300 * time.Millisecond
	l.OutputWait = 300 * time.Millisecond
	return l
}

// scratchDir returns a fresh directory that the unprivileged run user can
// reach: t.TempDir creates its parent with mode 0700, which would lock that
// user out when the tests run as root.
func scratchDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCapture runs cmd with fresh output buffers.
func runCapture(t *testing.T, l *Local, cmd Cmd) (res Result, stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	res, err = l.Run(context.Background(), cmd)
	return res, out.String(), errOut.String(), err
}

func shell(script string) []string { return []string{"sh", "-c", script} }

func TestLocalExitCodes(t *testing.T) {
	l := newTestLocal(t)
	tests := []struct {
		script string
		want   int
	}{
		{"exit 0", 0},
		{"false", 1},
		{"exit 3", 3},
		{"exit 255", 255},
		{"kill -KILL $$", -1},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			res, _, _, err := runCapture(t, l, Cmd{Argv: shell(tt.script), WorkDir: scratchDir(t)})
			if err != nil {
				t.Fatalf("Run: %v (a non-zero exit is a result, not an error)", err)
			}
			if res.ExitCode != tt.want || res.TimedOut {
				t.Errorf("Run(%q) = %+v, want exit code %d, not timed out", tt.script, res, tt.want)
			}
		})
	}
}

func TestLocalCapturesOutput(t *testing.T) {
	l := newTestLocal(t)
	script := "echo to-stdout; echo to-stderr >&2; echo again-stdout"
	t.Run("separate writers", func(t *testing.T) {
		_, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script), WorkDir: scratchDir(t)})
		if err != nil {
			t.Fatal(err)
		}
		if stdout != "to-stdout\nagain-stdout\n" || stderr != "to-stderr\n" {
			t.Errorf("stdout = %q, stderr = %q", stdout, stderr)
		}
	})
	t.Run("one writer", func(t *testing.T) {
		var both bytes.Buffer
		cmd := Cmd{Argv: shell(script), WorkDir: scratchDir(t), Stdout: &both, Stderr: &both}
		if _, err := l.Run(context.Background(), cmd); err != nil {
			t.Fatal(err)
		}
		if got := both.String(); got != "to-stdout\nto-stderr\nagain-stdout\n" {
			t.Errorf("combined output = %q", got)
		}
	})
	t.Run("no writers", func(t *testing.T) {
		res, err := l.Run(context.Background(), Cmd{Argv: shell(script + "; exit 4"), WorkDir: scratchDir(t)})
		if err != nil || res.ExitCode != 4 {
			t.Errorf("Run = %+v, %v; want exit code 4 with output discarded", res, err)
		}
	})
}

// envOf runs env(1) and returns the environment it saw.
func envOf(t *testing.T, l *Local, cmd Cmd) map[string]string {
	t.Helper()
	cmd.Argv = []string{"env"}
	res, stdout, stderr, err := runCapture(t, l, cmd)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("env: %+v, %v, stderr %q", res, err, stderr)
	}
	got := map[string]string{}
	for line := range strings.Lines(stdout) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		got[k] = v
	}
	return got
}

func TestLocalEnvironmentIsIsolated(t *testing.T) {
	t.Setenv("OSBENCH_HOST_ONLY", "leaked")
	l := newTestLocal(t)
	work := scratchDir(t)
	home, tmp := filepath.Join(work, "home"), filepath.Join(work, "tmp")
	hostPath := os.Getenv("PATH")

	tests := []struct {
		desc string
		cmd  Cmd
		want map[string]string
	}{
		{
			desc: "host PATH added, home and temp private",
			cmd:  Cmd{WorkDir: work, Env: []string{"GOFLAGS=-mod=mod"}},
			want: map[string]string{"PATH": hostPath, "HOME": home, "TMPDIR": tmp, "GOFLAGS": "-mod=mod"},
		},
		{
			desc: "PATH and HOME from Env win",
			cmd:  Cmd{WorkDir: work, Env: []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent"}},
			want: map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "TMPDIR": tmp},
		},
		{
			desc: "no WorkDir, no home",
			cmd:  Cmd{Dir: work, Env: []string{"A=1"}},
			want: map[string]string{"PATH": hostPath, "A": "1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := envOf(t, l, tt.cmd)
			if _, leaked := got["OSBENCH_HOST_ONLY"]; leaked {
				t.Errorf("host variable OSBENCH_HOST_ONLY leaked into the command")
			}
			if len(got) != len(tt.want) {
				t.Errorf("environment = %q, want exactly %q", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestLocalPrivateHomeAndTemp(t *testing.T) {
	l := newTestLocal(t)
	work := scratchDir(t)
	script := `touch "$HOME/home-file" "$TMPDIR/tmp-file" && echo "$HOME $TMPDIR"`
	res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script), WorkDir: work})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
	}
	home, tmp := filepath.Join(work, "home"), filepath.Join(work, "tmp")
	if want := home + " " + tmp + "\n"; stdout != want {
		t.Errorf("HOME TMPDIR = %q, want %q", stdout, want)
	}
	for _, f := range []string{filepath.Join(home, "home-file"), filepath.Join(tmp, "tmp-file")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("file the command created: %v", err)
		}
	}
}

func TestLocalFindsProgramsInCommandPath(t *testing.T) {
	l := newTestLocal(t)
	work := scratchDir(t)
	bin := filepath.Join(work, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(bin, "osbench-hello")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho hello from PATH\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	res, stdout, _, err := runCapture(t, l, Cmd{
		Argv:    []string{"osbench-hello"},
		WorkDir: work,
		Env:     []string{"PATH=" + bin + ":/usr/bin:/bin"},
	})
	if err != nil || res.ExitCode != 0 || stdout != "hello from PATH\n" {
		t.Errorf("Run = %+v, %q, %v; want the program found through the command's PATH", res, stdout, err)
	}

	// The host PATH does not contain bin, and a relative entry is never
	// searched.
	for _, path := range []string{"", ".", "bin"} {
		_, err := l.Run(context.Background(), Cmd{Argv: []string{"osbench-hello"}, WorkDir: work, Env: []string{"PATH=" + path}})
		if err == nil || !strings.Contains(err.Error(), "executable not found") {
			t.Errorf("PATH=%q: error = %v, want executable not found", path, err)
		}
	}
}

func TestLocalRejectsBadCommands(t *testing.T) {
	l := newTestLocal(t)
	work := scratchDir(t)
	tests := []struct {
		desc string
		cmd  Cmd
		want string
	}{
		{"no argv", Cmd{WorkDir: work}, "empty command"},
		{"empty program", Cmd{Argv: []string{""}, WorkDir: work}, "empty command"},
		{"no directory", Cmd{Argv: []string{"true"}}, "no working directory"},
		{"relative dir", Cmd{Argv: []string{"true"}, Dir: "src"}, `Dir "src" is not absolute`},
		{"relative work dir", Cmd{Argv: []string{"true"}, WorkDir: "work"}, `WorkDir "work" is not absolute`},
		{"relative writable dir", Cmd{Argv: []string{"true"}, WorkDir: work, WritableDirs: []string{"cache"}}, `writable dir "cache" is not absolute`},
		{"malformed env", Cmd{Argv: []string{"true"}, WorkDir: work, Env: []string{"NOEQUALS"}}, `Env[0] = "NOEQUALS"`},
		{"empty env key", Cmd{Argv: []string{"true"}, WorkDir: work, Env: []string{"A=1", "=x"}}, `Env[1] = "=x"`},
		{"negative timeout", Cmd{Argv: []string{"true"}, WorkDir: work, Timeout: -time.Second}, "negative timeout"},
		{"unknown user", Cmd{Argv: []string{"true"}, WorkDir: work, User: "nobody"}, `unknown user mode "nobody"`},
		{"missing program", Cmd{Argv: []string{"osbench-no-such-program"}, WorkDir: work}, "executable not found"},
		{"missing dir", Cmd{Argv: []string{"true"}, Dir: filepath.Join(work, "absent")}, filepath.Join(work, "absent") + ": no such file"},
		{"dir is a file", Cmd{Argv: []string{"true"}, Dir: "/dev/null"}, "/dev/null is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := l.Run(context.Background(), tt.cmd)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run error = %v, want one mentioning %q", err, tt.want)
			}
			if res.ExitCode != -1 {
				t.Errorf("ExitCode = %d for a command that never ran, want -1", res.ExitCode)
			}
		})
	}
}

func TestLocalDoesNotStartWhenCancelled(t *testing.T) {
	l := newTestLocal(t)
	work := scratchDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := l.Run(ctx, Cmd{Argv: shell("touch ran"), WorkDir: work})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run error = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(work, "ran")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the command ran although the context was already cancelled")
	}
}

func TestLocalIdentity(t *testing.T) {
	l := newTestLocal(t)
	if l.Name() != "local" || l.Platform() != runtime.GOOS {
		t.Errorf("Name, Platform = %q, %q", l.Name(), l.Platform())
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	rootMode := "unprivileged" // a non-root osbench ignores User
	if os.Geteuid() == 0 {
		rootMode = "root home=passwd"
	}
	// Only a root osbench on Linux isolates commands; a non-root one
	// keeps the keys it had.
	iso := ""
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		iso = " isolation=net,view"
	}
	tests := []struct {
		user string
		want string
	}{
		{"", "local " + platform + " user=unprivileged" + iso},
		{"root", "local " + platform + " user=" + rootMode + iso},
	}
	seen := []string{}
	for _, tt := range tests {
		got, err := l.Fingerprint(context.Background(), tt.user)
		if err != nil || got != tt.want {
			t.Errorf("Fingerprint(%q) = %q, %v; want %q", tt.user, got, err, tt.want)
		}
		again, _ := l.Fingerprint(context.Background(), tt.user)
		if again != got {
			t.Errorf("Fingerprint(%q) is not stable: %q then %q", tt.user, got, again)
		}
		seen = append(seen, got)
	}
	if os.Geteuid() == 0 && seen[0] == seen[1] {
		t.Errorf("as root, both user modes have fingerprint %q; they change results and must differ", seen[0])
	}
	if _, err := l.Fingerprint(context.Background(), "admin"); err == nil {
		t.Errorf("Fingerprint(%q) succeeded, want an unknown-user-mode error", "admin")
	}
}
