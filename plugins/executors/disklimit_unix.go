//go:build unix

package executors

import (
	"io/fs"
	"syscall"
)

// fileID names a file across hard links.
type fileID struct{ dev, ino uint64 }

// allocated is the space a file takes on disk, and whether it has other
// links (then id names it).
func allocated(info fs.FileInfo) (n int64, id fileID, linked bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return info.Size(), fileID{}, false
	}
	return st.Blocks * 512, fileID{uint64(st.Dev), st.Ino}, !info.IsDir() && st.Nlink > 1
}

// fileSystemSize is the size of the file system holding dir.
func fileSystemSize(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Blocks) * int64(st.Bsize), true
}
