package executors

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The probes of issue 19: code of a patch, run as a Go test binary, as a
// bash build command and as a CMake configure step, through the local and
// the wine executor, tries to reach the package registries (resolve their
// names, connect to their addresses) and to read host paths where answers
// lie. Each probe prints one line per attempt, "PROBE REACHED what" or
// "PROBE BLOCKED what"; the test counts them, so a probe that did not run
// fails as surely as one that got through.

// probeHosts are the registries a build could download the original
// sources from.
var probeHosts = []string{"proxy.golang.org", "index.crates.io", "static.crates.io", "deb.debian.org"}

// probeGoTest is the Go probe, a test of its own module. It reads what to
// try from files in its directory, never from its environment or argv:
// the executor shows a command every path those name.
const probeGoTest = `package probe

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"runtime"
	"testing"
	"time"
)

func lines(t *testing.T, name string) []string {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if s.Text() != "" {
			out = append(out, s.Text())
		}
	}
	return out
}

func report(reached bool, what string) {
	if reached {
		fmt.Println("PROBE REACHED " + what)
	} else {
		fmt.Println("PROBE BLOCKED " + what)
	}
}

func TestProbe(t *testing.T) {
	for _, h := range lines(t, "hosts.txt") {
		_, err := net.LookupHost(h)
		report(err == nil, "resolve "+h)
	}
	for _, a := range lines(t, "addrs.txt") {
		c, err := net.DialTimeout("tcp", a, 5*time.Second)
		if err == nil {
			c.Close()
		}
		report(err == nil, "connect "+a)
	}
	paths := "paths.txt"
	if runtime.GOOS == "windows" {
		paths = "paths-windows.txt"
	}
	for _, p := range lines(t, paths) {
		_, err := os.Stat(p)
		report(err == nil, "see "+p)
	}
}
`

// probeScript is the bash probe: a build command of the patch's.
const probeScript = `report() { if [ "$1" = 0 ]; then echo "PROBE REACHED $2"; else echo "PROBE BLOCKED $2"; fi; }
while read -r h; do
	getent hosts "$h" >/dev/null 2>&1; report $? "resolve $h"
done <hosts.txt
while IFS=: read -r ip port; do
	timeout 5 bash -c "exec 3<>/dev/tcp/$ip/$port" 2>/dev/null; report $? "connect $ip:$port"
done <addrs.txt
while IFS= read -r p; do
	test -e "$p"; report $? "see $p"
done <paths.txt
`

// probeCMake is the CMake probe: a configure step that downloads (CMake's
// own file(DOWNLOAD), curl inside cmake) and runs programs
// (execute_process), as a patched CMakeLists.txt could.
const probeCMake = `cmake_minimum_required(VERSION 3.13)
project(probe NONE)
file(STRINGS "${CMAKE_SOURCE_DIR}/hosts.txt" hosts)
foreach(h IN LISTS hosts)
  execute_process(COMMAND getent hosts ${h} RESULT_VARIABLE r OUTPUT_QUIET ERROR_QUIET)
  if(r EQUAL 0)
    message(STATUS "PROBE REACHED resolve ${h}")
  else()
    message(STATUS "PROBE BLOCKED resolve ${h}")
  endif()
  file(DOWNLOAD "https://${h}/" "${CMAKE_BINARY_DIR}/download" STATUS st TIMEOUT 10)
  list(GET st 0 code)
  # curl's codes for a proxy or host that does not resolve, no connection
  # and a timeout: anything else reached the host.
  if(code EQUAL 5 OR code EQUAL 6 OR code EQUAL 7 OR code EQUAL 28)
    message(STATUS "PROBE BLOCKED download ${h}")
  else()
    message(STATUS "PROBE REACHED download ${h} (curl ${code})")
  endif()
endforeach()
file(STRINGS "${CMAKE_SOURCE_DIR}/paths.txt" paths)
foreach(p IN LISTS paths)
  if(EXISTS "${p}")
    message(STATUS "PROBE REACHED see ${p}")
  else()
    message(STATUS "PROBE BLOCKED see ${p}")
  endif()
endforeach()
`

// probeSetup is what the probes try, made once per test.
type probeSetup struct {
	hosts []string
	// addrs are the registries' addresses (ip:443), resolved here on
	// the host, so a connect is tried even where names do not resolve.
	addrs []string
	// paths are host paths where answers lie; open are those a run
	// user could see on the host (what the probe must reach without the
	// isolation).
	paths, open []string
	// online reports that this host reaches the registries, so a probe
	// without the isolation must too.
	online bool
}

func newProbeSetup(t *testing.T) probeSetup {
	t.Helper()
	// Outside /tmp, whose other trees each step's private tmpfs hides
	// already: where a cache or an export dir of a real host lies.
	base, err := os.MkdirTemp("/var/cache", "osbench-probe-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	ps := probeSetup{hosts: probeHosts}
	for _, h := range probeHosts {
		ips, err := net.LookupIP(h)
		if err != nil {
			continue
		}
		for _, ip := range ips {
			if ip.To4() != nil {
				ps.addrs = append(ps.addrs, net.JoinHostPort(ip.String(), "443"))
				break
			}
		}
	}
	if len(ps.addrs) > 0 {
		if c, err := net.DialTimeout("tcp", ps.addrs[0], 5*time.Second); err == nil {
			c.Close()
			ps.online = true
		}
	}
	// The osbench checkout this test runs from, and another one.
	_, file, _, _ := runtime.Caller(0)
	checkout := filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	// Another cache's state (a Debian pool) and a build's exports, world
	// readable as osbench writes them, beside the command's work dir.
	otherCache := filepath.Join(base, "other-cache")
	writeFile(t, filepath.Join(otherCache, "state", "debian", "pool", "zlib_1.3.orig.tar.gz"), "the complete sources", 0o644)
	out := filepath.Join(base, "out")
	writeFile(t, filepath.Join(out, "tasks.jsonl"), `{"patch":"the gold patch"}`+"\n", 0o644)
	for _, p := range []string{
		checkout, filepath.Join(checkout, "README.md"), "/work/main", "/root", "/root/.cache",
		otherCache, filepath.Join(otherCache, "state", "debian", "pool", "zlib_1.3.orig.tar.gz"),
		filepath.Join(out, "tasks.jsonl"),
		// A manifest's path source (the bundled examples' repositories).
		filepath.Join(checkout, "testdata", "repos", "pathsep"),
	} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		ps.paths = append(ps.paths, p)
		if readableByOthers(p) {
			ps.open = append(ps.open, p)
		}
	}
	if len(ps.open) == 0 {
		t.Fatal("no probed path is visible to a run user without the isolation: the test proves nothing")
	}
	return ps
}

// readableByOthers reports whether every directory down to p is
// searchable by others and p is readable by them, so a slot uid sees p
// without the view.
func readableByOthers(p string) bool {
	if info, err := os.Stat(p); err != nil || info.Mode().Perm()&0o004 == 0 {
		return false
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil || info.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == "/" {
			return true
		}
	}
}

// write puts the probe's input files into dir.
func (ps probeSetup) write(t *testing.T, dir string) {
	t.Helper()
	winPaths := make([]string, len(ps.paths))
	for i, p := range ps.paths {
		winPaths[i] = windowsPath(p)
	}
	for name, lines := range map[string][]string{
		"hosts.txt": ps.hosts, "addrs.txt": ps.addrs, "paths.txt": ps.paths, "paths-windows.txt": winPaths,
	} {
		writeFile(t, filepath.Join(dir, name), strings.Join(lines, "\n")+"\n", 0o644)
	}
}

// check judges a probe's output. isolated: nothing may be reached, and
// every attempt must have been made (count lines per kind). Otherwise
// the probe must reach what the host offers, or it could not fail.
func (ps probeSetup) check(t *testing.T, output string, isolated bool, kinds ...string) {
	t.Helper()
	reached, blocked := map[string]bool{}, 0
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "--"))
		if what, ok := strings.CutPrefix(line, "PROBE REACHED "); ok {
			// A Windows probe names host paths through Z:.
			if p, ok := strings.CutPrefix(what, `see Z:\`); ok {
				what = "see /" + strings.ReplaceAll(p, `\`, "/")
			}
			reached[what] = true
		} else if strings.HasPrefix(line, "PROBE BLOCKED ") {
			blocked++
		}
	}
	want := 0
	for _, k := range kinds {
		switch k {
		case "resolve", "download":
			want += len(ps.hosts)
		case "connect":
			want += len(ps.addrs)
		case "see":
			want += len(ps.paths)
		}
	}
	if isolated {
		for what := range reached {
			t.Errorf("the probe reached %s", what)
		}
		if blocked != want {
			t.Errorf("the probe made %d attempts, want %d:\n%s", blocked, want, output)
		}
		return
	}
	var expect []string
	for _, p := range ps.open {
		expect = append(expect, "see "+p)
	}
	if ps.online {
		expect = append(expect, "resolve "+ps.hosts[0])
		if len(ps.addrs) > 0 && strings.Contains(strings.Join(kinds, " "), "connect") {
			expect = append(expect, "connect "+ps.addrs[0])
		}
	}
	for _, what := range expect {
		if !reached[what] {
			t.Errorf("without the isolation the probe did not reach %s, so it proves nothing:\n%s", what, output)
		}
	}
}

// probeRunner runs one probe command through an executor.
type probeRunner func(t *testing.T, cmd Cmd) (Result, string, error)

func (ps probeSetup) runAll(t *testing.T, run probeRunner, goEnv, goCaches []string, isolated bool, which ...string) {
	base := scratchDir(t)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, probe := range which {
		t.Run(probe, func(t *testing.T) {
			work := filepath.Join(base, probe)
			src := filepath.Join(work, "src")
			ps.write(t, src)
			// The system's PATH, as osbench's commands get (toolenv):
			// the test's own may name dirs under /root.
			cmd := Cmd{Dir: src, WorkDir: work, Timeout: 10 * time.Minute, Env: []string{"PATH=/usr/bin:/bin"}}
			var kinds []string
			switch probe {
			case "go-test":
				if err := writeModule(src, "example.com/probe", map[string]string{"probe_test.go": probeGoTest}); err != nil {
					t.Fatal(err)
				}
				cmd.Argv = []string{"go", "test", "-count=1", "-v", "."}
				cmd.Env, cmd.WritableDirs = slices.Clone(goEnv), goCaches
				if goBin, err := exec.LookPath("go"); err == nil {
					cmd.Env = setEnv(cmd.Env, "PATH", filepath.Dir(goBin)+":/usr/bin:/bin")
				}
				kinds = []string{"resolve", "connect", "see"}
			case "bash":
				cmd.Argv = []string{"bash", "-c", probeScript}
				kinds = []string{"resolve", "connect", "see"}
			case "cmake":
				if _, err := exec.LookPath("cmake"); err != nil {
					t.Skip("no cmake")
				}
				writeFile(t, filepath.Join(src, "CMakeLists.txt"), probeCMake, 0o644)
				cmd.Argv = []string{"cmake", "-S", ".", "-B", filepath.Join(work, "build")}
				kinds = []string{"resolve", "download", "see"}
			default:
				argv, env, k, ok := setupBuildProbe(t, probe, src, work)
				if !ok {
					t.Fatalf("no probe %q", probe)
				}
				cmd.Argv, cmd.Env, kinds = argv, append(cmd.Env, env...), k
			}
			res, output, err := run(t, cmd)
			if err != nil || res.TimedOut || res.ExitCode != 0 {
				t.Fatalf("Run = %+v, %v:\n%s", res, err, output)
			}
			t.Logf("measured: the %s probe (isolated=%v) in %v", probe, isolated, res.Duration.Round(time.Millisecond))
			ps.check(t, output, isolated, kinds...)
		})
	}
}

// localGoEnv is the Go environment of the local probes: the caches the
// test launcher tests keep between runs.
func localGoEnv(t *testing.T) (env, caches []string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	shared := filepath.Join(os.TempDir(), "osbench-test-launcher-cache-"+strconv.Itoa(os.Geteuid()))
	caches = []string{filepath.Join(shared, "gocache"), filepath.Join(shared, "gomodcache")}
	env = []string{
		"GOTOOLCHAIN=local", "GOFLAGS=-modcacherw",
		"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1], "GOENV=off", "CGO_ENABLED=0",
	}
	return env, caches
}

// TestHermeticProbeLocal: through the local executor of a root osbench,
// no probe (a Go test, a bash build command, a CMake configure step, a
// Rust build script, a CMake build step, a C test program run from one;
// probebuild_linux_test.go) resolves or connects to a registry or sees a
// host path; with
// the network and the view turned off, the same probes reach them.
func TestHermeticProbeLocal(t *testing.T) {
	requireRoot(t)
	ps := newProbeSetup(t)
	goEnv, goCaches := localGoEnv(t)
	for _, isolated := range []bool{true, false} {
		t.Run(fmt.Sprintf("isolated=%v", isolated), func(t *testing.T) {
			l := newTestLocal(t)
			l.off = isolationOff{network: !isolated, view: !isolated}
			run := func(t *testing.T, cmd Cmd) (Result, string, error) {
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				res, err := l.Run(context.Background(), cmd)
				return res, out.String(), err
			}
			ps.runAll(t, run, goEnv, goCaches, isolated, "go-test", "bash", "cmake", "rust-build-script", "cmake-build", "c-test")
		})
	}
}

// TestHermeticProbeWine: the same through the wine executor, the Go probe
// a Windows test binary run by Wine (whose Z: drive is the command's
// root), the C probe cross-built by mingw-w64 and run by Wine from a
// CMake build step; without the isolation, only the Windows programs are
// run again.
func TestHermeticProbeWine(t *testing.T) {
	requireRoot(t)
	f := sharedWine(t)
	ps := newProbeSetup(t)
	for _, isolated := range []bool{true, false} {
		t.Run(fmt.Sprintf("isolated=%v", isolated), func(t *testing.T) {
			f.wine.runner.off = isolationOff{network: !isolated, view: !isolated}
			defer func() { f.wine.runner.off = isolationOff{} }()
			run := func(t *testing.T, cmd Cmd) (Result, string, error) {
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				res, err := f.wine.Run(context.Background(), cmd)
				return res, out.String(), err
			}
			probes := []string{"go-test", "c-test-mingw", "bash", "cmake", "rust-build-script", "cmake-build"}
			if !isolated {
				// The Windows programs; the host programs are the
				// local executor's.
				probes = probes[:2]
			}
			ps.runAll(t, run, f.goEnv, f.goCaches, isolated, probes...)
		})
	}
}

// BenchmarkIsolation measures what the network namespace and the view add
// to a command: `true`, and `go version` (which reads the toolchain under
// /usr and GOROOT), each with the isolation on, without the view, and
// without either.
func BenchmarkIsolation(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("needs root: the isolation is a root osbench's")
	}
	for _, argv := range [][]string{{"true"}, {"go", "version"}} {
		for _, mode := range []struct {
			name string
			off  isolationOff
		}{{"isolated", isolationOff{}}, {"no-view", isolationOff{view: true}}, {"none", isolationOff{network: true, view: true}}} {
			b.Run(argv[0]+"/"+mode.name, func(b *testing.B) {
				work := b.TempDir()
				if err := os.Chmod(filepath.Dir(work), 0o755); err != nil {
					b.Fatal(err)
				}
				l, err := NewLocal(Config{StateDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				l.off = mode.off
				for b.Loop() {
					res, err := l.Run(context.Background(), Cmd{Argv: argv, WorkDir: work, Env: []string{"PATH=/usr/local/go/bin:/usr/bin:/bin", "GOTOOLCHAIN=local"}})
					if err != nil || res.ExitCode != 0 {
						b.Fatalf("Run = %+v, %v", res, err)
					}
				}
			})
		}
	}
}

// TestIsolationCost measures the isolation on an example repository's own
// test command (pathsep's go test, on Linux and as Windows binaries under
// Wine), on and off in turn, three times each. It only runs when asked
// (OSBENCH_MEASURE_ISOLATION=1): it is a measurement, not a check.
func TestIsolationCost(t *testing.T) {
	if os.Getenv("OSBENCH_MEASURE_ISOLATION") == "" {
		t.Skip("set OSBENCH_MEASURE_ISOLATION=1 to measure")
	}
	requireRoot(t)
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "repos", "pathsep")
	goEnv, goCaches := localGoEnv(t)
	f := sharedWine(t)
	platforms := []struct {
		name   string
		off    *isolationOff
		run    func(context.Context, Cmd) (Result, error)
		env    []string
		caches []string
	}{
		{"linux", nil, nil, goEnv, goCaches},
		{"wine", &f.wine.runner.off, f.wine.Run, f.goEnv, f.goCaches},
	}
	l := newTestLocal(t)
	platforms[0].off, platforms[0].run = &l.off, l.Run
	for _, p := range platforms {
		var on, off []time.Duration
		for i := range 6 {
			isolated := i%2 == 0
			*p.off = isolationOff{network: !isolated, view: !isolated}
			work := filepath.Join(scratchDir(t), "work")
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("cp", "-r", repo, filepath.Join(work, "src")).CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var out bytes.Buffer
			res, err := p.run(context.Background(), Cmd{
				Argv: []string{"go", "test", "-count=1", "./..."}, Dir: filepath.Join(work, "src"), WorkDir: work,
				Env: p.env, WritableDirs: p.caches, Stdout: &out, Stderr: &out, Timeout: 10 * time.Minute,
			})
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("%s isolated=%v: %+v, %v\n%s", p.name, isolated, res, err, out.String())
			}
			if isolated {
				on = append(on, res.Duration)
			} else {
				off = append(off, res.Duration)
			}
		}
		*p.off = isolationOff{}
		slices.Sort(on)
		slices.Sort(off)
		t.Logf("measured: pathsep's go test on %s: isolated %v (median of %v), not isolated %v (median of %v)",
			p.name, on[1].Round(time.Millisecond), on, off[1].Round(time.Millisecond), off)
	}
}
