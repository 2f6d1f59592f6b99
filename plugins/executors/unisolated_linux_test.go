package executors

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUnisolatedConfig: Config.Unisolated, which only the bench harness
// sets, gives every command of the local and the wine executor the host's
// file system (a world-readable file outside the command's view is seen)
// and says so in the fingerprint; without it the same command does not
// see the file, and the fingerprint is the isolated one every key holds.
func TestUnisolatedConfig(t *testing.T) {
	requireRoot(t)
	// Outside /tmp, whose other trees each command's private tmpfs hides
	// whatever the view.
	base, err := os.MkdirTemp("/var/cache", "osbench-unisolated-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	host := filepath.Join(base, "answers.txt")
	writeFile(t, host, "the gold patch", 0o644)

	for _, unisolated := range []bool{false, true} {
		for _, name := range []string{LocalName, WineName} {
			if name == WineName {
				if err := checkWineTools(); err != nil {
					continue
				}
			}
			ex, err := New(name, Config{StateDir: scratchDir(t), Unisolated: unisolated})
			if err != nil {
				t.Fatal(err)
			}
			fp, err := ex.Fingerprint(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]string{false: " isolation=net,view", true: " isolation=off"}[unisolated]; !strings.HasSuffix(fp, want) {
				t.Errorf("%s unisolated=%v: fingerprint %q, want it to end in %q", name, unisolated, fp, want)
			}
			if name == WineName {
				// The wine executor's commands run through the same
				// runner; its fingerprint is what differs.
				continue
			}
			// The path is read from a file: one the argv named would be
			// in the view.
			work := filepath.Join(scratchDir(t), "work")
			writeFile(t, filepath.Join(work, "path.txt"), host, 0o644)
			res, err := ex.Run(context.Background(), Cmd{
				Argv: []string{"sh", "-c", `test -r "$(cat path.txt)"`}, WorkDir: work,
				Env: []string{"PATH=/usr/bin:/bin"}, Timeout: time.Minute,
			})
			if err != nil {
				t.Fatal(err)
			}
			if seen := res.ExitCode == 0; seen != unisolated {
				t.Errorf("%s unisolated=%v: the command saw %s: %v", name, unisolated, host, seen)
			}
		}
	}
}
