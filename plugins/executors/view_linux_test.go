package executors

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestViewMounts: what a command's view holds besides the system dirs.
func TestViewMounts(t *testing.T) {
	base := t.TempDir()
	work := filepath.Join(base, "work")
	cache := filepath.Join(base, "cache")
	mods := filepath.Join(base, "mods")
	cargo := filepath.Join(base, "cargo")
	tool := filepath.Join(base, "tools", "bin", "tool")
	sibling := filepath.Join(base, "sibling")
	for _, d := range []string{work, cache, mods, cargo, sibling, filepath.Dir(tool)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(tool, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cmd  Cmd
		c    exec.Cmd
		who  runUser
		want []string
	}{
		{
			name: "the command's dirs, each as it asks",
			cmd:  Cmd{WorkDir: work, WritableDirs: []string{cache, filepath.Join(work, "records")}, ReadOnlyDirs: []string{mods}},
			c:    exec.Cmd{Path: "/usr/bin/go", Args: []string{"go", "test"}, Dir: filepath.Join(work, "src")},
			want: []string{"rw " + cache, "ro " + mods, "rw " + work},
		},
		{
			name: "paths the argv and environment name, exactly, read-only",
			cmd:  Cmd{WorkDir: work},
			c: exec.Cmd{Path: tool, Args: []string{"tool", sibling, "relative", filepath.Join(work, "x")}, Dir: work,
				Env: []string{"PATH=/usr/bin:" + filepath.Dir(tool), "A=" + filepath.Join(base, "absent")}},
			want: []string{"ro " + sibling, "ro " + filepath.Dir(tool), "rw " + work},
		},
		{
			name: "never the view's own /dev and /proc (go test -c -o /dev/null)",
			cmd:  Cmd{WorkDir: work},
			c:    exec.Cmd{Path: "/usr/bin/true", Args: []string{"true", "-o", "/dev/null", "/proc/self/fd/0"}, Dir: work},
			want: []string{"rw " + work},
		},
		{
			name: "never an ancestor of the command's dirs, never /",
			cmd:  Cmd{WorkDir: work},
			c:    exec.Cmd{Path: "/usr/bin/true", Args: []string{"true", base, "/"}, Dir: work, Env: []string{"TMPDIR=/tmp"}},
			want: []string{"rw " + work},
		},
		{
			name: "a root command's home is an empty dir",
			cmd:  Cmd{WorkDir: work},
			c:    exec.Cmd{Path: "/usr/bin/true", Args: []string{"true"}, Dir: work, Env: []string{"HOME=/root"}},
			who:  runUser{root: true},
			want: []string{"empty /root", "rw " + work},
		},
		{
			name: "a working directory in a read-only dir stays read-only",
			cmd:  Cmd{WorkDir: work, ReadOnlyDirs: []string{mods}},
			c:    exec.Cmd{Path: "/usr/bin/true", Args: []string{"true"}, Dir: filepath.Join(mods, "m")},
			want: []string{"ro " + mods, "rw " + work},
		},
		{
			name: "a working directory elsewhere is writable",
			cmd:  Cmd{},
			c:    exec.Cmd{Path: "/usr/bin/true", Args: []string{"true"}, Dir: sibling},
			want: []string{"rw " + sibling},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range viewMounts(tt.cmd, &tt.c, tt.who, "", nil) {
				got = append(got, string(m.Kind)+" "+m.Path)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("view = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReadOnlyAndCopyOnWriteDirs: a read-only dir cannot be written by
// the command (build included, not only its test programs); a
// copy-on-write dir can, but the writes stay in the command's scratch
// space and are gone after it; a test program run through the test
// launcher cannot write it either. The same script given the dirs as
// WritableDirs writes both, so the test can fail.
func TestReadOnlyAndCopyOnWriteDirs(t *testing.T) {
	requireRoot(t)
	base := scratchDir(t)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	ro, cow := filepath.Join(base, "ro"), filepath.Join(base, "cow")
	writeFile(t, filepath.Join(ro, "f"), "ro\n", 0o644)
	writeFile(t, filepath.Join(cow, "registry", "src", "f"), "cow\n", 0o644)
	script := `echo new > "$RO/new" 2>/dev/null && echo "created ro"
echo more >> "$RO/f" 2>/dev/null && echo "appended ro"
echo new > "$COW/new" 2>/dev/null && echo "created cow"
echo more >> "$COW/registry/src/f" 2>/dev/null && echo "appended cow"
cat "$COW/new" "$COW/registry/src/f"
test -n "$OSBENCH_TEST_SANDBOX" || echo "no test launcher"
"$OSBENCH_TEST_SANDBOX" sh -c 'echo x >> "$COW/registry/src/f"' 2>/dev/null && echo "a test program wrote cow"
true`
	reset := func() {
		os.Remove(filepath.Join(cow, "new"))
		os.Remove(filepath.Join(ro, "new"))
		writeFile(t, filepath.Join(cow, "registry", "src", "f"), "cow\n", 0o644)
		writeFile(t, filepath.Join(ro, "f"), "ro\n", 0o644)
	}
	for _, tt := range []struct {
		name      string
		cmd       Cmd
		want      string
		protected bool
	}{
		{"protected", Cmd{ReadOnlyDirs: []string{ro}, CopyOnWriteDirs: []string{cow}},
			"created cow\nappended cow\nnew\ncow\nmore\n", true},
		{"writable", Cmd{WritableDirs: []string{ro, cow}},
			"created ro\nappended ro\ncreated cow\nappended cow\nnew\ncow\nmore\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, view := range []bool{true, false} {
				reset()
				l := newTestLocal(t)
				l.off.view = !view
				work := filepath.Join(base, tt.name+"-work")
				cmd := tt.cmd
				cmd.Argv, cmd.WorkDir, cmd.Env = shell(script), work, []string{"RO=" + ro, "COW=" + cow}
				res, stdout, stderr, err := runCapture(t, l, cmd)
				if err != nil || res.ExitCode != 0 {
					t.Fatalf("view=%v: Run = %+v, %v; stderr %q", view, res, err, stderr)
				}
				if stdout != tt.want {
					t.Errorf("view=%v: the command wrote %q, want %q", view, stdout, tt.want)
				}
				_, errNew := os.Stat(filepath.Join(cow, "new"))
				b, _ := os.ReadFile(filepath.Join(cow, "registry", "src", "f"))
				r, _ := os.ReadFile(filepath.Join(ro, "f"))
				if kept := errNew != nil && string(b) == "cow\n" && string(r) == "ro\n"; kept != tt.protected {
					t.Errorf("view=%v: the shared dirs kept = %v, want %v (cow/new: %v, cow f %q, ro f %q)", view, kept, tt.protected, errNew, b, r)
				}
				if left, _ := filepath.Glob(filepath.Join(work, ".osbench-cow-*")); len(left) > 0 {
					t.Errorf("view=%v: the copy-on-write scratch space outlived the command: %q", view, left)
				}
			}
		})
	}
}

// TestReadOnlyFiles: a file of the command's own tree named in
// ReadOnlyFiles cannot be appended to, truncated, replaced by a rename or
// removed — by the command or a test program run through the test
// launcher — while its directory takes new files and its siblings stay
// writable; with and without the rest of the view. Without ReadOnlyFiles
// the same script changes it, so the test can fail.
func TestReadOnlyFiles(t *testing.T) {
	requireRoot(t)
	script := `cd "$WORK/repo"
test -n "$OSBENCH_TEST_SANDBOX" || echo "no test launcher"
"$OSBENCH_TEST_SANDBOX" sh -c 'echo x >> pkg/a_test.go' 2>/dev/null && echo "a test program appended"
(echo more >> pkg/a_test.go) 2>/dev/null && echo "appended"
(: > pkg/a_test.go) 2>/dev/null && echo "truncated"
echo forged > pkg/new && mv pkg/new pkg/a_test.go 2>/dev/null && echo "renamed over"
rm -f pkg/a_test.go 2>/dev/null; test -e pkg/a_test.go || echo "removed"
echo data >> pkg/testdata/in.txt && echo "sibling written"
echo ok > pkg/created && echo "created"
true`
	for _, tt := range []struct {
		name      string
		protected bool
		want      string
	}{
		{"read-only", true, "sibling written\ncreated\n"},
		{"writable", false, "a test program appended\nappended\ntruncated\nrenamed over\nremoved\nsibling written\ncreated\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, view := range []bool{true, false} {
				work := filepath.Join(scratchDir(t), "work")
				file := filepath.Join(work, "repo", "pkg", "a_test.go")
				writeFile(t, file, "package pkg\n", 0o644)
				writeFile(t, filepath.Join(work, "repo", "pkg", "testdata", "in.txt"), "in\n", 0o644)
				l := newTestLocal(t)
				l.off.view = !view
				// A shared dir, so the command gets the test launcher.
				cache := filepath.Join(filepath.Dir(work), "cache")
				writeFile(t, filepath.Join(cache, "f"), "cache\n", 0o644)
				cmd := Cmd{Argv: shell(script), WorkDir: work, Env: []string{"WORK=" + work}, ReadOnlyDirs: []string{cache}}
				if tt.protected {
					cmd.ReadOnlyFiles = []string{file}
				}
				res, stdout, stderr, err := runCapture(t, l, cmd)
				if err != nil || res.ExitCode != 0 {
					t.Fatalf("view=%v: Run = %+v, %v; stderr %q", view, res, err, stderr)
				}
				if stdout != tt.want {
					t.Errorf("view=%v: the command did %q, want %q", view, stdout, tt.want)
				}
				b, err := os.ReadFile(file)
				if kept := err == nil && string(b) == "package pkg\n"; kept != tt.protected {
					t.Errorf("view=%v: the file kept = %v, want %v (%q, %v)", view, kept, tt.protected, b, err)
				}
			}
		})
	}
}

// TestHiddenPaths: a path hidden inside a copy-on-write dir is absent from
// the command's view of it (not listed, not readable, not creatable from
// its old contents), with or without the rest of the view, while its
// siblings and the attributes of the directories leading to it stay as
// they are; and the shared dir itself keeps it. Without HiddenPaths the
// same script sees it, so the test can fail.
func TestHiddenPaths(t *testing.T) {
	requireRoot(t)
	base := scratchDir(t)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	cow := filepath.Join(base, "cargo")
	index := filepath.Join(cow, "registry", "src", "index.crates.io-1949cf8c6b5b557f")
	own := filepath.Join(index, "own-1.0.0")
	writeFile(t, filepath.Join(own, "src", "lib.rs"), "original\n", 0o644)
	writeFile(t, filepath.Join(index, "dep-2.0.0", "src", "lib.rs"), "dep\n", 0o644)
	script := `ls "$IDX"; stat -c %a:%u:%g "$IDX"
cat "$IDX/own-1.0.0/src/lib.rs" 2>/dev/null && echo "read own"
true`
	for _, tt := range []struct {
		name   string
		hidden []string
		want   string
	}{
		{"hidden", []string{own}, "dep-2.0.0\nATTR\n"},
		{"shown", nil, "dep-2.0.0\nown-1.0.0\nATTR\noriginal\nread own\n"},
	} {
		for _, view := range []bool{true, false} {
			l := newTestLocal(t)
			l.off.view = !view
			cmd := Cmd{
				Argv: shell(script), WorkDir: filepath.Join(base, tt.name+"-work"), Env: []string{"IDX=" + index},
				CopyOnWriteDirs: []string{cow}, HiddenPaths: tt.hidden,
			}
			res, stdout, stderr, err := runCapture(t, l, cmd)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("%s, view=%v: Run = %+v, %v; stderr %q", tt.name, view, res, err, stderr)
			}
			// The executor gives the run user the shared dir: the
			// directories leading to a whiteout look as they do on the
			// host after that.
			var st unix.Stat_t
			if err := unix.Stat(index, &st); err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(tt.want, "ATTR", fmt.Sprintf("%o:%d:%d", st.Mode&0o7777, st.Uid, st.Gid), 1)
			if stdout != want {
				t.Errorf("%s, view=%v: the command saw %q, want %q", tt.name, view, stdout, want)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(own, "src", "lib.rs")); err != nil || string(b) != "original\n" {
		t.Errorf("the shared dir lost the hidden path: %q, %v", b, err)
	}
	l := newTestLocal(t)
	_, _, _, err := runCapture(t, l, Cmd{Argv: shell("true"), WorkDir: filepath.Join(base, "bad-work"),
		CopyOnWriteDirs: []string{cow}, HiddenPaths: []string{filepath.Join(base, "elsewhere")}})
	if err == nil || !strings.Contains(err.Error(), "in no copy-on-write dir") {
		t.Errorf("a hidden path outside the copy-on-write dirs: err = %v, want one naming it", err)
	}
}
