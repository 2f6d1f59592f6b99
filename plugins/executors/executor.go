// Package executors runs the commands of steps (a test suite, a build) on a
// platform. Steps call an executor; the engine never does.
//
// Executors are looked up by the name a manifest uses ("local", later "wine"
// and "temporal") in a registry filled once, in all.go.
package executors

import (
	"context"
	"io"
	"time"
)

// Config is what every executor gets when it is created.
type Config struct {
	// StateDir is a directory this executor owns under osbench's cache,
	// for state that outlives one command (a Wine prefix, for example).
	StateDir string
	// Unisolated turns a root osbench's isolation off for every command
	// of the executor: the host's network and file system, as a non-root
	// osbench gives. Only Go code sets it — the bench harness, measuring
	// what the isolation costs (cmd/osbench-bench) —: no flag, manifest
	// key or variable reaches it, so no user or patch can turn the
	// isolation off. The executor's fingerprint says so.
	Unisolated bool
}

// Cmd is one command to run.
type Cmd struct {
	// Argv is the program and its arguments. A program name without a path
	// separator is looked up in the PATH of the command's own environment.
	Argv []string
	// Dir is the absolute working directory. Empty means WorkDir.
	Dir string
	// Env is the whole environment as "K=V" entries. Executors do not
	// inherit the host environment except for what they document.
	Env []string
	// Stdout and Stderr receive the command's output; nil discards it.
	Stdout, Stderr io.Writer
	// Timeout bounds the run; 0 means no bound.
	Timeout time.Duration
	// User selects who runs the command. "" is the default: an osbench
	// running as root drops to an unprivileged user. "root" keeps root.
	// A non-root osbench runs everything as itself.
	User string
	// WorkDir is the step's scratch root. The executor creates it and its
	// home and tmp subdirectories, makes them writable by the run user, and
	// points the home and temp variables of the environment at them unless
	// Env sets those variables itself.
	WorkDir string
	// WritableDirs are long-lived directories the command writes (GOCACHE,
	// GOMODCACHE). The executor creates them and makes them writable by the
	// run user. They are kept outside every key.
	WritableDirs []string
	// ReadOnlyDirs are long-lived directories the command reads and must
	// not change (a module or crate cache filled by a fetch step). When
	// the executor can, they are mounted read-only for the whole command,
	// build included. They are kept outside every key.
	ReadOnlyDirs []string
	// CopyOnWriteDirs are long-lived directories the command reads and
	// may write, but whose writes must reach no other command (CARGO_HOME
	// for a cargo build, which extracts crate sources into it and locks
	// a file there). When the executor can (a root osbench on Linux), each
	// is an overlay for the whole command: the shared directory below,
	// read-only; the command's writes in its work dir, removed when the
	// command ends. It needs a WorkDir. Without that ability the command
	// writes the directory itself. They are kept outside every key.
	CopyOnWriteDirs []string
	// ReadOnlyFiles are files inside the command's tree that nothing the
	// command runs may change (the task's restored test sources: a build
	// script, a configure step or a test program that rewrites one would
	// be judged on tests of its own making). Where the executor gives the
	// command a view or namespaces of its own each is bound read-only
	// over itself, so writing, truncating, renaming or removing it fails
	// (EROFS, EBUSY) while its directory stays writable; elsewhere they
	// are left as they are (the test step's hash of the test sources still
	// sees a change). They are kept outside every key: an honest command
	// writes none of them.
	ReadOnlyFiles []string
	// HiddenPaths are paths inside CopyOnWriteDirs the command must not
	// see: a shared crate cache holds every repository's dependencies, so
	// another version of the repository's own package can sit there (a
	// dependency of another repository built on the same cache), its
	// original sources one `#[path]` away from a patch (toolenv.Hide).
	// Where the copy-on-write overlays are made each is a whiteout in the
	// command's upper directory, so it is absent from the command's view
	// of the shared directory; elsewhere the command sees them. A path
	// outside every CopyOnWriteDirs entry is an error.
	HiddenPaths []string
	// Network keeps the host's network for the command. Without it an
	// executor that can (a root osbench on Linux) runs the command in a
	// network namespace of its own with only loopback: commands that run
	// repository or patch code (builds, tests) never set it; a fetch of
	// pinned dependencies, which runs no repository code, does.
	Network bool
	// LoopbackPorts are ports of 127.0.0.1 in the command's network whose
	// connections osbench serves itself (LoopbackPort): the one way out
	// of a command without Network, for a proxy that decides what passes.
	LoopbackPorts []LoopbackPort

	// ownedDirs are long-lived directories of one run user (a Wine
	// prefix, which Wine refuses unless its user owns it): handed to
	// that user, never shared.
	ownedDirs []string
	// readOnlyForTests are more directories the test sandbox mounts
	// read-only for test programs (a Wine prefix's C:\windows, whose
	// DLLs every later program of the prefix loads), beside WritableDirs.
	readOnlyForTests []string
}

// TestSandboxVar is the variable through which the local and wine
// executors hand a command the program that runs a test program in the
// test sandbox: the command's WritableDirs mounted read-only, its other
// processes out of sight (testlauncher_linux.go). The executor sets it when
// it protects the command's writable dirs, and also points the toolchains'
// own runner settings at it (go test -exec, cargo's target runner, Wine's
// go_windows_amd64_exec) unless the command sets one itself. A command
// that runs test programs through a launcher of its own (the test step's
// evidence launcher) runs them as `$OSBENCH_TEST_SANDBOX PROGRAM ARGS...`
// to keep the protection. Its value is a path, never a secret.
const TestSandboxVar = "OSBENCH_TEST_SANDBOX"

// Result is how a command ended.
type Result struct {
	// ExitCode is the exit status, or -1 when the process was killed by a
	// signal (including by the executor on timeout or cancellation).
	ExitCode int
	// TimedOut reports that Timeout fired and the process tree was killed.
	TimedOut bool
	// Duration is the wall time from start until the command's first
	// process ended.
	Duration time.Duration
	// Signal is the signal that ended the command's first process when
	// the executor did not send it (the OOM killer's SIGKILL, an operator's
	// kill), 0 otherwise; ExitCode is then -1. A signal of a process the
	// command started (a test binary's SIGSEGV) is the command's business
	// and shows in its exit status instead.
	Signal int
	// OOMKills is the number of the command's processes the kernel's OOM
	// killer killed because the command passed its memory limit (see
	// Local.MemoryLimit): the machine's doing, whatever the exit status
	// shows (go test reports a test binary killed so as "signal: killed").
	OOMKills int
	// CPUTime is the CPU time the command's processes used, and CPUWait
	// how long at least one of them was runnable but waited for a CPU
	// (the kernel's pressure stall information), both read from the
	// command's own cgroup (CPUScope CPUScopeCommand; cpuwait_linux.go).
	// Without one, CPUWait is the whole host's stall during the run
	// (CPUScopeHost), which says nothing of the command's own, and
	// CPUTime is 0; CPUScope "" means neither is known. They describe
	// the run and never enter a key.
	CPUTime, CPUWait time.Duration
	CPUScope         string
	// DiskUsed is the most the command's work dir held when the executor
	// measured it against its disk limit (disklimit.go), 0 when it did
	// not. A command stopped at the limit ends with ExitCode -1 and Run
	// returns a quota error (EDQUOT) beside this Result.
	DiskUsed int64
}

// Scopes of Result.CPUWait (declared on every platform: the test step
// reads them wherever osbench is built).
const (
	CPUScopeCommand = "command" // the command's own cgroup
	CPUScopeHost    = "host"    // the whole machine: not the command's own wait
)

// Executor runs commands on one platform.
//
// Run returns an error only for infrastructure failures: the command could
// not be started, its output could not be written, the executor itself
// failed. A non-zero exit or a timeout is a Result, not an error.
// Cancelling ctx kills the whole process tree and Run returns ctx.Err(),
// wrapped, together with the Result so far.
type Executor interface {
	// Name is the name the executor is registered under.
	Name() string
	// Fingerprint describes everything about the executor that can change
	// the results of a command run as user (see Cmd.User): OS and
	// architecture, privilege mode, later a Wine version. It is stable
	// across runs and across machines of the same kind and never contains
	// paths of caches or work directories, because it enters every action
	// key.
	Fingerprint(ctx context.Context, user string) (string, error)
	// Platform is the GOOS-style name of the platform commands run on.
	Platform() string
	// Run runs one command to completion.
	Run(ctx context.Context, cmd Cmd) (Result, error)
}
