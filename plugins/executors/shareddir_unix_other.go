//go:build unix && !linux

package executors

// shareDir hands a long-lived writable directory to the one unprivileged
// user every command runs as on Unix hosts other than Linux.
func shareDir(dir string, who runUser) (uint32, error) {
	return uint32(who.gid), handOver(dir, who.uid, who.gid)
}
