package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/osbench/osbench/plugins/executors"
)

// isolationRepeat is how many runs of each kind the isolation rows take
// the median of.
const isolationRepeat = 3

// benchIsolation measures what a root osbench's isolation (the network
// namespace with loopback only, the command's own view of the file
// system) costs one repository's test run on Linux and one under Wine:
// pathsep's `go test ./...`, through an executor as osbench makes it and
// through one made with executors.Config.Unisolated — a field only Go
// code sets, this harness being its one user — alternately, so both see
// the same load. The toolchains and the build cache are warmed first, so
// what is compared is the test run, not the compilation of the standard
// library.
func benchIsolation(root, tmp string) ([]row, error) {
	const name = "isolation: pathsep's go test"
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return []row{{name, "not measured: only a root osbench on Linux isolates", "(reference)", true}}, nil
	}
	repo := filepath.Join(root, "testdata", "repos", "pathsep")
	dir := filepath.Join(tmp, "isolation")
	caches := []string{filepath.Join(dir, "gocache"), filepath.Join(dir, "gomodcache")}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("isolation bench: %w", err)
	}
	base := []string{
		"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOFLAGS=-modcacherw", "GOENV=off", "CGO_ENABLED=0",
		"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1],
	}
	for _, k := range []string{"GOPROXY", "GOSUMDB"} {
		if v, ok := os.LookupEnv(k); ok {
			base = append(base, k+"="+v)
		}
	}
	platforms := []struct {
		label, executor string
		env             []string
	}{
		{"linux", executors.LocalName, append(slices.Clone(base), "GOTOOLCHAIN=local")},
		// The go preset's toolchain for Windows test binaries under Wine.
		{"wine", executors.WineName, append(slices.Clone(base), "GOTOOLCHAIN=go1.25.0", "GOOS=windows", "GOARCH=amd64")},
	}
	var rows []row
	for _, p := range platforms {
		isolated, err := executors.New(p.executor, executors.Config{StateDir: filepath.Join(dir, "state")})
		if err != nil {
			return nil, fmt.Errorf("isolation bench: %w", err)
		}
		unisolated, err := executors.New(p.executor, executors.Config{StateDir: filepath.Join(dir, "state-unisolated"), Unisolated: true})
		if err != nil {
			return nil, fmt.Errorf("isolation bench: %w", err)
		}
		n := 0
		run := func(ex executors.Executor, network bool) (time.Duration, error) {
			n++
			work := filepath.Join(dir, fmt.Sprintf("%s-%d", p.label, n))
			if err := os.MkdirAll(work, 0o755); err != nil {
				return 0, err
			}
			if out, err := exec.Command("cp", "-r", repo, filepath.Join(work, "src")).CombinedOutput(); err != nil {
				return 0, fmt.Errorf("cp: %v: %s", err, out)
			}
			var out bytes.Buffer
			res, err := ex.Run(context.Background(), executors.Cmd{
				Argv: []string{"go", "test", "-count=1", "./..."}, Dir: filepath.Join(work, "src"), WorkDir: work,
				Env: p.env, WritableDirs: caches, Stdout: &out, Stderr: &out, Timeout: 15 * time.Minute,
				// The warm-up downloads the pinned toolchain, as
				// osbench's toolchain step does with the network.
				Network: network,
			})
			if err == nil && res.ExitCode != 0 {
				err = fmt.Errorf("exit %d", res.ExitCode)
			}
			if err != nil {
				return 0, fmt.Errorf("isolation bench: %s go test through %s: %v\n%s", p.label, p.executor, err, tail(out.String()))
			}
			return res.Duration, nil
		}
		// Warm-ups: the toolchain, the build cache, the Wine prefixes of
		// both executors.
		for _, ex := range []executors.Executor{isolated, unisolated} {
			if _, err := run(ex, true); err != nil {
				return nil, err
			}
		}
		var on, off []time.Duration
		for range isolationRepeat {
			d, err := run(isolated, false)
			if err != nil {
				return nil, err
			}
			on = append(on, d)
			if d, err = run(unisolated, false); err != nil {
				return nil, err
			}
			off = append(off, d)
		}
		slices.Sort(on)
		slices.Sort(off)
		mOn, mOff := on[len(on)/2], off[len(off)/2]
		rows = append(rows, row{
			fmt.Sprintf("%s (%s), isolated / not (median of %d)", name, p.label, isolationRepeat),
			fmt.Sprintf("%.2fx (%s vs %s)", mOn.Seconds()/mOff.Seconds(), mOn.Round(time.Millisecond), mOff.Round(time.Millisecond)),
			"(reference)", true,
		})
	}
	return rows, nil
}
