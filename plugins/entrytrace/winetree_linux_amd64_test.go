package entrytrace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeProgramRecords: the programs' records become one record in the
// Linux tracer's format — processes summed, entries per process kept —
// and records that say nothing (untraced, never written) add nothing.
func TestMergeProgramRecords(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"none", nil, "images 0\n"},
		{"two runs of a program, one entered", map[string]string{
			"program.1": "images 1\narmed b/x.exe:main\nentered b/x.exe:main\n",
			"program.2": "images 1\narmed b/x.exe:main\n",
		}, "images 2\narmed b/x.exe:main\nentered b/x.exe:main\n"},
		{"two programs", map[string]string{
			"program.1": "images 1\narmed b/x.exe:main\nentered b/x.exe:main\n",
			"program.2": "images 1\narmed b/y.exe:main\nentered b/y.exe:main\n",
			"program.3": "images 1\narmed b/x.exe:main\nentered b/x.exe:main\n",
		}, "images 3\narmed b/x.exe:main\narmed b/y.exe:main\nentered b/x.exe:main\nentered b/x.exe:main\nentered b/y.exe:main\n"},
		{"untraced, empty and plan files add nothing", map[string]string{
			"program.1":      "untraced not a PE image\n",
			"program.2":      "",
			"program.3.plan": "fd 9\narm 1530 b/x.exe:main\nrun x\n",
			"other":          "images 1\narmed b/x.exe:main\nentered b/x.exe:main\n",
		}, "images 0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, b := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := mergeProgramRecords(dir); got != tt.want {
				t.Errorf("merged:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestWineTreeShim runs this test binary as the tracer over a shell
// command with a stand-in wine (it prints its arguments): the shim hands
// a program from outside the repository to wine untouched, tries to trace
// one from below it (not a PE image here: it runs untraced, through the
// same wine), and a command that rewrites the shim leaves no record at
// all (which denies every pass), since later programs may have run
// untraced.
func TestWineTreeShim(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	bin := filepath.Join(work, "bin")
	for _, d := range []string{repo, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "wine"), []byte("#!/bin/sh\necho \"wine got: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "x.exe"), []byte("not a PE image"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, script string
		wantOut      []string
		wantRecord   bool
	}{
		{"programs in and out of the tree", `wine /usr/lib/other.exe a && cd "$REPO" && wine x.exe b`,
			[]string{"wine got: /usr/lib/other.exe a\n", "wine got: " + filepath.Join(repo, "x.exe") + " b\n"}, true},
		{"the shim rewritten", `printf '#!/bin/sh\n' >"$(command -v wine)"`, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			record := filepath.Join(work, strings.ReplaceAll(tc.name, " ", "-"))
			cmd := exec.Command(self, MainArg, "-select=c", "-wine-tree", record, repo, "sh", "-c", tc.script)
			cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "REPO="+repo)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			b, err := os.ReadFile(record)
			switch {
			case tc.wantRecord && (err != nil || string(b) != "images 0\n"):
				t.Errorf("record = %q, %v; want one with no program traced (x.exe is no PE image)", b, err)
			case !tc.wantRecord && err == nil:
				t.Errorf("record written after the shim was rewritten:\n%s", b)
			}
		})
	}
}
