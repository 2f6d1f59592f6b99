package executors

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests here run real Wine, real mingw-w64 and a real Go toolchain for
// windows/amd64. Creating a Wine prefix takes a quarter of a minute, so
// they share one executor and its prefix (see sharedWine and TestMain).
//
// Windows programs are built with Go 1.25: the os.RemoveAll of Go 1.26
// fails under Wine 8, which breaks t.TempDir. The toolchain and the build
// cache are kept across runs in the system temp directory
// (osbench-wine-test-cache-<uid>), so only a first run downloads the
// toolchain and compiles the standard library for Windows; delete it to
// measure a cold run.

const windowsGoToolchain = "go1.25.0"

// wineFixture is the state the Wine tests share.
type wineFixture struct {
	wine     *Wine
	stateDir string
	// prefix is the one prefix sequential tests lease.
	prefix string
	// goEnv and goCaches are the environment and writable directories of
	// go commands that build for Windows.
	goEnv    []string
	goCaches []string
	// prog is the test program (see testProgram), built for Windows.
	prog string
}

var (
	sharedWineOnce    sync.Once
	sharedWineFixture *wineFixture
	sharedWineErr     error
	// sharedWineState is the fixture's state directory, set as soon as it
	// exists so that TestMain removes it even when the setup fails.
	sharedWineState string
)

func TestMain(m *testing.M) {
	// The uid slots are leased machine-wide; other osbench processes (the
	// end-to-end tests of a parallel go test run) hold the low ones. These
	// tests lease from a pool of their own, so their sequential commands
	// always get slot 0 and the fixture's prefix is the one they name.
	lockDir, err := os.MkdirTemp("", "osbench-executor-slots-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	slotLockDir = lockDir
	code := m.Run()
	os.RemoveAll(lockDir)
	if sharedWineState != "" {
		if err := os.RemoveAll(sharedWineState); err != nil {
			fmt.Fprintln(os.Stderr, "removing the Wine tests' state:", err)
		}
	}
	os.Exit(code)
}

// sharedWine returns the shared fixture, creating it on first use, or
// skips the test when Wine or mingw-w64 is not installed.
func sharedWine(t testing.TB) *wineFixture {
	t.Helper()
	if err := checkWineTools(); err != nil {
		t.Skipf("needs Wine and mingw-w64 (make test installs them): %v", err)
	}
	sharedWineOnce.Do(func() {
		sharedWineFixture, sharedWineErr = newWineFixture(t)
	})
	if sharedWineErr != nil {
		t.Fatalf("setting up Wine: %v", sharedWineErr)
	}
	return sharedWineFixture
}

func newWineFixture(t testing.TB) (*wineFixture, error) {
	stateDir, err := os.MkdirTemp("", "osbench-wine-test-")
	if err != nil {
		return nil, err
	}
	sharedWineState = stateDir
	f := &wineFixture{stateDir: stateDir}
	if err := os.Chmod(stateDir, 0o755); err != nil {
		return nil, err
	}
	if f.wine, err = NewWine(Config{StateDir: stateDir}); err != nil {
		return nil, err
	}
	f.wine.runner.KillGrace = time.Second

	cache := filepath.Join(os.TempDir(), "osbench-wine-test-cache-"+strconv.Itoa(os.Geteuid()))
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	f.goCaches = []string{filepath.Join(cache, "gocache"), filepath.Join(cache, "gomodcache")}
	f.goEnv = []string{
		"GOTOOLCHAIN=" + windowsGoToolchain,
		"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0",
		"GOCACHE=" + f.goCaches[0], "GOMODCACHE=" + f.goCaches[1],
	}
	for _, k := range []string{"GOPROXY", "GOSUMDB"} {
		if v, ok := os.LookupEnv(k); ok {
			f.goEnv = append(f.goEnv, k+"="+v)
		}
	}

	// The first command creates the prefix.
	work := filepath.Join(stateDir, "first-run")
	started := time.Now()
	res, err := f.wine.Run(context.Background(), Cmd{Argv: []string{"true"}, WorkDir: work})
	if err != nil || res.ExitCode != 0 {
		return nil, fmt.Errorf("first command: %+v, %w", res, err)
	}
	t.Logf("measured: Wine prefix created in %v", time.Since(started).Round(time.Millisecond))
	f.prefix = filepath.Join(stateDir, "prefixes", "uid-"+strconv.Itoa(expectedRunUID()), "slot-0")

	// The sources go into the build's WorkDir, which is handed to the run
	// user, so the go command can write prog.exe next to them.
	build := filepath.Join(stateDir, "build")
	progDir := filepath.Join(build, "src")
	if err := writeModule(progDir, "example.com/prog", map[string]string{"main.go": testProgram}); err != nil {
		return nil, err
	}
	started = time.Now()
	var out bytes.Buffer
	res, err = f.wine.Run(context.Background(), Cmd{
		Argv: []string{"go", "build", "-o", "prog.exe", "."}, Dir: progDir, WorkDir: build,
		Env: f.goEnv, WritableDirs: f.goCaches, Stdout: &out, Stderr: &out, Timeout: 5 * time.Minute,
		// The first build downloads the pinned toolchain, as osbench's
		// toolchain step does with the network; the commands after it
		// run offline.
		Network: true,
	})
	if err != nil || res.ExitCode != 0 {
		return nil, fmt.Errorf("building the Windows test program: %+v, %v: %s", res, err, out.String())
	}
	t.Logf("measured: Windows test program built with %s in %v", windowsGoToolchain, time.Since(started).Round(time.Millisecond))
	// Out of the build's work dir, which is its uid's alone (0700), to
	// where the commands of every uid can run it.
	exe, err := os.ReadFile(filepath.Join(progDir, "prog.exe"))
	if err != nil {
		return nil, err
	}
	f.prog = filepath.Join(stateDir, "prog.exe")
	if err := os.WriteFile(f.prog, exe, 0o755); err != nil {
		return nil, err
	}
	return f, nil
}

// expectedRunUID is the uid commands without writable dirs run as by
// default, when the tests run one at a time: the first slot's.
func expectedRunUID() int {
	if os.Geteuid() == 0 {
		return SlotUIDBase
	}
	return os.Geteuid()
}

// testProgram prints random bytes from crypto/rand, which needs
// ProcessPrng and so the shim, and its temp directory; it exits with the
// number of its arguments, or sleeps for an hour when asked to.
const testProgram = `package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"time"
)

func main() {
	buf := make([]byte, 8)
	if _, err := rand.Read(buf); err != nil {
		fmt.Fprintln(os.Stderr, "crypto/rand:", err)
		os.Exit(100)
	}
	fmt.Printf("random %x\ntemp %s\n", buf, os.TempDir())
	if len(os.Args) == 2 && os.Args[1] == "sleep" {
		time.Sleep(time.Hour)
	}
	os.Exit(len(os.Args) - 1)
}
`

// writeModule writes a Go module with the given files into dir, readable
// by every user.
func writeModule(dir, module string, files map[string]string) error {
	files["go.mod"] = "module " + module + "\n\ngo 1.22\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// leftoverProcesses returns the live processes whose environment names
// prefix as WINEPREFIX: whatever of a command's Wine still runs.
func leftoverProcesses(t *testing.T, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("\x00WINEPREFIX=" + prefix + "\x00")
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), want) {
			continue // gone, or not ours to read
		}
		switch processState(t, pid) {
		case "", "Z", "X":
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		found = append(found, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return found
}

func checkNoLeftovers(t *testing.T, prefix string) {
	t.Helper()
	if left := leftoverProcesses(t, prefix); len(left) > 0 {
		t.Errorf("processes of the prefix outlived their command:\n%s", strings.Join(left, "\n"))
	}
}

func TestWinePrefix(t *testing.T) {
	f := sharedWine(t)
	for _, rel := range []string{"", "drive_c/windows/system32/" + shimDLLName} {
		info, err := os.Stat(filepath.Join(f.prefix, rel))
		if err != nil {
			t.Fatalf("the prefix lacks %q: %v", rel, err)
		}
		// Wine refuses a prefix that is not the run user's own.
		if uid := int(info.Sys().(*syscall.Stat_t).Uid); uid != expectedRunUID() {
			t.Errorf("%q is owned by uid %d, want the run user %d", rel, uid, expectedRunUID())
		}
	}
	if !strings.Contains(readFileString(t, f.prefix+".ready"), shimDigest()) {
		t.Errorf("the ready file does not name the shim digest")
	}
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWineFingerprint(t *testing.T) {
	f := sharedWine(t)
	format := regexp.MustCompile(`^wine wine-\d+\.\S+( \(.*\))? shim [0-9a-f]{12} linux/amd64 user=(unprivileged|root)( isolation=net,view)?$`)
	got, err := f.wine.Fingerprint(context.Background(), "")
	if err != nil || !format.MatchString(got) {
		t.Fatalf("Fingerprint = %q, %v; want it to match %v", got, err, format)
	}
	if !strings.Contains(got, " shim "+shimDigest()[:12]+" ") || strings.Contains(got, f.stateDir) {
		t.Errorf("Fingerprint = %q, want the shim digest and no path", got)
	}
	asRoot, err := f.wine.Fingerprint(context.Background(), UserRoot)
	if err != nil {
		t.Fatal(err)
	}
	if (os.Geteuid() == 0) == (asRoot == got) {
		t.Errorf("Fingerprint is %q by default and %q as root; they must differ exactly when osbench is root", got, asRoot)
	}
}

func TestWineEnvironment(t *testing.T) {
	f := sharedWine(t)
	work := scratchDir(t)
	var out bytes.Buffer
	res, err := f.wine.Run(context.Background(), Cmd{Argv: []string{"env"}, WorkDir: work, Env: []string{"A=1"}, Stdout: &out})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run(env) = %+v, %v", res, err)
	}
	got := map[string]string{}
	for line := range strings.Lines(out.String()) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		got[k] = v
	}
	tmp := windowsPath(filepath.Join(work, "tmp"))
	want := map[string]string{
		"A":                "1",
		"WINEPREFIX":       f.prefix,
		"WINEDEBUG":        "-all",
		"WINEDLLOVERRIDES": wineDLLOverrides,
		"WINETEMP":         tmp,
		"WINETMP":          tmp,
		"TMPDIR":           filepath.Join(work, "tmp"),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["DISPLAY"]; ok {
		t.Errorf("DISPLAY is set: %q", got["DISPLAY"])
	}
}

func TestWineRunsWindowsPrograms(t *testing.T) {
	f := sharedWine(t)
	tests := []struct {
		args     []string
		wantExit int
	}{
		{nil, 0},
		{[]string{"a", "b", "c"}, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d args", len(tt.args)), func(t *testing.T) {
			work := scratchDir(t)
			var stdout, stderr bytes.Buffer
			started := time.Now()
			res, err := f.wine.Run(context.Background(), Cmd{
				Argv:    append([]string{"wine", f.prog}, tt.args...),
				WorkDir: work, Stdout: &stdout, Stderr: &stderr, Timeout: time.Minute,
			})
			if err != nil || res.ExitCode != tt.wantExit || res.TimedOut {
				t.Fatalf("Run = %+v, %v; want exit code %d; stderr %q", res, err, tt.wantExit, stderr.String())
			}
			t.Logf("measured: one Windows program in %v (command %v)", time.Since(started).Round(time.Millisecond), res.Duration.Round(time.Millisecond))
			// The temp directory shows that the WINETEMP of the
			// command reaches Windows programs, past the registry.
			wantOut := regexp.MustCompile(`^random [0-9a-f]{16}\r?\ntemp ` + regexp.QuoteMeta(windowsPath(filepath.Join(work, "tmp"))) + `\r?\n$`)
			if !wantOut.MatchString(stdout.String()) {
				t.Errorf("stdout = %q, want it to match %v", stdout.String(), wantOut)
			}
			checkNoLeftovers(t, f.prefix)
		})
	}
}

func TestWineTimeoutKillsEverything(t *testing.T) {
	f := sharedWine(t)
	// Long enough for Wine to start the program on a loaded machine (the
	// check below insists it ran), short enough to keep the test quick.
	const timeout = 10 * time.Second
	var stdout bytes.Buffer
	started := time.Now()
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{"wine", f.prog, "sleep"}, WorkDir: scratchDir(t), Stdout: &stdout, Timeout: timeout,
	})
	elapsed := time.Since(started)
	if err != nil || !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("Run = %+v, %v; want a timeout", res, err)
	}
	if !strings.HasPrefix(stdout.String(), "random ") {
		t.Errorf("stdout = %q: the program never ran, so the timeout proves nothing", stdout.String())
	}
	if limit := timeout + f.wine.runner.KillGrace + 5*time.Second; elapsed > limit {
		t.Errorf("Run took %v after a %v timeout, want at most %v", elapsed, timeout, limit)
	}
	t.Logf("measured: Run returned %v after a %v timeout", elapsed.Round(time.Millisecond), timeout)
	checkNoLeftovers(t, f.prefix)
}

// wintestPackage is a tiny package whose tests use crypto/rand (and so
// the shim) and TempDir (and so os.RemoveAll under Wine); one test fails.
var wintestPackage = map[string]string{
	"wintest.go": `package wintest

func Double(x int) int { return 2 * x }

func Unused() int { return 1 }
`,
	"wintest_test.go": `package wintest

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
)

func TestDouble(t *testing.T) {
	if got := Double(2); got != 4 {
		t.Errorf("Double(2) = %d", got)
	}
}

func TestRandomAndTempDir(t *testing.T) {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "f"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFails(t *testing.T) {
	t.Error("fails on purpose")
}
`,
}

func TestWineGoTestExec(t *testing.T) {
	f := sharedWine(t)
	work := scratchDir(t)
	src := filepath.Join(work, "src")
	if err := writeModule(src, "example.com/wintest", wintestPackage); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(src, "coverage.out")
	var stdout, stderr bytes.Buffer
	started := time.Now()
	res, err := f.wine.Run(context.Background(), Cmd{
		Argv: []string{"go", "test", "-count=1", "-json", "-vet=off", "-timeout=2m",
			"-covermode=set", "-coverpkg=./...", "-coverprofile=" + profile, "./..."},
		Dir: src, WorkDir: work, Env: f.goEnv, WritableDirs: f.goCaches,
		Stdout: &stdout, Stderr: &stderr, Timeout: 5 * time.Minute,
	})
	if err != nil || res.ExitCode != 1 {
		t.Fatalf("go test = %+v, %v; want exit code 1 (one test fails); stderr %q", res, err, stderr.String())
	}
	t.Logf("measured: go test (Windows binaries through the go_windows_amd64_exec launcher) of one package in %v", time.Since(started).Round(time.Millisecond))

	statuses := map[string]string{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("go test -json printed %q: %v", sc.Text(), err)
		}
		if ev.Test != "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			statuses[ev.Test] = ev.Action
		}
	}
	want := map[string]string{"TestDouble": "pass", "TestRandomAndTempDir": "pass", "TestFails": "fail"}
	for test, status := range want {
		if statuses[test] != status {
			t.Errorf("%s: %q, want %q (all: %v)", test, statuses[test], status, statuses)
		}
	}

	cover := readFileString(t, profile)
	for _, line := range []string{
		"mode: set\n",
		"example.com/wintest/wintest.go:3.24,3.40 1 1\n", // Double ran
		"example.com/wintest/wintest.go:5.19,5.31 1 0\n", // Unused did not
	} {
		if !strings.Contains(cover, line) {
			t.Errorf("coverage profile lacks %q:\n%s", line, cover)
		}
	}
	checkNoLeftovers(t, f.prefix)
}
