package executors

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// winePoisonTest is the test of a Windows package whose test process tries
// to change the shared caches through Wine's Z: drive, the way a poisoning
// patch's init() would: a new file in each cache, and every existing file
// it finds (up to a bound, to keep Wine's slow file walk short) opened for
// writing.
const winePoisonTest = `package %[1]s

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPoison(t *testing.T) {
	sys := ` + "`C:\\windows\\system32\\`" + `
	if os.WriteFile(sys+"poison-%[1]s.dll", []byte("x"), 0o644) == nil {
		t.Errorf("created a DLL in the prefix's system32")
	}
	if f, err := os.OpenFile(sys+"bcryptprimitives.dll", os.O_WRONLY|os.O_APPEND, 0); err == nil {
		f.Close()
		t.Errorf("can write the prefix's bcryptprimitives.dll shim")
	}
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		dir := "Z:" + strings.ReplaceAll(os.Getenv(v), "/", ` + "`\\`" + `)
		if os.WriteFile(filepath.Join(dir, "poison-%[1]s"), []byte("x"), 0o644) == nil {
			t.Errorf("created a file in %%s", v)
		}
		files := 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			files++
			if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0); err == nil {
				f.Close()
				t.Errorf("%%s: can write %%s", v, p)
				return filepath.SkipAll
			}
			if files >= 40 {
				return filepath.SkipAll
			}
			return nil
		})
		if files == 0 {
			t.Errorf("%%s: no file found: the test proves nothing", v)
		}
	}
}
`

// TestWineTestProgramsCannotWriteCaches: the go command builds Windows test
// binaries into GOCACHE; the binaries, run under Wine by
// go_windows_amd64_exec through the test launcher, with a wineserver of
// their own, can neither create nor open for writing a file of GOCACHE or
// GOMODCACHE through Z:, nor write the prefix's C:\windows\system32 (the
// shim DLL every later program loads). Three packages run, so binaries overlap. Without
// the launcher the same tests fail, so the test can fail.
func TestWineTestProgramsCannotWriteCaches(t *testing.T) {
	f := sharedWine(t)
	if err := testLauncherUsable(); err != nil {
		t.Skipf("no test launcher on this host: %v", err)
	}
	for _, protected := range []bool{true, false} {
		t.Run(map[bool]string{true: "launcher", false: "direct"}[protected], func(t *testing.T) {
			work := scratchDir(t)
			src := filepath.Join(work, "src")
			files := map[string]string{}
			for _, pkg := range []string{"p1", "p2", "p3"} {
				files[pkg+"/poison_test.go"] = fmt.Sprintf(winePoisonTest, pkg)
			}
			if err := writeModule(src, "example.com/winepoison", files); err != nil {
				t.Fatal(err)
			}
			f.wine.runner.noTestLauncher = !protected
			defer func() { f.wine.runner.noTestLauncher = false }()
			var stdout, stderr bytes.Buffer
			started := time.Now()
			res, err := f.wine.Run(context.Background(), Cmd{
				Argv: []string{"go", "test", "-count=1", "-vet=off", "-timeout=4m", "./..."},
				Dir:  src, WorkDir: work, Env: f.goEnv, WritableDirs: f.goCaches,
				Stdout: &stdout, Stderr: &stderr, Timeout: 10 * time.Minute,
			})
			if err != nil || res.TimedOut {
				t.Fatalf("go test = %+v, %v; stderr %s", res, err, stderr.String())
			}
			t.Logf("measured: go test of three Windows packages (protected=%v) in %v", protected, time.Since(started).Round(time.Millisecond))
			out := stdout.String()
			switch {
			case protected && (res.ExitCode != 0 || strings.Count(out, "ok  \texample.com/winepoison/") != 3):
				t.Errorf("through the launcher a Windows test program changed the caches: exit %d\n%s%s", res.ExitCode, out, stderr.String())
			case !protected && (res.ExitCode == 0 || !strings.Contains(out, "created a file in GOCACHE") || !strings.Contains(out, "created a DLL in the prefix's system32")):
				t.Errorf("without the launcher the poisoning tests did not fail (exit %d), so they prove nothing:\n%s%s", res.ExitCode, out, stderr.String())
			}
			for _, pkg := range []string{"p1", "p2", "p3"} {
				os.Remove(filepath.Join(f.goCaches[0], "poison-"+pkg))
				os.Remove(filepath.Join(f.goCaches[1], "poison-"+pkg))
				for _, p := range prefixesOf(t, f) {
					os.Remove(filepath.Join(p, "drive_c", "windows", "system32", "poison-"+pkg+".dll"))
				}
			}
			checkNoLeftovers(t, f.prefix)
		})
	}
}

// prefixesOf lists the Wine prefixes of the fixture's state directory.
func prefixesOf(t *testing.T, f *wineFixture) []string {
	t.Helper()
	prefixes, _ := filepath.Glob(filepath.Join(f.stateDir, "prefixes", "uid-*", "slot-*"))
	return prefixes
}
