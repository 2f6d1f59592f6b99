package executors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// WineName is the registered name of the executor that runs the Windows
// platform on a Linux host through Wine.
const WineName = "wine"

const (
	defaultWineInitTimeout = 5 * time.Minute
	// wineCleanupTimeout bounds the kill of a prefix's wineserver after a
	// command, which takes under a second when Wine works at all.
	wineCleanupTimeout = 30 * time.Second
	wineLeaseRetry     = 200 * time.Millisecond
)

// wineDLLOverrides is the WINEDLLOVERRIDES of every command:
//   - mscoree and mshtml disabled: Wine would otherwise offer to download
//     and install Mono and Gecko, which needs a display and the network;
//   - winemenubuilder disabled: it writes desktop menu entries for
//     programs "installed" in the prefix;
//   - bcryptprimitives native first: the shim in system32 must win over a
//     builtin DLL of that name, which Wine 8 lacks but later Wines ship.
const wineDLLOverrides = "mscoree,mshtml=;winemenubuilder.exe=d;bcryptprimitives=n,b"

// wineOwnedVars are the environment variables the wine executor sets
// itself. A command that sets one is rejected rather than silently
// overridden: a manifest saying WINEPREFIX or DISPLAY expects it to matter.
var wineOwnedVars = []string{
	"WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "WINETEMP", "WINETMP",
	"DISPLAY", "WAYLAND_DISPLAY",
}

// wineTools are the programs the executor runs itself, found in osbench's
// own PATH. Commands find wine through their own PATH.
var wineTools = []string{"wine", "wineboot", "wineserver", mingwCC}

// Wine runs the Windows platform on a Linux host.
//
// Commands run natively on the host, exactly as with Local (process
// group, unprivileged user when osbench is root, timeouts that kill the
// tree): the go command, cmake, ctest and cargo are Linux programs that
// launch the Windows binaries they build through wine themselves ("go test
// -exec wine"). What the executor adds is a Wine environment:
//   - WINEPREFIX: a prefix osbench owns under its state directory, never
//     the user's ~/.wine, leased to one command at a time (see prefixPool),
//     with a shim bcryptprimitives.dll that Go programs since Go 1.22 need
//     and Wine 8 lacks (see wineshim/bcryptprimitives.c);
//   - WINEDEBUG=-all, so Wine's diagnostics never mix with test output;
//   - WINEDLLOVERRIDES (see wineDLLOverrides);
//   - WINETEMP and WINETMP, which Windows programs see as TEMP and TMP: the
//     command's temp directory, so their temp files stay in its WorkDir (a
//     command with neither WorkDir nor TMPDIR gets Windows' fallback, the
//     user's profile directory in the prefix);
//   - no DISPLAY: nothing may open a window.
//
// After each command every process left in its prefix is killed, including
// the wineserver and Wine's service processes, which leave the command's
// process group.
type Wine struct {
	// InitTimeout bounds the creation of one prefix (wineboot, the shim
	// build). Creation happens on the first command of a run user, and
	// again for each command that runs while all existing prefixes are
	// leased.
	InitTimeout time.Duration
	// MaxPrefixes bounds the prefixes of one run user, and so how many
	// commands run at once; further commands wait. Each prefix takes
	// about 700 MB.
	MaxPrefixes int

	stateDir string
	// runner starts every process, the command's and the executor's own.
	runner *Local

	mu      sync.Mutex
	version string // of Wine, once known
}

// NewWine creates the wine executor. It keeps its prefixes in
// cfg.StateDir. Wine and mingw-w64 are looked for when the first command
// runs, not here, so that creating every executor a manifest names never
// fails for want of Wine on machines that do not run its steps.
func NewWine(cfg Config) (*Wine, error) {
	if runtime.GOOS == "windows" {
		return nil, errors.New("the wine executor needs a Unix host; on Windows use the local executor")
	}
	if cfg.StateDir == "" || !filepath.IsAbs(cfg.StateDir) {
		return nil, fmt.Errorf("the wine executor needs an absolute state directory, got %q", cfg.StateDir)
	}
	// The runner's state directory holds the test launchers, through
	// which go_windows_amd64_exec runs Windows test programs (see
	// winelauncher.go).
	runner, err := NewLocal(Config{StateDir: cfg.StateDir, Unisolated: cfg.Unisolated})
	if err != nil {
		return nil, err
	}
	runner.crossRunner = true
	return &Wine{
		InitTimeout: defaultWineInitTimeout,
		MaxPrefixes: max(runtime.NumCPU(), 1),
		stateDir:    cfg.StateDir,
		runner:      runner,
	}, nil
}

// Name implements Executor.
func (w *Wine) Name() string { return WineName }

// Platform implements Executor: programs built for Windows run.
func (w *Wine) Platform() string { return "windows" }

// Fingerprint implements Executor. It names the Wine version, the shim's
// source digest, the host's OS and architecture (Wine on arm64 is another
// thing), the privilege mode and the isolation, like Local.
func (w *Wine) Fingerprint(ctx context.Context, user string) (string, error) {
	who, err := resolveRunUser(user)
	if err != nil {
		return "", fmt.Errorf("wine executor: %w", err)
	}
	version, err := w.wineVersion(ctx)
	if err != nil {
		return "", fmt.Errorf("wine executor: %w", err)
	}
	return fmt.Sprintf("wine %s shim %s %s/%s user=%s%s",
		version, shimDigest()[:12], runtime.GOOS, runtime.GOARCH, who.mode(), isolationMode(w.runner.off)), nil
}

// wineVersion returns what `wine --version` prints, asking once.
func (w *Wine) wineVersion(ctx context.Context) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version != "" {
		return w.version, nil
	}
	if err := checkWineTools(); err != nil {
		return "", err
	}
	var stdout, stderr tailBuffer
	res, err := w.runner.Run(ctx, Cmd{
		Argv: []string{"wine", "--version"},
		Dir:  "/",
		// WINEDEBUG=-all also silences the Debian wrapper's advice to
		// install the 32-bit Wine, which is not needed.
		Env:     []string{"WINEDEBUG=-all"},
		User:    UserRoot, // reads no prefix, so who runs it is moot
		Stdout:  &stdout,
		Stderr:  &stderr,
		Timeout: time.Minute,
	})
	if err != nil {
		return "", fmt.Errorf("wine --version: %w", err)
	}
	version, _, _ := strings.Cut(string(stdout.buf), "\n")
	version = strings.TrimSpace(version)
	if res.ExitCode != 0 || res.TimedOut || version == "" {
		return "", fmt.Errorf("wine --version: exit code %d, output %q, errors: %s", res.ExitCode, version, stderr.String())
	}
	w.version = version
	return version, nil
}

// Run implements Executor.
func (w *Wine) Run(ctx context.Context, cmd Cmd) (Result, error) {
	notRun := Result{ExitCode: -1}
	if err := ctx.Err(); err != nil {
		return notRun, fmt.Errorf("wine executor: not started: %w", err)
	}
	// Everything that can be checked without Wine is checked before a
	// prefix is leased, which may take a minute to create.
	if _, err := checkCmd(cmd); err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	if err := checkWineEnv(cmd.Env); err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	who, err := resolveRunUser(cmd.User)
	if err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	version, err := w.wineVersion(ctx)
	if err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	// One uid for the whole command: the prefix is that uid's, and so
	// are the processes stopPrefix must find. Its class is that of the
	// command's own writable dirs; the prefix comes with the uid.
	who, releaseSlot, err := acquireSlot(who, sharedDirs(cmd.WritableDirs, cmd.WorkDir))
	if err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	defer releaseSlot()
	lease, err := w.pool(who, version).lease(ctx)
	if err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	defer lease.release()

	launchers := filepath.Join(w.stateDir, "bin")
	if err := ensureLaunchers(launchers); err != nil {
		return notRun, fmt.Errorf("wine executor: launchers: %w", err)
	}
	env := prependPath(append(slices.Clone(cmd.Env), wineBaseEnv(lease.prefix)...), launchers)
	// cargo runs Windows test programs through its target runner: plain
	// wine, in the cargo preset, becomes the launcher that runs it in the
	// test sandbox (winelauncher.go).
	if len(launcherDirs(cmd)) > 0 {
		for i, kv := range env {
			if kv == cargoWindowsRunnerVar+"=wine" {
				env[i] = cargoWindowsRunnerVar + "=" + filepath.Join(launchers, wineTestLauncherName)
			}
		}
	}
	if tmp, ok := commandTempDir(cmd); ok {
		env = append(env, "WINETEMP="+windowsPath(tmp), "WINETMP="+windowsPath(tmp))
	}
	// The program is looked up here, as Local would: behind the
	// wineserver wrapper (wineserver.go) a missing one would be the
	// wrapper's exit 127 instead of the executor's error.
	if _, err := lookPath(cmd.Argv[0], envValue(env, "PATH")); err != nil {
		return notRun, fmt.Errorf("wine executor: %w", err)
	}
	wineCmd := cmd
	wineCmd.Argv = wrapWineCommand(cmd.Argv)
	wineCmd.Env = env
	wineCmd.ownedDirs = append(slices.Clone(cmd.ownedDirs), lease.prefix)
	// The prefix stays the command's to write (Wine saves its registry
	// there), but its C:\windows is read-only for test programs: a DLL
	// one of them replaced there (the bcryptprimitives shim, loaded
	// native first) would run inside every later program of the prefix.
	wineCmd.readOnlyForTests = []string{filepath.Join(lease.prefix, "drive_c", "windows")}
	res, err := w.runner.runAs(ctx, wineCmd, who)
	if err != nil {
		err = fmt.Errorf("wine executor: %w", err)
	}
	if stopErr := w.stopPrefix(ctx, wineCmd, who); stopErr != nil && err == nil {
		err = fmt.Errorf("wine executor: %w", stopErr)
	}
	return res, err
}

// pool returns the prefix pool of the user the command runs as.
func (w *Wine) pool(who runUser, wineVersion string) *prefixPool {
	uid := os.Geteuid()
	if who.drop {
		uid = who.uid
	}
	return &prefixPool{
		dir:  filepath.Join(w.stateDir, "prefixes", "uid-"+strconv.Itoa(uid)),
		size: max(w.MaxPrefixes, 1),
		readyMark: fmt.Sprintf("osbench wine prefix\nwine: %s\nshim: %s\nentry tracer: %s\nregistry: %s\n",
			wineVersion, shimDigest(), tracerDigest(), sha256Hex(prefixSetupReg)),
		create:     func(ctx context.Context, prefix string) error { return w.createPrefix(ctx, who, prefix) },
		retryEvery: wineLeaseRetry,
	}
}

// stopPrefix kills whatever is left in the prefix of a command that has
// ended: the wineserver and the Windows service processes (services.exe,
// winedevice.exe, plugplay.exe ...) start their own sessions, so the kill
// of the command's process group misses them. Left alone they end a second
// or two after the last Windows program (measured with Wine 8, after normal
// exits and after timeouts), which is after Run returned and the prefix
// went to the next command; that command, with another TMPDIR, would start
// a second wineserver beside the dying one. `wineserver -k` takes under a
// second and leaves nothing; killing the wineserver alone (-k9) is worse
// than nothing, as the service processes then never exit. stopPrefix runs
// even when ctx is done: that is when leftovers are most likely.
func (w *Wine) stopPrefix(ctx context.Context, cmd Cmd, who runUser) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), wineCleanupTimeout)
	defer cancel()
	// The wineserver is found through the prefix and TMPDIR, under
	// which Debian's Wine keeps its socket: both as in the command. No
	// WorkDir: the command's was handed to the run user already.
	env := []string{"WINEPREFIX=" + envValue(cmd.Env, "WINEPREFIX"), "WINEDEBUG=-all"}
	if tmp, ok := commandTempDir(cmd); ok {
		env = append(env, "TMPDIR="+tmp)
	}
	var output tailBuffer
	res, err := w.runner.runAs(ctx, Cmd{
		// -k exits with 1 when no wineserver runs (the command
		// started no Windows program).
		Argv:   []string{"wineserver", "-k"},
		Dir:    envValue(cmd.Env, "WINEPREFIX"),
		Env:    env,
		Stdout: &output,
		Stderr: &output,
	}, who)
	if err != nil {
		return fmt.Errorf("stopping the wineserver: %w", err)
	}
	if res.ExitCode > 1 {
		return fmt.Errorf("stopping the wineserver: exit code %d; output: %s", res.ExitCode, output.String())
	}
	return nil
}

// wineBaseEnv is the Wine environment of every process run in prefix.
func wineBaseEnv(prefix string) []string {
	return []string{
		"WINEPREFIX=" + prefix,
		"WINEDEBUG=-all",
		"WINEDLLOVERRIDES=" + wineDLLOverrides,
	}
}

// checkWineEnv rejects a command environment that sets a variable the
// executor owns.
func checkWineEnv(env []string) error {
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(wineOwnedVars, k) {
			return fmt.Errorf("cmd.Env[%d] sets %s, which the wine executor sets itself (it owns %s)",
				i, k, strings.Join(wineOwnedVars, ", "))
		}
	}
	return nil
}

// checkWineTools fails, naming the Debian packages to install, when a
// program the executor needs is not in osbench's PATH.
func checkWineTools() error {
	var missing []string
	for _, tool := range wineTools {
		if _, err := lookPath(tool, os.Getenv("PATH")); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s not found in PATH (Debian: apt-get install wine wine64 gcc-mingw-w64-x86-64)",
			strings.Join(missing, ", "))
	}
	return nil
}

// commandTempDir returns the temp directory of cmd as Local sets it up:
// TMPDIR from its Env, else the one in its WorkDir.
func commandTempDir(cmd Cmd) (string, bool) {
	if tmp, ok := envLookup(cmd.Env, "TMPDIR"); ok {
		return tmp, filepath.IsAbs(tmp)
	}
	if cmd.WorkDir != "" {
		return scratchTemp(cmd.WorkDir), true
	}
	return "", false
}

// envValue returns the value of key in env, or "".
func envValue(env []string, key string) string {
	v, _ := envLookup(env, key)
	return v
}

// windowsPath is how Windows programs under Wine name the absolute host
// path p: Wine maps the host's root directory to drive Z:.
func windowsPath(p string) string {
	return "Z:" + strings.ReplaceAll(filepath.Clean(p), "/", `\`)
}
