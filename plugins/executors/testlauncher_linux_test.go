package executors

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// poisonTest is the test of a package whose test process tries to change
// the shared caches the way a poisoning patch's init() would: new files,
// existing files, and through another process's /proc/PID/root.
const poisonTest = `package poison

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestPoison(t *testing.T) {
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		dir := os.Getenv(v)
		if os.WriteFile(filepath.Join(dir, "poison"), []byte("x"), 0o644) == nil {
			t.Errorf("created a file in %s", v)
		}
		files := 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files++
				if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0); err == nil {
					f.Close()
					t.Errorf("%s: can write %s", v, p)
				}
			}
			return nil
		})
		if v == "GOCACHE" && files == 0 {
			t.Errorf("GOCACHE is empty: the test proves nothing")
		}
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if _, err := strconv.Atoi(e.Name()); err == nil {
				if os.WriteFile("/proc/"+e.Name()+"/root"+dir+"/poison", []byte("x"), 0o644) == nil {
					t.Errorf("wrote %s through /proc/%s/root", v, e.Name())
				}
			}
		}
	}
}
`

// TestTestLauncherProtectsCaches: the go command builds into GOCACHE, the
// test binary it runs cannot write GOCACHE or GOMODCACHE. Without the
// launcher the same test fails, so it can fail.
func TestTestLauncherProtectsCaches(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	if err := testLauncherUsable(); err != nil {
		t.Skipf("no test launcher on this host: %v", err)
	}
	base := scratchDir(t)
	src := filepath.Join(base, "work", "src")
	if err := writeModule(src, "example.com/poison", map[string]string{"poison_test.go": poisonTest}); err != nil {
		t.Fatal(err)
	}
	// Kept between runs, like the Wine tests' caches: a fresh GOCACHE
	// costs a build of the standard library's test dependencies (minutes
	// on a loaded machine). What the unprotected run leaves there (files
	// named poison) changes nothing for the go command.
	shared := filepath.Join(os.TempDir(), "osbench-test-launcher-cache-"+strconv.Itoa(os.Geteuid()))
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	caches := []string{filepath.Join(shared, "gocache"), filepath.Join(shared, "gomodcache")}
	for _, protected := range []bool{true, false} {
		l := newTestLocal(t)
		l.noTestLauncher = !protected
		res, stdout, stderr, err := runCapture(t, l, Cmd{
			Argv: []string{"go", "test", "-count=1", "."}, Dir: src, WorkDir: filepath.Join(base, "work"),
			Env: []string{
				"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-modcacherw",
				"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1], "GOENV=off", "CGO_ENABLED=0",
				"GOARCH=" + runtime.GOARCH,
			},
			// A cold cache builds the standard library's test
			// dependencies first: minutes on a loaded machine.
			WritableDirs: caches, Timeout: 15 * time.Minute,
		})
		if err != nil || res.TimedOut {
			t.Fatalf("protected=%v: Run = %+v, %v; stderr %s", protected, res, err, stderr)
		}
		switch {
		case protected && (res.ExitCode != 0 || !strings.HasPrefix(stdout, "ok")):
			t.Errorf("through the launcher the test process changed the caches: exit %d\n%s%s", res.ExitCode, stdout, stderr)
		case !protected && (res.ExitCode == 0 || !strings.Contains(stdout, "created a file in GOCACHE")):
			t.Errorf("without the launcher the poisoning test did not fail (exit %d), so it proves nothing:\n%s%s", res.ExitCode, stdout, stderr)
		}
	}
}

// TestStepLauncherRemovedAfterCommand: a command that protects a directory
// of its own work dir (the test step's evidence records) leaves no test
// launcher behind, since no other command protects that set; a launcher
// of shared directories only is kept for the commands after it.
func TestStepLauncherRemovedAfterCommand(t *testing.T) {
	if err := testLauncherUsable(); err != nil {
		t.Skipf("no test launcher on this host: %v", err)
	}
	base := scratchDir(t)
	shared := filepath.Join(base, "shared")
	for _, tt := range []struct {
		name     string
		private  bool
		wantKept bool
	}{
		{"shared dirs only", false, true},
		{"a dir in the work dir", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLocal(t)
			work := filepath.Join(base, "work-"+strconv.FormatBool(tt.private))
			dirs := []string{shared}
			if tt.private {
				dirs = append(dirs, filepath.Join(work, "records"))
			}
			cmd := Cmd{
				// A program run through the launcher, as go test -exec
				// would: the launcher exists while the command runs.
				Argv:    []string{"sh", "-c", `"$OSBENCH_TEST_SANDBOX" true && test -x "$OSBENCH_TEST_SANDBOX"`},
				WorkDir: work, Env: []string{"PATH=/usr/bin:/bin"}, WritableDirs: dirs, Timeout: time.Minute,
			}
			res, _, stderr, err := runCapture(t, l, cmd)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("Run = %+v, %v; stderr %s", res, err, stderr)
			}
			_, statErr := os.Stat(testLauncherDir(l.stateDir, launcherDirs(cmd)))
			if kept := statErr == nil; kept != tt.wantKept {
				t.Errorf("launcher kept = %v, want %v", kept, tt.wantKept)
			}
		})
	}
}
