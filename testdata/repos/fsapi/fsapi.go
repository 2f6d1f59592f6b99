// Package fsapi answers questions about files whose answers come from the
// operating system: whether a file is hidden or writable and where the
// user's home is. The exported functions are shared; each platform supplies
// its half in attrs_unix.go or attrs_windows.go.
package fsapi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// ErrNoHome means the environment does not say where the user's home is.
var ErrNoHome = errors.New("home directory not set")

// IsHidden reports whether the file at path is hidden from ordinary
// listings: a name starting with "." on Unix, the hidden attribute on
// Windows. The file must exist.
func IsHidden(path string) (bool, error) {
	hidden, err := isHidden(path)
	if err != nil {
		return false, fmt.Errorf("fsapi: is %s hidden: %w", path, err)
	}
	return hidden, nil
}

// SetHidden hides or shows the file at path. Only Windows keeps hiding as an
// attribute; on Unix hiding means renaming, so SetHidden returns an error
// wrapping errors.ErrUnsupported there.
func SetHidden(path string, hidden bool) error {
	if err := setHidden(path, hidden); err != nil {
		return fmt.Errorf("fsapi: set hidden=%v on %s: %w", hidden, path, err)
	}
	return nil
}

// IsWritable reports whether the current user may write the file at path,
// judged from its attributes alone (Unix permission bits, or the Windows
// read-only attribute). It does not ask the kernel for access, so the answer
// is the same whether or not the caller is privileged.
func IsWritable(path string) (bool, error) {
	writable, err := isWritable(path)
	if err != nil {
		return false, fmt.Errorf("fsapi: is %s writable: %w", path, err)
	}
	return writable, nil
}

// HomeDir returns the current user's home directory as the environment
// states it: $HOME on Unix, %USERPROFILE% on Windows.
func HomeDir() (string, error) {
	home, err := homeDir()
	if err != nil {
		return "", fmt.Errorf("fsapi: %w", err)
	}
	return home, nil
}

// ListVisible returns the sorted names of the entries of dir that are not
// hidden.
func ListVisible(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("fsapi: list %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		hidden, err := IsHidden(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if !hidden {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Resolve returns the absolute path of the file at path with every symbolic
// link replaced by its target, so two names of one file compare equal.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("fsapi: resolve %s: %w", path, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("fsapi: resolve %s: %w", path, err)
	}
	return resolved, nil
}

// FindEntry returns the entry of dir that is the file at path, however path
// names it (through "..", a relative path or a hard link). Entries are
// matched by file identity (os.SameFile), not by name. A file that dir does
// not list is an error wrapping fs.ErrNotExist.
func FindEntry(dir, path string) (fs.DirEntry, error) {
	want, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("fsapi: find %s in %s: %w", path, dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("fsapi: find %s in %s: %w", path, dir, err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("fsapi: find %s in %s: %w", path, dir, err)
		}
		if os.SameFile(info, want) {
			return e, nil
		}
	}
	return nil, fmt.Errorf("fsapi: find %s in %s: %w", path, dir, fs.ErrNotExist)
}
