//go:build unix

package executors

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// homeVars and tempVars are the variables pointed at a command's private
// home and temp directories.
var (
	homeVars = []string{"HOME"}
	tempVars = []string{"TMPDIR"}
)

func envKeyEqual(a, b string) bool { return a == b }

// sysProcAttr puts the command in a process group of its own, so that the
// whole tree it starts can be signalled at once, and switches it to the run
// user when osbench is root.
func sysProcAttr(who runUser) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if who.drop {
		// A non-nil Groups with NoSetGroups false replaces the
		// supplementary groups root had (disk, adm, docker ...) with
		// those of the command's shared directories, often none.
		attr.Credential = &syscall.Credential{
			Uid:    uint32(who.uid),
			Gid:    uint32(who.gid),
			Groups: append([]uint32{}, who.groups...),
		}
	}
	setDeathSignal(attr)
	return attr
}

// terminateTree asks every process of the command's group to stop.
func terminateTree(p *os.Process) error {
	return syscall.Kill(-p.Pid, syscall.SIGTERM)
}

// killTree kills every process left in the command's group.
func killTree(p *os.Process) error {
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// lookPath finds file in pathList, the PATH of the command's environment
// (exec.LookPath would search osbench's own PATH instead). Relative entries,
// including the empty one that means ".", are skipped: they would resolve
// against osbench's working directory, which has nothing to do with the
// command.
func lookPath(file, pathList string) (string, error) {
	if strings.ContainsRune(file, '/') {
		return file, nil // a path, relative to the working directory
	}
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		candidate := filepath.Join(dir, file)
		info, err := os.Stat(candidate)
		if err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
			return candidate, nil
		}
	}
	return "", fmt.Errorf("%s: executable not found in the command's PATH %q", file, pathList)
}

// prepareDirs creates the work directory, its home and tmp, and the
// writable directories; when the command runs as another user it hands the
// work directory to that user (mode 0700: no other uid may enter it) and
// shares the writable directories with it, returning their groups.
func prepareDirs(cmd Cmd, who runUser) ([]uint32, error) {
	if cmd.WorkDir != "" {
		if err := os.MkdirAll(cmd.WorkDir, 0o700); err != nil {
			return nil, err
		}
		for _, d := range []string{scratchHome(cmd.WorkDir), scratchTemp(cmd.WorkDir)} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return nil, err
			}
		}
		if who.drop {
			// The work dir may hold files osbench wrote as root (a
			// checkout); all of it is the command's to read and write.
			if err := chownTree(cmd.WorkDir, who.uid, who.gid); err != nil {
				return nil, err
			}
			if err := os.Chmod(cmd.WorkDir, 0o700); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range cmd.ownedDirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		if who.drop {
			if err := handOver(d, who.uid, who.gid); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range cmd.ReadOnlyDirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	var groups []uint32
	// A copy-on-write dir gets the group of the shared dir too: the
	// command writes its overlay, which checks the shared dir's modes,
	// while the writes land in the command's scratch space.
	for _, d := range append(slices.Clone(cmd.WritableDirs), cmd.CopyOnWriteDirs...) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		if who.drop {
			gid, err := shareDir(d, who)
			if err != nil {
				return nil, err
			}
			if gid != uint32(who.gid) && !slices.Contains(groups, gid) {
				groups = append(groups, gid)
			}
		}
	}
	return groups, nil
}

// checkReachable fails when the run user cannot traverse every directory
// down to each of paths. Without this check the command would fail later
// and obscurely: a cache under /root (mode 0700) makes the working directory
// or HOME unreachable, and the suite reports failures that have nothing to
// do with the code. Only mode bits are checked; ACLs are not.
func checkReachable(who runUser, paths []string) error {
	if !who.drop {
		return nil
	}
	for _, p := range paths {
		if err := checkSearchable(p, who); err != nil {
			return err
		}
	}
	return nil
}

// handOver makes a long-lived writable directory the run user's. A directory
// already owned by the user was handed over before, and everything in it was
// written by that user since, so only the directory itself is chowned (for
// its group); walking a GOMODCACHE of a hundred thousand files on every run
// would cost more than many test suites.
func handOver(dir string, uid, gid int) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner information", dir)
	}
	if int(st.Uid) != uid {
		return chownTree(dir, uid, gid)
	}
	return os.Chown(dir, uid, gid)
}

// chownTree gives dir and everything below it to uid:gid.
//
// The tree may contain symlinks planted by an untrusted repository or by a
// previous untrusted run (a link to /etc/shadow). Everything is therefore
// resolved through an os.Root, which never leaves dir, and changed with
// Lchown, which never follows the last link: a link itself changes owner,
// its target does not. The top directory is changed last, so another run
// that finds it already owned by uid (see handOver) knows the walk is done.
func chownTree(dir string, uid, gid int) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	walkErr := fs.WalkDir(root.FS(), ".", func(name string, _ fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while we walk: nothing left to hand over
		}
		if err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if err := root.Lchown(name, uid, gid); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if walkErr != nil {
		return fmt.Errorf("handing %s to uid %d: %w", dir, uid, walkErr)
	}
	if err := root.Lchown(".", uid, gid); err != nil {
		return fmt.Errorf("handing %s to uid %d: %w", dir, uid, err)
	}
	return nil
}

// checkSearchable fails when who (its uid, gid and groups) cannot traverse
// every directory from / down to path.
func checkSearchable(path string, who runUser) error {
	uid := who.uid
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			return fmt.Errorf("%s: no owner information", p)
		}
		var need fs.FileMode = 0o001
		switch {
		case int(st.Uid) == uid:
			need = 0o100
		case int(st.Gid) == who.gid || slices.Contains(who.groups, st.Gid):
			need = 0o010
		}
		if info.Mode().Perm()&need == 0 {
			return fmt.Errorf("uid %d cannot reach %s: %s (mode %v, owner %d:%d) is not searchable by it; "+
				"use directories the unprivileged user can traverse, or run with user = %q",
				uid, path, p, info.Mode().Perm(), st.Uid, st.Gid, UserRoot)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}
