//go:build linux

package testrun

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// recordPlanter is a forging init written against the Go evidence: it
// plants the record a good binary would leave (exit 0, profile written),
// makes the record directory unwritable so the launcher's true record of
// this binary is never written, rewrites the launcher so that every later
// binary gets a good record too, then prints its passes and exits before
// M.Run. The records and the launcher live beside HOME, in the step's work
// dir, where a patch finds them without any help.
const recordPlanter = `package a

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func init() {
	for _, arg := range os.Args {
		if !strings.HasPrefix(arg, "-test.") {
			continue
		}
		work := filepath.Dir(os.Getenv("HOME"))
		records := filepath.Join(work, "go-evidence")
		dir, _ := os.Getwd()
		if os.WriteFile(filepath.Join(records, "record.planted"), []byte(dir+"\t0\twritten\n"), 0o644) == nil {
			fmt.Fprintln(os.Stderr, "FORGER: planted a record")
		}
		if os.Chmod(records, 0o555) == nil {
			fmt.Fprintln(os.Stderr, "FORGER: records read-only")
		}
		launcher := filepath.Join(work, "osbench-bin", "go-test-exec")
		if os.WriteFile(launcher+".new", []byte("#!/bin/sh\n\"$@\"\nexit 0\n"), 0o755) == nil && os.Rename(launcher+".new", launcher) == nil {
			fmt.Fprintln(os.Stderr, "FORGER: replaced the launcher")
		}
		fmt.Println("=== RUN   TestA")
		fmt.Println("\x16--- PASS: TestA (0.00s)")
		fmt.Println("PASS")
		os.Exit(0)
	}
}
`

// TestGoEvidenceOutOfReachOfTestBinaries runs real go test on a module
// whose package a plants its own evidence (recordPlanter) and whose
// package b is honest, twice: through the local executor, whose test
// sandbox mounts the record and launcher directories read-only for the
// test binaries, and directly, as the same unprivileged user, without it.
// Through the executor the forged TestA is an error the evidence denies
// and nothing was planted; without the sandbox the very same launcher
// evidences the forgery, so the test can fail.
func TestGoEvidenceOutOfReachOfTestBinaries(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// The executor's test sandbox needs unprivileged user namespaces;
	// where they are off it says so once and runs without.
	if err := exec.Command("unshare", "--user", "--map-root-user", "--mount", "true").Run(); err != nil {
		t.Skipf("no unprivileged user namespaces here (unshare: %v): no test sandbox to test", err)
	}
	base, err := os.MkdirTemp("", "osbench-evidence-sandbox-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, protected := range []bool{true, false} {
		name := map[bool]string{true: "sandboxed", false: "unprotected"}[protected]
		t.Run(name, func(t *testing.T) {
			work := filepath.Join(base, name)
			repo := filepath.Join(work, "repo")
			files := map[string]string{
				"go.mod":      "module ex\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
				"a/forge.go":  recordPlanter,
				"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Fatal(\"A() is not 2\")\n\t}\n}\n",
				"b/b.go":      "package b\n\nfunc B() int { return 2 }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif B() != 2 {\n\t\tt.Fatal(\"B() is not 2\")\n\t}\n}\n",
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
			// Kept between runs (a cold GOCACHE builds the standard
			// library's test dependencies: minutes under load), one per
			// side, since the executor converts its shared dirs.
			cache := filepath.Join(os.TempDir(), "osbench-evidence-cache-"+name+"-"+strconv.Itoa(os.Geteuid()))
			gocache, modcache := filepath.Join(cache, "gocache"), filepath.Join(cache, "gomodcache")
			env := launch.Env([]string{
				"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOTOOLCHAIN=local", "GOENV=off", "CGO_ENABLED=0",
				"GOCACHE=" + gocache, "GOMODCACHE=" + modcache, "GOFLAGS=-mod=mod",
				"HOME=" + filepath.Join(work, "home"), "TMPDIR=" + filepath.Join(work, "tmp"),
			})
			argv := []string{"go", "test", "-count=1", "-json", "-covermode=set", "-coverpkg=./...", "-coverprofile=" + filepath.Join(work, "cover.out"), "./..."}
			var out, stderr bytes.Buffer
			if protected {
				ex, err := executors.NewLocal(executors.Config{StateDir: filepath.Join(base, "state")})
				if err != nil {
					t.Fatal(err)
				}
				res, err := ex.Run(context.Background(), executors.Cmd{
					Argv: argv, Dir: repo, Env: env, Stdout: &out, Stderr: &stderr,
					WorkDir: work, WritableDirs: append([]string{gocache, modcache}, launch.Writable...),
					Timeout: 15 * time.Minute,
				})
				if err != nil || res.TimedOut {
					t.Fatalf("Run = %+v, %v\n%s", res, err, stderr.String())
				}
			} else {
				cmd := exec.Command(argv[0], argv[1:]...)
				// The entry tracer (this test binary, in a directory
				// only root reads) is not what this run is about: the
				// records' own protection is.
				env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "OSBENCH_ENTRYTRACE=") })
				cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = repo, env, &out, &stderr
				if os.Geteuid() == 0 {
					// Root writes whatever the forger made read-only;
					// the executor's commands never run as root.
					if err := chownAll(t, []string{work, cache}, 65534); err != nil {
						t.Fatal(err)
					}
					cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
				}
				_ = cmd.Run() // a failing package exits 1; the parser decides
			}
			if strings.Contains(stderr.String(), "unshare") || strings.Contains(stderr.String(), "mount:") {
				t.Fatalf("the test sandbox failed:\n%s", stderr.String())
			}
			p, _ := parsers.Lookup("go-test-json")
			expected, _ := expectedTests("go", repo, "linux", nil)
			parsed, err := p.Parse(&out, parsers.Options{Expected: expected})
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			ev, err := collectEvidence(evidenceRun{runner: goRunner(t), repo: repo, platform: "linux", expected: expected, records: launch.Records, ran: true, log: &log}, parsed)
			if err != nil {
				t.Fatal(err)
			}
			var a schemas.TestResult
			for _, r := range ev.results {
				if r.ID == "ex/a/TestA" {
					a = r
				}
			}
			_, planted := os.Lstat(filepath.Join(launch.Records, "record.planted"))
			if protected {
				if a.Status != schemas.StatusError || a.Evidence != schemas.EvidenceDenied {
					t.Errorf("sandboxed: forged TestA = %+v, want an error the evidence denies\n%s", a, stderr.String())
				}
				if planted == nil || strings.Contains(stderr.String(), "FORGER:") {
					t.Errorf("sandboxed: the test binary changed the evidence:\n%s", stderr.String())
				}
				if b, err := os.ReadFile(filepath.Join(work, "osbench-bin", "go-test-exec")); err != nil || !strings.Contains(string(b), "records=") {
					t.Errorf("sandboxed: the launcher was replaced (%v)", err)
				}
			} else if a.Status != schemas.StatusPass || a.Evidence != schemas.EvidenceRan {
				t.Errorf("unprotected: forged TestA = %+v; the planted record should have made it an evidenced pass, or the test proves nothing\n%s", a, stderr.String())
			}
		})
	}
}

// chownAll gives the trees under roots to uid, so the unprotected run's
// user owns its work dir and caches as a slot uid owns its own.
func chownAll(t *testing.T, roots []string, uid int) error {
	t.Helper()
	for _, root := range roots {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, uid, uid)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
