//go:build unix

package executors

import (
	"context"
	"os"
	"strings"
	"testing"
)

// The tests here need no Wine: they cover what the wine executor decides
// before it runs anything. wine_linux_test.go runs real Wine.

func TestNewWineConfig(t *testing.T) {
	tests := []struct {
		stateDir string
		wantErr  string
	}{
		{"", "needs an absolute state directory"},
		{"state", `needs an absolute state directory, got "state"`},
		{"/var/cache/osbench/wine", ""},
	}
	for _, tt := range tests {
		w, err := NewWine(Config{StateDir: tt.stateDir})
		if tt.wantErr == "" {
			if err != nil || w.Name() != WineName || w.Platform() != "windows" {
				t.Errorf("NewWine(%q) = %v, %v; want the wine executor for windows", tt.stateDir, w, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("NewWine(%q) error = %v, want one mentioning %q", tt.stateDir, err, tt.wantErr)
		}
	}
}

func TestWineRegistered(t *testing.T) {
	ex, err := New(WineName, Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatalf("New(%q): %v", WineName, err)
	}
	if ex.Name() != WineName {
		t.Errorf("New(%q).Name() = %q", WineName, ex.Name())
	}
}

// TestWineRejectsBadCommands checks that what can be refused without Wine
// is refused before a prefix is leased (which would take a minute).
func TestWineRejectsBadCommands(t *testing.T) {
	work := scratchDir(t)
	tests := []struct {
		desc string
		cmd  Cmd
		want string
	}{
		{"no argv", Cmd{WorkDir: work}, "empty command"},
		{"relative dir", Cmd{Argv: []string{"true"}, Dir: "src"}, `Dir "src" is not absolute`},
		{"negative timeout", Cmd{Argv: []string{"true"}, WorkDir: work, Timeout: -1}, "negative timeout"},
		{"unknown user", Cmd{Argv: []string{"true"}, WorkDir: work, User: "nobody"}, `unknown user mode "nobody"`},
		{"own prefix", Cmd{Argv: []string{"true"}, WorkDir: work, Env: []string{"A=1", "WINEPREFIX=/root/.wine"}}, "Env[1] sets WINEPREFIX"},
		{"debug channels", Cmd{Argv: []string{"true"}, WorkDir: work, Env: []string{"WINEDEBUG=+file"}}, "Env[0] sets WINEDEBUG"},
		{"display", Cmd{Argv: []string{"true"}, WorkDir: work, Env: []string{"DISPLAY=:0"}}, "Env[0] sets DISPLAY"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			stateDir := t.TempDir()
			w, err := NewWine(Config{StateDir: stateDir})
			if err != nil {
				t.Fatal(err)
			}
			res, err := w.Run(context.Background(), tt.cmd)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run error = %v, want one mentioning %q", err, tt.want)
			}
			if res.ExitCode != -1 {
				t.Errorf("ExitCode = %d for a command that never ran, want -1", res.ExitCode)
			}
			if entries, _ := os.ReadDir(stateDir); len(entries) != 0 {
				t.Errorf("a refused command created %d entries in the state directory", len(entries))
			}
		})
	}
}

func TestWindowsPath(t *testing.T) {
	tests := []struct{ unix, want string }{
		{"/", `Z:\`},
		{"/tmp/work/tmp", `Z:\tmp\work\tmp`},
		{"/tmp/work/tmp/", `Z:\tmp\work\tmp`},
		{"/srv/a b/../c", `Z:\srv\c`},
	}
	for _, tt := range tests {
		if got := windowsPath(tt.unix); got != tt.want {
			t.Errorf("windowsPath(%q) = %q, want %q", tt.unix, got, tt.want)
		}
	}
}

func TestCommandTempDir(t *testing.T) {
	tests := []struct {
		desc   string
		cmd    Cmd
		want   string
		wantOK bool
	}{
		{"scratch temp of the work dir", Cmd{WorkDir: "/w"}, "/w/tmp", true},
		{"TMPDIR from Env wins", Cmd{WorkDir: "/w", Env: []string{"TMPDIR=/fast/tmp"}}, "/fast/tmp", true},
		{"relative TMPDIR is no place", Cmd{WorkDir: "/w", Env: []string{"TMPDIR=tmp"}}, "tmp", false},
		{"no work dir, no temp", Cmd{Dir: "/src"}, "", false},
	}
	for _, tt := range tests {
		got, ok := commandTempDir(tt.cmd)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("%s: commandTempDir = %q, %v; want %q, %v", tt.desc, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestShimDigest(t *testing.T) {
	d := shimDigest()
	if len(d) != 64 || strings.Trim(d, "0123456789abcdef") != "" {
		t.Fatalf("shimDigest() = %q, want 64 hex digits", d)
	}
	if !strings.Contains(shimSource, "ProcessPrng") || !strings.Contains(shimExports, "ProcessPrng") {
		t.Errorf("the embedded shim does not define and export ProcessPrng")
	}
	saved := shimSource
	t.Cleanup(func() { shimSource = saved })
	shimSource += "\n"
	if shimDigest() == d {
		t.Errorf("shimDigest ignores a change of the source")
	}
}
