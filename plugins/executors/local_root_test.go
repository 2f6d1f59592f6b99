//go:build unix

package executors

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The tests here need osbench to run as root: they check how the local
// executor drops privileges.

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: checks the switch to the unprivileged user")
	}
}

// ownerOf returns the uid that owns path, without following a final link.
func ownerOf(t *testing.T, path string) int {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(info.Sys().(*syscall.Stat_t).Uid)
}

func isSlotUID(uid int) bool {
	return uid >= SlotUIDBase && uid < SlotUIDBase+SlotCount || uid >= ClassUIDBase && uid < ClassUIDBase+(1<<24)*ClassSlots
}

func writeFile(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

func TestLocalRunUser(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	tests := []struct {
		user   string
		script string
		want   string
	}{
		// The slot's uid under the name nobody, and no supplementary
		// groups: id -G prints the primary gid only.
		{"", `id -un; id -gn; test "$(id -u)" -ge ` + strconv.Itoa(SlotUIDBase) + ` && test "$(id -G)" = "$(id -g)" && echo slot`, "nobody\nnogroup\nslot\n"},
		{"root", "id -u; id -g", "0\n0\n"},
	}
	for _, tt := range tests {
		t.Run("user="+tt.user, func(t *testing.T) {
			res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(tt.script), WorkDir: scratchDir(t), User: tt.user})
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
			}
			if stdout != tt.want {
				t.Errorf("ids = %q, want %q", stdout, tt.want)
			}
		})
	}
}

// TestLocalRootKeepsPasswdHome: a suite run with user = "root" sees root's
// home from the user database, so a test comparing os.UserHomeDir with
// user.Current().HomeDir passes; temp stays private. The passwd entry is
// read by getent inside the command, not by the code under test.
func TestLocalRootKeepsPasswdHome(t *testing.T) {
	requireRoot(t)
	if _, err := exec.LookPath("getent"); err != nil {
		t.Skip("no getent to read the passwd database with")
	}
	l := newTestLocal(t)
	work := scratchDir(t)
	script := `passwd=$(getent passwd 0 | cut -d: -f6)
echo "$HOME"
echo "$TMPDIR"
test "$HOME" = "$passwd" || { echo "HOME $HOME is not the passwd home $passwd" >&2; exit 1; }`
	res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script), WorkDir: work, User: UserRoot})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("output %q, want HOME and TMPDIR", stdout)
	}
	if lines[0] == scratchHome(work) || !filepath.IsAbs(lines[0]) {
		t.Errorf("HOME = %q, want the passwd home, not the private %q", lines[0], scratchHome(work))
	}
	if want := scratchTemp(work); lines[1] != want {
		t.Errorf("TMPDIR = %q, want the private %q", lines[1], want)
	}

	// The default user of a root osbench keeps a private home.
	res, stdout, stderr, err = runCapture(t, l, Cmd{Argv: shell(`echo "$HOME"`), WorkDir: scratchDir(t)})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
	}
	if strings.TrimSpace(stdout) == lines[0] {
		t.Errorf("the unprivileged run user got root's home %q", lines[0])
	}
}

func TestLocalHandsWorkDirToRunUser(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	work := filepath.Join(scratchDir(t), "work")
	// What osbench itself put into the work dir, as root, before the run:
	// a private directory and a file only its owner may read.
	writeFile(t, filepath.Join(work, "src", "secret"), "checked out\n", 0o400)
	if err := os.Chmod(filepath.Join(work, "src"), 0o700); err != nil {
		t.Fatal(err)
	}

	script := `cat secret && echo new > created && touch "$HOME/h" "$TMPDIR/t"`
	res, stdout, stderr, err := runCapture(t, l, Cmd{Argv: shell(script), Dir: filepath.Join(work, "src"), WorkDir: work})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
	}
	if stdout != "checked out\n" {
		t.Errorf("stdout = %q, want the root-owned file's content", stdout)
	}
	for _, rel := range []string{".", "src", "src/secret", "src/created", "home", "home/h", "tmp", "tmp/t"} {
		if uid := ownerOf(t, filepath.Join(work, rel)); !isSlotUID(uid) {
			t.Errorf("%s is owned by uid %d, want a slot's", rel, uid)
		}
	}
}

// TestLocalWritableDirs: a shared cache is written by the commands of
// several slot uids through its group, whatever they create in it and
// whatever was in it before.
func TestLocalWritableDirs(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	base := scratchDir(t)
	cache := filepath.Join(base, "cache")
	writeFile(t, filepath.Join(cache, "sub", "old"), "x", 0o644)
	run := func(script string) int {
		t.Helper()
		res, stdout, stderr, err := runCapture(t, l, Cmd{
			Argv: shell(script + "; id -u"), WorkDir: filepath.Join(base, "work"),
			Env: []string{"CACHE=" + cache}, WritableDirs: []string{cache},
		})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
		}
		uid, _ := strconv.Atoi(strings.TrimSpace(stdout))
		return uid
	}
	// umask 077 would lock everyone else out without the default ACL.
	first := run(`umask 077; mkdir "$CACHE/d" && echo a > "$CACHE/d/f" && echo b >> "$CACHE/sub/old"`)
	// The first slot of the class is held, so the second command gets
	// another uid.
	_, release, err := acquireSlot(runUser{drop: true}, []string{cache})
	if err != nil {
		t.Fatal(err)
	}
	second := run(`echo c >> "$CACHE/d/f" && rm "$CACHE/sub/old" && mkdir "$CACHE/d/e"`)
	release()
	if first == second || !isSlotUID(first) || !isSlotUID(second) {
		t.Fatalf("commands ran as uids %d and %d, want two slot uids", first, second)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "d", "f")); err != nil || string(b) != "a\nc\n" {
		t.Errorf("d/f = %q, %v; want both commands' lines", b, err)
	}
	for _, rel := range []string{".", "d", "d/f", "d/e"} {
		info, err := os.Stat(filepath.Join(cache, rel))
		if err != nil {
			t.Fatal(err)
		}
		if gid := int(info.Sys().(*syscall.Stat_t).Gid); gid != cacheGID(cache) {
			t.Errorf("%s has group %d, want the cache's %d", rel, gid, cacheGID(cache))
		}
	}
	// A command that does not name the cache, or names other shared
	// dirs, gets neither its group nor the uid of a command that wrote it.
	other := filepath.Join(base, "other-cache")
	for _, writable := range [][]string{nil, {other}} {
		res, stdout, _, err := runCapture(t, l, Cmd{
			Argv:    shell(`for f in "$CACHE/d/f" "$CACHE/d/g"; do echo x >> "$f" 2>/dev/null && echo "wrote $f"; done; true`),
			WorkDir: filepath.Join(base, "work2"), Env: []string{"CACHE=" + cache}, WritableDirs: writable,
		})
		if err != nil || stdout != "" {
			t.Errorf("a command with WritableDirs %q wrote the cache: %+v, %v, %q", writable, res, err, stdout)
		}
	}
}

func TestLocalHandOverStaysInsideWorkDir(t *testing.T) {
	requireRoot(t)
	l := newTestLocal(t)
	base := scratchDir(t)
	outside := filepath.Join(base, "outside")
	writeFile(t, filepath.Join(outside, "shadow"), "secret", 0o600)
	work := filepath.Join(base, "work")
	// Links an untrusted repository could plant, to a file and to a dir.
	for name, target := range map[string]string{"file-link": filepath.Join(outside, "shadow"), "dir-link": outside} {
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}

	res, _, stderr, err := runCapture(t, l, Cmd{Argv: []string{"true"}, WorkDir: work})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v; stderr %q", res, err, stderr)
	}
	for _, p := range []string{outside, filepath.Join(outside, "shadow")} {
		if uid := ownerOf(t, p); uid != 0 {
			t.Errorf("%s, reachable only through a link, was handed to uid %d", p, uid)
		}
	}
	if uid := ownerOf(t, filepath.Join(work, "file-link")); !isSlotUID(uid) {
		t.Errorf("the link itself is owned by uid %d, want a slot's", uid)
	}
}

func TestLocalUnreachableDirs(t *testing.T) {
	requireRoot(t)
	tests := []struct {
		desc string
		cmd  func(reachable, locked string) Cmd
	}{
		{"work dir", func(_, locked string) Cmd {
			return Cmd{WorkDir: filepath.Join(locked, "work")}
		}},
		{"work dir apart from dir", func(reachable, locked string) Cmd {
			return Cmd{Dir: reachable, WorkDir: filepath.Join(locked, "work")}
		}},
		{"writable dir", func(reachable, locked string) Cmd {
			return Cmd{WorkDir: filepath.Join(reachable, "work"), WritableDirs: []string{filepath.Join(locked, "cache")}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			l := newTestLocal(t)
			base := scratchDir(t)
			locked := filepath.Join(base, "locked")
			if err := os.Mkdir(locked, 0o700); err != nil {
				t.Fatal(err)
			}
			cmd := tt.cmd(base, locked)
			cmd.Argv = []string{"true"}

			_, err := l.Run(context.Background(), cmd)
			if err == nil || !strings.Contains(err.Error(), "cannot reach") || !strings.Contains(err.Error(), locked+" (mode -rwx------") {
				t.Errorf("Run error = %v, want one naming %s as unreachable", err, locked)
			}

			cmd.User = UserRoot
			if res, err := l.Run(context.Background(), cmd); err != nil || res.ExitCode != 0 {
				t.Errorf("as root: Run = %+v, %v; want success", res, err)
			}
		})
	}
}
