package executors

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// When osbench is root every command sees a view of the file system made
// for it, not the host's: the init builds a new root (a tmpfs) in the
// step's mount namespace and pivots into it. The view holds
//   - the system directories compilers and Wine read (systemDirs),
//     read-only;
//   - the command's work dir, its Dir and WritableDirs, and the Wine
//     prefix it leases, writable;
//   - its ReadOnlyDirs, ReadOnlyFiles and its test launcher, read-only;
//   - its CopyOnWriteDirs, as overlays whose writes land in the command's
//     scratch space and vanish with it;
//   - every other existing path its argv, its environment values or its
//     PATH name (its program, a launcher), exactly that path, read-only:
//     osbench and the manifest chose them, not the code under test;
//   - private tmpfs mounts on /tmp, /var/tmp, /dev/shm and /run/lock, a
//     /proc of the step's PID namespace and a minimal /dev.
//
// Nothing else of the host is there: no osbench checkout, no home
// directories, no other cache or other directory of this cache (its
// blobs, mirrors, exports), no manifest's path source. A build script or
// a test of the patch that looks for the complete sources or the gold
// patch finds nothing to read, whatever the permissions on the host.
//
// The parents of what the view holds are created in the new root as
// searchable, not listable (0711) directories.

// systemDirs are the host directories every view holds read-only: the
// compilers, Wine, cmake, mingw-w64 and rustc-web are under /usr (as are
// /usr/local/go and /usr/local/lib/osbench); /etc holds the dynamic
// linker's cache, the certificates and the passwd database; /sys is read
// by runtimes sizing themselves to the machine (Go's GOMAXPROCS reads the
// cgroup limits, nproc and cargo the CPU set). On a merged-/usr system
// /bin, /sbin and /lib* are links into /usr, recreated as links.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"}

// viewDevices are the device nodes of the view's /dev, bound from the
// host's.
var viewDevices = []string{"null", "zero", "full", "random", "urandom", "tty"}

// viewRootSize caps the new root's tmpfs, which holds only directories and
// mount points (and what a command run as root writes outside them).
const viewRootSize = 64 << 20

// mountKind says how a path appears in the view.
type mountKind string

const (
	mountRO  mountKind = "ro"
	mountRW  mountKind = "rw"
	mountCOW mountKind = "cow"
	// mountEmpty is an empty directory of the new root (the passwd home
	// of a command run as root, which must exist but shows nothing of
	// the host's).
	mountEmpty mountKind = "empty"
)

// viewMount is one path of a command's view.
type viewMount struct {
	Path string    `json:"path"`
	Kind mountKind `json:"kind"`
	// Upper, Work and Merged are the overlay's directories of a
	// copy-on-write mount (see cowScratch).
	Upper  string `json:"upper,omitempty"`
	Work   string `json:"work,omitempty"`
	Merged string `json:"merged,omitempty"`
}

// viewMounts lists the command's view (see above) apart from the system
// directories, which the init adds. c is the command as it will be
// started (program, argv, environment); launcher is its test launcher or
// "". Paths are cleaned; nested ones are kept only where they change what
// is seen (a read-only dir inside the work dir).
func viewMounts(cmd Cmd, c *exec.Cmd, who runUser, launcher string, cow []viewMount) []viewMount {
	var explicit []viewMount
	add := func(kind mountKind, paths ...string) {
		for _, p := range paths {
			if filepath.IsAbs(p) && filepath.Clean(p) != "/" {
				explicit = append(explicit, viewMount{Path: filepath.Clean(p), Kind: kind})
			}
		}
	}
	add(mountRW, cmd.WorkDir)
	add(mountRW, cmd.WritableDirs...)
	add(mountRW, cmd.ownedDirs...)
	add(mountRO, cmd.ReadOnlyDirs...)
	add(mountRO, cmd.ReadOnlyFiles...)
	add(mountRO, launcher)
	explicit = append(explicit, cow...)
	// The working directory is almost always inside the work dir; one
	// elsewhere is writable as on the host, unless it lies in what the
	// view holds already (a system dir, a read-only dir).
	if d := filepath.Clean(c.Dir); filepath.IsAbs(d) && !inSystemDir(d) &&
		!slices.ContainsFunc(explicit, func(m viewMount) bool { return within(d, m.Path) }) {
		add(mountRW, d)
	}
	home := ""
	if who.root {
		// Root's commands get the passwd home (commandEnv), which must
		// exist; the host's (/root, where the default cache lives)
		// must not show.
		if h, ok := envLookup(c.Env, "HOME"); ok && filepath.IsAbs(h) {
			home = filepath.Clean(h)
			add(mountEmpty, home)
		}
	}
	covered := func(p string, kinds ...mountKind) bool {
		for _, m := range explicit {
			if (len(kinds) == 0 || slices.Contains(kinds, m.Kind)) && within(p, m.Path) {
				return true
			}
		}
		return false
	}
	// Nested explicit mounts: a writable dir inside the writable work dir
	// adds nothing; a read-only or copy-on-write dir inside it does.
	var out []viewMount
	for _, m := range explicit {
		redundant := false
		for _, o := range explicit {
			if o.Path != m.Path && within(m.Path, o.Path) && m.Kind == mountRW && o.Kind == mountRW {
				redundant = true
			}
		}
		if !redundant && !slices.ContainsFunc(out, func(o viewMount) bool { return o.Path == m.Path }) {
			out = append(out, m)
		}
	}
	// Paths named by the program, its argv and its environment.
	var named []string
	values := append([]string{c.Path}, c.Args[1:]...)
	for _, kv := range c.Env {
		_, v, _ := strings.Cut(kv, "=")
		values = append(values, filepath.SplitList(v)...)
	}
	for _, v := range values {
		if !filepath.IsAbs(v) {
			continue
		}
		p := filepath.Clean(v)
		// /dev and /proc are the view's own (a minimal /dev, the step's
		// /proc): a named /dev/null (go test -c -o /dev/null) must stay
		// the device, not become a read-only bind of it.
		if p == "/" || p == home || inSystemDir(p) || within(p, "/dev") || within(p, "/proc") || covered(p) {
			continue
		}
		// An ancestor of what the view holds would show its
		// siblings: a dir naming the cache shows every other cache
		// dir.
		if slices.ContainsFunc(explicit, func(m viewMount) bool { return within(m.Path, p) }) {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			continue
		}
		named = append(named, p)
	}
	slices.Sort(named)
	for i, p := range named {
		if i > 0 && slices.ContainsFunc(named[:i], func(q string) bool { return within(p, q) }) {
			continue
		}
		out = append(out, viewMount{Path: p, Kind: mountRO})
	}
	slices.SortFunc(out, func(a, b viewMount) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/") || dir == "/"
}

func inSystemDir(p string) bool {
	for _, d := range systemDirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// cowScratch prepares the overlay directories of the command's
// CopyOnWriteDirs in a root-only directory of its work dir, removed after
// the command (release): the upper directory gets the owner, group and
// mode of the shared directory, since the root of an overlay shows its
// upper directory's, and the command must be able to create entries there
// as it could in the shared directory.
func cowScratch(cmd Cmd) (mounts []viewMount, release func(), err error) {
	release = func() {}
	if len(cmd.CopyOnWriteDirs) == 0 {
		return nil, release, nil
	}
	if cmd.WorkDir == "" {
		return nil, release, errors.New("copy-on-write dirs need a WorkDir for their writes")
	}
	base, err := os.MkdirTemp(cmd.WorkDir, ".osbench-cow-")
	if err != nil {
		return nil, release, fmt.Errorf("copy-on-write dirs: %w", err)
	}
	release = func() { _ = os.RemoveAll(base) }
	for i, d := range cmd.CopyOnWriteDirs {
		if !filepath.IsAbs(d) {
			release()
			return nil, func() {}, fmt.Errorf("copy-on-write dir %q is not absolute", d)
		}
		m := viewMount{Path: filepath.Clean(d), Kind: mountCOW}
		dir := filepath.Join(base, fmt.Sprint(i))
		m.Upper, m.Work, m.Merged = filepath.Join(dir, "upper"), filepath.Join(dir, "work"), filepath.Join(dir, "merged")
		for _, p := range []string{m.Upper, m.Work, m.Merged} {
			if err := os.MkdirAll(p, 0o700); err != nil {
				release()
				return nil, func() {}, fmt.Errorf("copy-on-write dir %s: %w", d, err)
			}
		}
		var st unix.Stat_t
		if err := unix.Stat(d, &st); err != nil {
			release()
			return nil, func() {}, fmt.Errorf("copy-on-write dir %s: %w", d, err)
		}
		err := os.Chown(m.Upper, int(st.Uid), int(st.Gid))
		if err == nil {
			err = unix.Chmod(m.Upper, st.Mode&0o7777)
		}
		if err != nil {
			release()
			return nil, func() {}, fmt.Errorf("copy-on-write dir %s: %w", d, err)
		}
		if err := whiteOut(d, m.Upper, cmd.HiddenPaths); err != nil {
			release()
			return nil, func() {}, fmt.Errorf("copy-on-write dir %s: %w", d, err)
		}
		mounts = append(mounts, m)
	}
	for _, h := range cmd.HiddenPaths {
		if !slices.ContainsFunc(cmd.CopyOnWriteDirs, func(d string) bool { return below(h, d) }) {
			release()
			return nil, func() {}, fmt.Errorf("hidden path %s is in no copy-on-write dir", h)
		}
	}
	return mounts, release, nil
}

// below reports whether p is strictly below dir.
func below(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p != dir && within(p, dir)
}

// whiteOut makes each of the hidden paths below the shared directory
// shared absent from its overlay: a whiteout (a character device 0/0) at
// the path's place in the upper directory. The directories leading to it
// are created in upper with the owner and mode of their shared
// counterparts, since an overlay shows a directory present in both
// layers with the upper one's attributes.
func whiteOut(shared, upper string, hidden []string) error {
	for _, h := range hidden {
		if !below(h, shared) {
			continue
		}
		rel, _ := filepath.Rel(filepath.Clean(shared), filepath.Clean(h))
		parts := strings.Split(rel, string(filepath.Separator))
		for i := 1; i < len(parts); i++ {
			sub := filepath.Join(parts[:i]...)
			var st unix.Stat_t
			if err := unix.Lstat(filepath.Join(shared, sub), &st); err != nil {
				return fmt.Errorf("hiding %s: %w", h, err)
			}
			if st.Mode&unix.S_IFMT != unix.S_IFDIR {
				return fmt.Errorf("hiding %s: %s is not a directory", h, sub)
			}
			dir := filepath.Join(upper, sub)
			if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
				return fmt.Errorf("hiding %s: %w", h, err)
			}
			if err := os.Lchown(dir, int(st.Uid), int(st.Gid)); err != nil {
				return fmt.Errorf("hiding %s: %w", h, err)
			}
			if err := unix.Chmod(dir, st.Mode&0o7777); err != nil {
				return fmt.Errorf("hiding %s: %w", h, err)
			}
		}
		err := unix.Mknod(filepath.Join(upper, rel), unix.S_IFCHR, 0)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("hiding %s: %w", h, err)
		}
	}
	return nil
}

// overlayOptions is the mount data of a copy-on-write mount; commas,
// colons and backslashes in paths are escaped as overlayfs wants.
func overlayOptions(m viewMount) string {
	esc := strings.NewReplacer(`\`, `\\`, ",", `\,`, ":", `\:`).Replace
	return "lowerdir=" + esc(m.Path) + ",upperdir=" + esc(m.Upper) + ",workdir=" + esc(m.Work)
}

// The init's side.

// viewEntry is one thing the init puts into the new root.
type viewEntry struct {
	path string
	// fd is a detached mount (open_tree) to attach at path, or -1.
	fd    int
	isDir bool
	// link, when set, makes path a symbolic link to it.
	link string
	// fstype and data mount a new file system at path (tmpfs, devpts).
	fstype, data string
	// dirMode is the mode of an empty directory at path.
	dirMode os.FileMode
}

// setupView builds the command's view and pivots into it. It runs in the
// step's mount namespace, which was made private.
func setupView(spec sandboxSpec) error {
	var entries []viewEntry
	defer func() {
		for _, e := range entries {
			if e.fd >= 0 {
				unix.Close(e.fd)
			}
		}
	}()
	clone := func(path string, recursive bool, attr uint64) (int, error) {
		flags := uint(unix.OPEN_TREE_CLONE | unix.OPEN_TREE_CLOEXEC)
		if recursive {
			flags |= unix.AT_RECURSIVE
		}
		fd, err := unix.OpenTree(unix.AT_FDCWD, path, flags)
		if err != nil {
			return -1, fmt.Errorf("%s: %w", path, err)
		}
		if attr != 0 {
			at := &unix.MountAttr{Attr_set: attr}
			if err := unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, at); err != nil {
				unix.Close(fd)
				return -1, fmt.Errorf("%s: setting its mount attributes: %w", path, err)
			}
		}
		return fd, nil
	}
	const (
		roAttr = unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV
		rwAttr = unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV
	)
	for _, d := range systemDirs {
		info, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case info.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(d)
			if err != nil {
				return err
			}
			entries = append(entries, viewEntry{path: d, fd: -1, link: target})
		case info.IsDir():
			fd, err := clone(d, true, roAttr)
			if err != nil {
				return err
			}
			entries = append(entries, viewEntry{path: d, fd: fd, isDir: true})
		}
	}
	for _, name := range viewDevices {
		fd, err := clone("/dev/"+name, false, unix.MOUNT_ATTR_NOSUID)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENXIO) {
			continue
		}
		if err != nil {
			return err
		}
		entries = append(entries, viewEntry{path: "/dev/" + name, fd: fd})
	}
	for _, m := range spec.Mounts {
		var (
			fd  int
			err error
		)
		switch m.Kind {
		case mountRO:
			fd, err = clone(m.Path, true, roAttr)
		case mountRW:
			fd, err = clone(m.Path, true, rwAttr)
		case mountCOW:
			fd, err = overlayMount(m)
		case mountEmpty:
			entries = append(entries, viewEntry{path: m.Path, fd: -1, isDir: true, dirMode: 0o700})
			continue
		default:
			return fmt.Errorf("%s: unknown mount kind %q", m.Path, m.Kind)
		}
		if errors.Is(err, unix.ENOENT) && m.Kind == mountRO {
			continue // named, but gone since
		}
		if err != nil {
			return err
		}
		info, err := os.Stat(m.Path)
		if err != nil {
			unix.Close(fd)
			return err
		}
		entries = append(entries, viewEntry{path: m.Path, fd: fd, isDir: info.IsDir()})
	}
	tmp := fmt.Sprintf("mode=1777,size=%d", spec.TmpSize)
	entries = append(entries,
		viewEntry{path: "/proc", fd: -1, isDir: true, dirMode: 0o555},
		viewEntry{path: "/var", fd: -1, isDir: true, dirMode: 0o755},
		viewEntry{path: "/run", fd: -1, isDir: true, dirMode: 0o755},
		viewEntry{path: "/dev", fd: -1, fstype: "tmpfs", data: "mode=755,size=1m"},
		viewEntry{path: "/dev/pts", fd: -1, fstype: "devpts", data: "newinstance,ptmxmode=0666,mode=620"},
		viewEntry{path: "/dev/ptmx", fd: -1, link: "pts/ptmx"},
		viewEntry{path: "/dev/fd", fd: -1, link: "/proc/self/fd"},
		viewEntry{path: "/dev/stdin", fd: -1, link: "/proc/self/fd/0"},
		viewEntry{path: "/dev/stdout", fd: -1, link: "/proc/self/fd/1"},
		viewEntry{path: "/dev/stderr", fd: -1, link: "/proc/self/fd/2"},
	)
	for _, d := range privateTmpDirs {
		entries = append(entries, viewEntry{path: d, fd: -1, fstype: "tmpfs", data: tmp})
	}
	// Parents before children: a tmpfs on /tmp comes before the work
	// dir under it.
	slices.SortStableFunc(entries, func(a, b viewEntry) int { return strings.Compare(a.path, b.path) })

	// The new root goes over the host's /tmp, which nothing needs any
	// more: every tree below it was cloned above.
	const root = "/tmp"
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("mode=755,size=%d", viewRootSize)); err != nil {
		return fmt.Errorf("mounting the new root: %w", err)
	}
	for i := range entries {
		if err := placeEntry(root, &entries[i]); err != nil {
			return err
		}
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	// pivot_root(".", ".") stacks the old root under the new one, where
	// a lazy unmount removes it: no directory is needed for it.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the host's root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	return nil
}

// overlayMount mounts a copy-on-write dir's overlay at its scratch mount
// point, clones it and lets the original go: the clone is what the view
// gets.
func overlayMount(m viewMount) (int, error) {
	if err := unix.Mount("overlay", m.Merged, "overlay", unix.MS_NOSUID|unix.MS_NODEV, overlayOptions(m)); err != nil {
		return -1, fmt.Errorf("copy-on-write %s: mounting the overlay: %w", m.Path, err)
	}
	defer unix.Unmount(m.Merged, unix.MNT_DETACH)
	fd, err := unix.OpenTree(unix.AT_FDCWD, m.Merged, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("copy-on-write %s: %w", m.Path, err)
	}
	return fd, nil
}

// placeEntry puts e into the new root at root.
func placeEntry(root string, e *viewEntry) error {
	target := filepath.Join(root, e.path)
	if err := mkdirAllMode(filepath.Dir(target), 0o711); err != nil {
		return fmt.Errorf("view: %s: %w", e.path, err)
	}
	switch {
	case e.link != "":
		if err := os.Symlink(e.link, target); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("view: %s: %w", e.path, err)
		}
		return nil
	case e.fd < 0 && e.fstype == "":
		if err := mkdirAllMode(target, e.dirMode); err != nil {
			return fmt.Errorf("view: %s: %w", e.path, err)
		}
		return nil
	case e.fstype != "" || e.isDir:
		if err := mkdirAllMode(target, 0o711); err != nil {
			return fmt.Errorf("view: %s: %w", e.path, err)
		}
	default:
		f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("view: %s: %w", e.path, err)
		}
		f.Close()
	}
	if e.fstype != "" {
		if err := unix.Mount(e.fstype, target, e.fstype, unix.MS_NOSUID|unix.MS_NODEV, e.data); err != nil {
			return fmt.Errorf("view: mounting %s on %s: %w", e.fstype, e.path, err)
		}
		return nil
	}
	if err := unix.MoveMount(e.fd, "", unix.AT_FDCWD, target, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("view: attaching %s: %w", e.path, err)
	}
	unix.Close(e.fd)
	e.fd = -1
	return nil
}

// protectInPlace applies a command's ReadOnlyDirs and CopyOnWriteDirs
// where they are, for a step without a view (the isolation turned off in
// tests).
func protectInPlace(spec sandboxSpec) error {
	for _, m := range spec.Mounts {
		switch m.Kind {
		case mountRO:
			if err := unix.Mount(m.Path, m.Path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("read-only %s: %w", m.Path, err)
			}
			if err := unix.Mount("", m.Path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
				return fmt.Errorf("read-only %s: %w", m.Path, err)
			}
		case mountCOW:
			if err := unix.Mount("overlay", m.Path, "overlay", unix.MS_NOSUID|unix.MS_NODEV, overlayOptions(m)); err != nil {
				return fmt.Errorf("copy-on-write %s: %w", m.Path, err)
			}
		}
	}
	return nil
}
