//go:build unix

package fsapi

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// isHidden applies the Unix convention: a name starting with "." is hidden.
// The file is stat'ed anyway so that a missing file is an error here too, as
// it is on Windows.
func isHidden(path string) (bool, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return false, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	name := filepath.Base(path)
	return strings.HasPrefix(name, ".") && name != "." && name != "..", nil
}

func setHidden(string, bool) error {
	return errors.ErrUnsupported
}

func isWritable(path string) (bool, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return false, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	groups, err := syscall.Getgroups()
	if err != nil {
		return false, err
	}
	groups = append(groups, syscall.Getgid())
	return permitsWrite(fs.FileMode(st.Mode&0o777), st.Uid, st.Gid, syscall.Getuid(), groups), nil
}

// permitsWrite applies the permission-bit rule of POSIX: exactly one of the
// owner, group or other classes applies to a user, the first that matches.
// It deliberately ignores root's override, so the answer does not depend on
// who runs the program.
func permitsWrite(perm fs.FileMode, fileUID, fileGID uint32, uid int, gids []int) bool {
	switch {
	case uint32(uid) == fileUID:
		return perm&0o200 != 0
	case slices.Contains(gids, int(fileGID)):
		return perm&0o020 != 0
	default:
		return perm&0o002 != 0
	}
}

func homeDir() (string, error) {
	if home, ok := syscall.Getenv("HOME"); ok && home != "" {
		return home, nil
	}
	return "", ErrNoHome
}
