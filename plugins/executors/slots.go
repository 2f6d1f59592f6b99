package executors

import (
	"hash/fnv"
	"path/filepath"
	"strings"
)

// On Linux each command of a root osbench runs as a uid of its own: the uid of a
// slot, held from the start of the command to its end. Two commands that
// run at the same time, in one osbench or in several, never share a uid, so
// no command can read or write another's work directory (0700, the slot
// uid's), signal its processes or ptrace them. Slots are reused, lowest
// first: once its command has ended a slot's uid owns nothing but what it
// wrote into shared directories (the work directory is removed, the
// processes are dead, /tmp was a tmpfs), and only commands that write the
// same shared directories get such a uid again (see slotClass).
//
// The uids are not in the host's user database; inside the step's mount
// namespace "nobody" and "nogroup" are given the slot's numbers (see
// passwdWithUID), so suites see the same user as before.
const (
	// SlotUIDBase is the uid (and gid) of slot 0. The range is far above
	// the ids Debian allocates (users below 60000, systemd's dynamic
	// users below 65520) and the subordinate ids of containers (from
	// 100000, 65536 per user).
	SlotUIDBase = 2_100_000_000
	// SlotCount bounds the commands that can run at once on one host.
	SlotCount = 4096
	// CacheGIDBase is where the groups of shared writable directories
	// (see cacheGID) start.
	CacheGIDBase = 2_110_000_000
	// ClassUIDBase is where the uids of commands that write shared
	// directories start: ClassSlots per set of directories (see
	// slotClass), 2^24 sets, up to 3,273,741,824.
	ClassUIDBase = 2_200_000_000
	ClassSlots   = 64
)

// cacheGID is the group of a shared directory: derived from its path, so
// every osbench process agrees on it without any state. Two paths share a
// group with a chance of one in a million per pair.
func cacheGID(dir string) int {
	h := fnv.New32a()
	h.Write([]byte(realDir(dir)))
	return CacheGIDBase + int(h.Sum32()%(1<<20))
}

// realDir is dir with its symbolic links resolved (cleaned, when it cannot
// be resolved): the group and the uid class of a shared directory must not
// depend on the path it is named by. A cache whose state is reached through
// a link got another group than the same directory by its own path, and
// each command re-grouped the whole tree to its own spelling — under the
// feet of a command writing it by the other one, whose build then failed
// with permission errors.
func realDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// sharedDirs are the writable directories of a command that other commands
// write too: those outside its own work directory. Only they choose the
// command's uid class (slotClass) — a directory inside the work directory
// (a test step's evidence records) is the command's alone, and counting it
// would give every command a class, a uid and a Wine prefix of its own.
func sharedDirs(writable []string, workDir string) []string {
	if workDir == "" {
		return writable
	}
	var out []string
	for _, d := range writable {
		if rel, err := filepath.Rel(workDir, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out = append(out, d)
	}
	return out
}
