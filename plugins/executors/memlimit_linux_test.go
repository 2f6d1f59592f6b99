package executors

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMemoryLimitOOMKillsTheCommand runs a command that holds 120 MB
// under a limit of 32 MiB: the kernel's OOM killer kills it for real
// inside its own cgroup, and the Result counts the kill; under no limit,
// or under a limit it stays below, the same command runs to the end and
// counts none. The cgroup is gone afterwards.
func TestMemoryLimitOOMKillsTheCommand(t *testing.T) {
	requireRoot(t)
	if _, _, err := ownMemoryCgroup(); err != nil {
		t.Skipf("no memory cgroup: %v", err)
	}
	// The shell keeps the whole 120 MB output of the substitution in
	// its own memory.
	hog := `x=$(head -c 120000000 /dev/zero | tr '\0' a); echo "held ${#x}"`
	tests := []struct {
		name    string
		limit   int64
		script  string
		wantOOM bool
	}{
		{"past the limit", 32 << 20, hog, true},
		{"no limit", 0, hog, false},
		{"below the limit", 32 << 20, `x=$(head -c 1000000 /dev/zero | tr '\0' a); echo "held ${#x}"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLocal(t)
			l.MemoryLimit = tt.limit
			var out strings.Builder
			res, err := l.Run(context.Background(), Cmd{
				Argv: []string{"sh", "-c", tt.script}, WorkDir: scratchDir(t),
				Stdout: &out, Stderr: &out, Timeout: 2 * time.Minute,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.OOMKills > 0; got != tt.wantOOM {
				t.Fatalf("OOM kills %d (exit %d, signal %d, output %q), want killed %v", res.OOMKills, res.ExitCode, res.Signal, out.String(), tt.wantOOM)
			}
			if tt.wantOOM {
				if res.Signal != int(syscall.SIGKILL) || strings.Contains(out.String(), "held") {
					t.Errorf("exit %d, signal %d, output %q; want the shell killed by SIGKILL before it held the data", res.ExitCode, res.Signal, out.String())
				}
			} else if res.ExitCode != 0 || !strings.Contains(out.String(), "held") {
				t.Errorf("exit %d, output %q; want it to run to the end", res.ExitCode, out.String())
			}
			parent, _, _ := ownMemoryCgroup()
			left, _ := filepath.Glob(filepath.Join(parent, "osbench-"+strconv.Itoa(os.Getpid())+"-*"))
			if len(left) > 0 {
				t.Errorf("cgroups left behind: %v", left)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"0", 0, false},
		{"1073741824", 1 << 30, false},
		{"512M", 512 << 20, false},
		{"8G", 8 << 30, false},
		{"8GiB", 8 << 30, false},
		{" 2k ", 2 << 10, false},
		{"1T", 1 << 40, false},
		{"", 0, true},
		{"-1G", 0, true},
		{"lots", 0, true},
		{"99999999999T", 0, true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestDefaultMemoryLimit(t *testing.T) {
	t.Setenv(MemoryLimitVar, "3G")
	if got := DefaultMemoryLimit(); got != 3<<30 {
		t.Errorf("with %s=3G: %d", MemoryLimitVar, got)
	}
	t.Setenv(MemoryLimitVar, "0")
	if got := DefaultMemoryLimit(); got != 0 {
		t.Errorf("with %s=0: %d, want none", MemoryLimitVar, got)
	}
	t.Setenv(MemoryLimitVar, "")
	if total := hostMemory(); total > 0 {
		if got := DefaultMemoryLimit(); got != max(total/2, 1<<30) {
			t.Errorf("default %d, want half of %d", got, total)
		}
	}
}
