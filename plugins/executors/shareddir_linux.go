package executors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// A long-lived writable directory (GOCACHE, GOMODCACHE, CARGO_HOME) is
// shared by the commands of every slot uid through a group of its own:
// the directory tree belongs to that group, its directories are setgid (new
// entries inherit the group) and carry a default ACL that gives the group
// what the owner gets, whatever umask a command has. Only commands that name
// the directory in WritableDirs get the group, so a C build never reaches a
// Go cache; and test programs never write it either, since they run through
// the test launcher, which mounts it read-only (see testlauncher.go).

// defaultACL is the xattr value of the default ACL user::rwx group::rwx
// other::r-x (see acl(5) and the kernel's posix_acl_xattr format).
var defaultACL = func() []byte {
	const undefinedID = 0xffffffff
	entries := []struct{ tag, perm uint16 }{
		{0x01, 7}, // ACL_USER_OBJ rwx
		{0x04, 7}, // ACL_GROUP_OBJ rwx
		{0x20, 5}, // ACL_OTHER r-x
	}
	b := binary.LittleEndian.AppendUint32(nil, 2) // POSIX_ACL_XATTR_VERSION
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, undefinedID)
	}
	return b
}()

const defaultACLXattr = "system.posix_acl_default"

// shareDir makes dir writable by the group of who's commands that name it,
// once: a directory already in its group with the setgid bit and the
// default ACL was converted before, and everything created in it since
// inherited both. It returns the group to give the command.
func shareDir(dir string, who runUser) (uint32, error) {
	gid := cacheGID(dir)
	info, err := os.Stat(dir)
	if err != nil {
		return 0, err
	}
	st := info.Sys().(*syscall.Stat_t)
	if int(st.Gid) == gid && info.Mode()&fs.ModeSetgid != 0 && hasDefaultACL(dir) {
		return uint32(gid), nil
	}
	if err := shareTree(dir, gid); err != nil {
		return 0, fmt.Errorf("sharing %s with group %d: %w", dir, gid, err)
	}
	return uint32(gid), nil
}

func hasDefaultACL(dir string) bool {
	buf := make([]byte, 64)
	n, err := unix.Getxattr(dir, defaultACLXattr, buf)
	return err == nil && n == len(defaultACL) && string(buf[:n]) == string(defaultACL)
}

// shareTree converts a tree: group gid and group rw (rwx where the owner
// has x) on everything, setgid and the default ACL on directories. Links
// are changed themselves, never followed (an earlier run may have planted
// one to /etc/shadow): every name is resolved through an os.Root, and the
// fd-based calls act on what was opened without following. The top is
// changed last, so a conversion that was interrupted is done again.
func shareTree(dir string, gid int) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	convert := func(name string, d fs.DirEntry) error {
		if d.Type()&fs.ModeSymlink != 0 {
			return root.Lchown(name, -1, gid)
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil // sockets, FIFOs: nothing a cache needs shared
		}
		f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return err
		}
		if err := f.Chown(-1, gid); err != nil {
			return err
		}
		mode := info.Mode()
		perm := mode.Perm() | (mode.Perm()&0o600)>>3
		if mode.Perm()&0o100 != 0 {
			perm |= 0o010
		}
		if info.IsDir() {
			if err := f.Chmod(perm | fs.ModeSetgid); err != nil {
				return err
			}
			return unix.Fsetxattr(int(f.Fd()), defaultACLXattr, defaultACL, 0)
		}
		return f.Chmod(perm | mode&(fs.ModeSetuid|fs.ModeSticky))
	}
	walkErr := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if err := convert(name, d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if walkErr != nil {
		return walkErr
	}
	top, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	return convert(".", fs.FileInfoToDirEntry(top))
}
