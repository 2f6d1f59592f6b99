package executors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/osbench/osbench/plugins/entrytrace"
)

// A Wine prefix (the C: drive, registry and wineserver of a Windows
// installation) belongs to one Unix user: Wine refuses a prefix another
// user owns. The wine executor therefore keeps a pool of prefixes per run
// user under its state directory:
//
//	<StateDir>/prefixes/uid-<uid>/slot-<n>        the prefix (WINEPREFIX)
//	<StateDir>/prefixes/uid-<uid>/slot-<n>.lock   held while a command uses it
//	<StateDir>/prefixes/uid-<uid>/slot-<n>.ready  written once it is complete;
//	                                              its mtime is the last lease
//
// A command leases a prefix for its whole run, so no two commands ever share
// one. Sharing is unsafe with Debian's Wine: a wineserver puts its socket
// under $TMPDIR, and two commands with different private TMPDIRs on one
// prefix would each start a wineserver of their own, each writing the same
// registry files. Leasing also lets the executor kill everything left in a
// prefix after a command without hitting another command.

// prefixPool hands out the prefixes of one run user.
type prefixPool struct {
	// dir holds the prefixes of the user with their lock and ready files.
	dir string
	// size is the number of prefixes; a lease waits while all are taken.
	size int
	// readyMark is the content of the ready file of a complete prefix. It
	// names what the prefix was built from (Wine version, shim), so a
	// prefix built by another Wine or with another shim is rebuilt.
	readyMark string
	// create builds a prefix in the directory it is given, which exists,
	// is empty and belongs to the run user.
	create func(ctx context.Context, prefix string) error
	// retryEvery is how often a lease looks for a free prefix while all
	// are taken.
	retryEvery time.Duration
}

// prefixLease is one command's exclusive use of a prefix.
type prefixLease struct {
	// prefix is the prefix directory, the command's WINEPREFIX.
	prefix string
	lock   *flock.Flock
}

// release gives the prefix back to the pool.
func (l *prefixLease) release() error {
	return l.lock.Close()
}

func (p *prefixPool) slotPath(slot int) string {
	return filepath.Join(p.dir, "slot-"+strconv.Itoa(slot))
}

// lease takes a free prefix, building it first if it is not complete. Locks
// are file locks, so osbench processes sharing a state directory never use
// or build the same prefix at once, and a lock dies with its process.
func (p *prefixPool) lease(ctx context.Context) (*prefixLease, error) {
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return nil, fmt.Errorf("Wine prefix pool: %w", err)
	}
	for {
		for slot := 0; slot < p.size; slot++ {
			prefix := p.slotPath(slot)
			lock := flock.New(prefix + ".lock")
			locked, err := lock.TryLock()
			if err != nil {
				return nil, fmt.Errorf("locking Wine prefix %s: %w", prefix, err)
			}
			if !locked {
				continue // another command uses it
			}
			if err := p.ensureComplete(ctx, prefix); err != nil {
				_ = lock.Close()
				return nil, err
			}
			// The ready file's time is the prefix's last use, which
			// PruneWinePrefixes trims by (a failed stamp only makes the
			// prefix look older).
			now := time.Now()
			_ = os.Chtimes(prefix+".ready", now, now)
			return &prefixLease{prefix: prefix, lock: lock}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for one of the %d Wine prefixes in %s: %w", p.size, p.dir, ctx.Err())
		case <-time.After(p.retryEvery):
		}
	}
}

// prefixBuildAttempts is how many times a prefix is built from nothing
// before its lease fails. Wine's setup commands fail now and then with no
// output at all (`wine reg import` exiting 1 while other prefixes were
// being built on a loaded machine), and one failure would otherwise fail
// every step of the platform in the run.
const prefixBuildAttempts = 2

// ensureComplete builds the leased prefix unless its ready file says it is
// complete. A prefix without one was never finished (osbench was killed,
// wineboot failed or timed out) or was built from something else; it is
// removed and built from nothing, because Wine cannot be trusted to repair
// a half-written prefix — also between attempts.
func (p *prefixPool) ensureComplete(ctx context.Context, prefix string) error {
	if p.isComplete(prefix) {
		return nil
	}
	var failures []string
	for attempt := 1; attempt <= prefixBuildAttempts; attempt++ {
		err := p.build(ctx, prefix)
		if err == nil {
			return nil
		}
		failures = append(failures, err.Error())
		if ctx.Err() != nil {
			break
		}
	}
	return fmt.Errorf("creating Wine prefix %s (%d attempts): %s", prefix, len(failures), strings.Join(failures, "; then: "))
}

// build makes prefix from nothing and marks it complete.
func (p *prefixPool) build(ctx context.Context, prefix string) error {
	ready := prefix + ".ready"
	// The ready file goes first, so a crash below leaves the prefix
	// marked incomplete.
	if err := os.Remove(ready); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resetting Wine prefix: %w", err)
	}
	if err := os.RemoveAll(prefix); err != nil {
		return fmt.Errorf("removing incomplete Wine prefix: %w", err)
	}
	if err := os.Mkdir(prefix, 0o755); err != nil {
		return fmt.Errorf("creating Wine prefix: %w", err)
	}
	if err := p.create(ctx, prefix); err != nil {
		return err
	}
	if err := writeFileAtomic(ready, []byte(p.readyMark)); err != nil {
		return fmt.Errorf("marking Wine prefix complete: %w", err)
	}
	return nil
}

// isComplete reports whether prefix exists and its ready file matches.
func (p *prefixPool) isComplete(prefix string) bool {
	mark, err := os.ReadFile(prefix + ".ready")
	if err != nil || string(mark) != p.readyMark {
		return false
	}
	info, err := os.Stat(prefix)
	return err == nil && info.IsDir()
}

// writeFileAtomic replaces path with data so that readers see the old
// content or the new, never a part.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// prefixSetupReg removes the TEMP and TMP variables Wine keeps in the
// registry of a new prefix (C:\users\<user>\Temp and C:\windows\temp). The
// registry overrides the environment, so without this every command's
// Windows temp files would land in the shared prefix and outlive the
// command. With it, the WINETEMP and WINETMP variables the executor sets
// reach Windows programs as TEMP and TMP, pointing into the command's own
// scratch directory.
const prefixSetupReg = `REGEDIT4

[HKEY_CURRENT_USER\Environment]
"TEMP"=-
"TMP"=-

[HKEY_LOCAL_MACHINE\System\CurrentControlSet\Control\Session Manager\Environment]
"TEMP"=-
"TMP"=-
`

const prefixSetupRegName = "osbench-prefix.reg"

// createPrefix builds a complete prefix in the empty directory prefix, as
// the run user: wineboot creates it, the registry is adjusted, the shim and
// the entry tracer are compiled into system32, and finally the wineserver is waited for, because
// it writes the registry files only when it exits.
func (w *Wine) createPrefix(ctx context.Context, who runUser, prefix string) error {
	// The scratch directory sits next to the prefix, where the run user
	// can reach it.
	work, err := os.MkdirTemp(filepath.Dir(prefix), "setup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	sources := map[string]string{
		shimSourceName:     shimSource,
		shimExportsName:    shimExports,
		tracerSourceName:   tracerSource,
		prefixSetupRegName: prefixSetupReg,
	}
	for name, content := range sources {
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	system32 := filepath.Join(prefix, "drive_c", "windows", "system32")
	steps := [][]string{
		{"wineboot", "--init"},
		{"wine", "reg", "import", prefixSetupRegName},
		shimBuildArgv(filepath.Join(system32, shimDLLName)),
		tracerBuildArgv(filepath.Join(system32, entrytrace.WineTracer)),
		{"wineserver", "--wait"},
	}
	deadline := time.Now().Add(w.InitTimeout)
	for _, argv := range steps {
		if err := w.runSetupStep(ctx, argv, who, prefix, work, time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}

// runSetupStep runs one command of the creation of prefix and turns every
// way it can go wrong into an error that shows the command and its output.
func (w *Wine) runSetupStep(ctx context.Context, argv []string, who runUser, prefix, work string, timeout time.Duration) error {
	name := strings.Join(argv[:min(2, len(argv))], " ")
	if timeout <= 0 {
		return fmt.Errorf("%s: the prefix was not ready within %v", name, w.InitTimeout)
	}
	var output tailBuffer
	res, err := w.runner.runAs(ctx, Cmd{
		Argv:    argv,
		Dir:     work,
		WorkDir: work,
		// A private HOME even for root (whose commands get the passwd
		// home): wineboot links the profile folders of C:\users\<name>
		// (Documents, Desktop ...) to those under HOME when they exist,
		// and a prefix must not depend on what a home holds.
		Env:       append(wineBaseEnv(prefix), "HOME="+scratchHome(work)),
		Stdout:    &output,
		Stderr:    &output,
		Timeout:   timeout,
		ownedDirs: []string{prefix},
	}, who)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	case res.TimedOut:
		return fmt.Errorf("%s: the prefix was not ready within %v; output: %s", name, w.InitTimeout, output.String())
	case res.ExitCode != 0:
		return fmt.Errorf("%s: exit code %d; output: %s", name, res.ExitCode, output.String())
	}
	return nil
}

// tailBuffer keeps the last tailBufferSize bytes written to it: enough of a
// failing setup command's output to say what went wrong, never an unbounded
// log in memory.
type tailBuffer struct {
	buf       []byte
	truncated bool
}

const tailBufferSize = 4 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if extra := len(b.buf) - tailBufferSize; extra > 0 {
		b.buf = append(b.buf[:0], b.buf[extra:]...)
		b.truncated = true
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	s := strings.TrimSpace(string(b.buf))
	switch {
	case s == "":
		return "(none)"
	case b.truncated:
		return "[...] " + s
	}
	return s
}
