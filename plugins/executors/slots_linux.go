package executors

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// slotClass is the class of a command's uid: 0 for a command that writes
// no shared directory, else derived from the set of directories it writes.
// Files a command creates in a shared directory are owned by its uid, and
// an owner can always write its files; if a C build could get the uid an
// earlier Go build had, it could rewrite the objects that build left in
// GOCACHE. So the uids of commands that write shared directories are kept
// apart from all others, and from those of other directory sets (a Rust
// build.rs never owns a Go cache file). Two sets share a class with a chance
// of one in 16 million per pair.
func slotClass(dirs []string) int {
	if len(dirs) == 0 {
		return 0
	}
	clean := make([]string, len(dirs))
	for i, d := range dirs {
		clean[i] = realDir(d)
	}
	slices.Sort(clean)
	clean = slices.Compact(clean)
	h := fnv.New32a()
	h.Write([]byte(strings.Join(clean, "\x00")))
	return 1 + int(h.Sum32()%(1<<24-1))
}

// slotRange is the first uid of class and how many slots it has.
func slotRange(class int) (first, count int) {
	if class == 0 {
		return SlotUIDBase, SlotCount
	}
	return ClassUIDBase + (class-1)*ClassSlots, ClassSlots
}

// slotLockDir holds one lock file per slot, machine-wide, so that
// concurrent osbench processes (other caches) never hand out the same uid.
// It is root's and under /run, which no run user can write.
var slotLockDir = "/run/osbench/slots"

// acquireSlot gives a command that drops privileges the uid and gid of a
// free slot of the class of writableDirs. release frees it; call it after
// the command's last process is gone.
func acquireSlot(who runUser, writableDirs []string) (runUser, func(), error) {
	if !who.drop {
		return who, func() {}, nil
	}
	if err := os.MkdirAll(slotLockDir, 0o755); err != nil {
		return who, nil, fmt.Errorf("uid slots: %w", err)
	}
	first, count := slotRange(slotClass(writableDirs))
	for uid := first; uid < first+count; uid++ {
		f, err := os.OpenFile(filepath.Join(slotLockDir, "uid-"+strconv.Itoa(uid)), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return who, nil, fmt.Errorf("uid slots: %w", err)
		}
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if errors.Is(err, unix.EWOULDBLOCK) {
			f.Close()
			continue
		}
		if err != nil {
			f.Close()
			return who, nil, fmt.Errorf("uid slots: locking uid %d: %w", uid, err)
		}
		who.uid, who.gid = uid, uid
		return who, func() { f.Close() }, nil
	}
	return who, nil, fmt.Errorf("uid slots: all %d uids from %d are in use", count, first)
}
