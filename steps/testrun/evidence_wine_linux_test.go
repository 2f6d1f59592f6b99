//go:build linux && amd64

package testrun

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// TestGoWineEntryEvidence runs real go test for windows/amd64 under the
// wine executor (real Wine 8, a Go 1.25 toolchain, the prefix's
// mingw-built entry tracer) through the go-test runner's launcher, on a
// module with an honest package (b), one whose init writes a plausible
// coverage profile and prints framed passes (a: profileForgingInit), and
// one that runs the real harness on an empty look-alike test (c:
// harnessReuseInit). Traced, the honest pass is evidenced and both
// forgeries are errors whose functions the debugger never saw entered;
// with the tracer off (no OSBENCH_ENTRYTRACE) the same forgeries are
// evidenced passes, so the test can fail.
func TestGoWineEntryEvidence(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, tool := range []string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs Wine and mingw-w64 (make test installs them): %v", err)
		}
	}
	base, err := os.MkdirTemp("", "osbench-wine-evidence-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	// The tracer is this test binary (it links plugins/entrytrace), copied
	// where the executor's unprivileged run user can execute it.
	tracer := filepath.Join(base, "tracer")
	if err := copyExecutable(tracer); err != nil {
		t.Fatal(err)
	}
	wine, err := executors.NewWine(executors.Config{StateDir: filepath.Join(base, "state")})
	if err != nil {
		t.Fatal(err)
	}
	// Shared with the executor's Wine tests: only a first run downloads
	// the toolchain and builds the standard library for Windows.
	cache := filepath.Join(os.TempDir(), "osbench-wine-test-cache-"+strconv.Itoa(os.Geteuid()))
	caches := []string{filepath.Join(cache, "gocache"), filepath.Join(cache, "gomodcache")}
	for _, traced := range []bool{true, false} {
		name := map[bool]string{true: "traced", false: "untraced"}[traced]
		t.Run(name, func(t *testing.T) {
			work := filepath.Join(base, name)
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"go.mod":      "module ex\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
				"a/forge.go":  profileForgingInit,
				"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
				"b/b.go":      "package b\n\nfunc B() int { return 2 }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif B() != 2 {\n\t\tt.Fatal(\"B() is not 2\")\n\t}\n}\n",
				"c/c.go":      "package c\n\nfunc C() int { return 1 }\n",
				"c/forge.go":  strings.Replace(harnessReuseInit, "package a\n", "package c\n", 1),
				"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif C() != 2 {\n\t\tt.Fatal(\"C() is not 2\")\n\t}\n}\n",
			}
			writeFiles(t, repo, files)
			for _, d := range []string{"home", "tmp"} {
				if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			launch, err := goRunner(t).Launch(work)
			if err != nil {
				t.Fatal(err)
			}
			env := launch.Env([]string{
				"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOTOOLCHAIN=go1.25.0", "GOENV=off",
				"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0",
				"GOCACHE=" + caches[0], "GOMODCACHE=" + caches[1], "GOFLAGS=-mod=mod",
				"HOME=" + filepath.Join(work, "home"), "TMPDIR=" + filepath.Join(work, "tmp"),
			})
			env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "OSBENCH_ENTRYTRACE=") })
			if traced {
				env = append(env, "OSBENCH_ENTRYTRACE="+tracer)
			}
			run := func(argv []string, network bool, stdout io.Writer) {
				t.Helper()
				var stderr bytes.Buffer
				res, err := wine.Run(context.Background(), executors.Cmd{
					Argv: argv, Dir: repo, Env: env, Stdout: stdout, Stderr: &stderr,
					WorkDir: work, WritableDirs: append(slices.Clone(caches), launch.Writable...),
					Timeout: 15 * time.Minute, Network: network,
				})
				if err != nil || res.TimedOut {
					t.Fatalf("%v = %+v, %v\n%s", argv, res, err, stderr.String())
				}
				t.Logf("%v: exit %d\n%s", argv, res.ExitCode, stderr.String())
			}
			// The pinned toolchain comes from the module proxy once.
			run([]string{"go", "version"}, true, io.Discard)
			var out bytes.Buffer
			run([]string{"go", "test", "-count=1", "-json", "-vet=off", "-timeout=5m", "-covermode=set", "-coverpkg=./...", "-coverprofile=" + filepath.Join(work, "cover.out"), "./..."}, false, &out)
			p, _ := parsers.Lookup("go-test-json")
			expected, _ := expectedTests("go", repo, "windows", nil)
			parsed, err := p.Parse(bytes.NewReader(out.Bytes()), parsers.Options{Expected: expected})
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{runner: goRunner(t), repo: repo, platform: "windows", expected: expected, records: launch.Records, ran: true, log: &log}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			if traced {
				// The honest binary's record shows the debugger saw its
				// test entered: the evidence is the tracer's, not only
				// the profile's.
				records, _ := filepath.Glob(filepath.Join(launch.Records, "entries.*"))
				var all strings.Builder
				for _, r := range records {
					b, _ := os.ReadFile(r)
					all.Write(b)
				}
				if !strings.Contains(all.String(), "entered TestB\n") || !strings.Contains(all.String(), "armed TestA\n") {
					t.Errorf("the tracer's records do not show TestB entered and TestA armed:\n%s", all.String())
				}
			}
			got := resultsByID(ev.results)
			if b := got["ex/b/TestB"]; b.Status != schemas.StatusPass || b.Evidence != schemas.EvidenceRan {
				t.Errorf("honest TestB = %+v, want an evidenced pass\n%s", b, out.String())
			}
			for _, id := range []string{"ex/a/TestA", "ex/c/TestA"} {
				f := got[id]
				switch {
				case traced && (f.Status != schemas.StatusError || f.Evidence != schemas.EvidenceDenied || !strings.Contains(f.Reason, "never entered TestA")):
					t.Errorf("traced: forged %s = %+v, want an error the Windows entry tracer denies\n%s", id, f, out.String())
				case !traced && (f.Status != schemas.StatusPass || f.Evidence != schemas.EvidenceRan):
					t.Errorf("untraced: forged %s = %+v; without the tracer it should be an evidenced pass, or the test proves nothing\n%s", id, f, out.String())
				}
			}
		})
	}
}

// copyExecutable copies this test binary to dst, executable by anyone.
func copyExecutable(dst string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}
