// Package engine turns a set of declared steps into a DAG, computes each
// step's action key, and runs what is not already in the cache, in parallel,
// in dependency order. It knows nothing of tests, coverage or manifests:
// step kinds register themselves (RegisterKind) and the steps package builds
// the graph.
package engine

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// Step is one node of the graph: an instance of a Kind with its resolved
// configuration and the steps whose results it consumes.
type Step struct {
	ID    string // unique, e.g. "pathsep/linux/test"
	Kind  string // a registered Kind's name
	Group string // the repository: a failure stops only its own group's dependents
	// Config is the resolved configuration; every field enters the key.
	Config []Field
	// Inputs name the steps whose results this step reads.
	Inputs []Input
	// Env holds facts about where the step runs that change its results but
	// are not configuration: the platform and the executor's fingerprint.
	Env map[string]string
	// Pool limits how many steps of one kind of resource run at once
	// ("local", "wine"); "" means only the global -j bound applies.
	Pool string
	// Exports copy results out of the cache after a build (--out).
	Exports []Export
	// Local holds host facts a step needs but that must not enter its key,
	// such as the absolute path of a local source directory: the key carries
	// that directory's content digest instead, and the step checks it.
	Local map[string]string
}

// Field is one configuration value: canonical JSON plus where it came from
// ("examples/pathsep.hcl:12,3"), so explain can point at the line.
type Field struct {
	Name   string
	Value  any
	Source string
}

// Input is a dependency on another step's results.
type Input struct {
	Name string // how the consuming step refers to it ("source", "toolchain")
	Step string // the producing step's ID
	// Result, when set, is the one result of the producer this step reads.
	// Then only that result's digest enters the key (not the producer's
	// whole output digest), so producers that give the same result are
	// interchangeable — a test run of a tree is the same run whether the
	// tree came from a checkout, a mask or a patch — and the producer's
	// other results changing reruns nothing here.
	Result string
	// Optional inputs let the step run when the producer failed or was
	// skipped: the step sees the input as absent (RunContext.Input returns
	// an *AbsentError with the producer's reason) and its result, built
	// from incomplete inputs, is never cached. This is how one failed
	// repository or direction cannot take a whole collection (tasks.jsonl,
	// the build report) down with it.
	Optional bool
}

// Export says: write result Output of this step to Path under the out dir.
type Export struct {
	Output string
	Path   string // slash-separated, relative
	// Optional exports are skipped when the step did not produce Output
	// (a rejected task has no repository to export).
	Optional bool
	// Side exports a side artifact (a log) instead of a result. Logs are
	// exported for failed runs too: that is when they are wanted.
	Side bool
}

// Kind is a step kind. Run must be a pure function of the configuration and
// the inputs it was given: it must not read undeclared files, environment
// variables or clocks, or the cache will serve wrong answers.
type Kind interface {
	Name() string
	// Version enters every key; bump it when Run's results change meaning.
	Version() string
	Run(ctx context.Context, rc *RunContext) error
}

var (
	kindsMu sync.RWMutex
	kinds   = map[string]Kind{}
)

// RegisterKind makes k available to steps by its name. Registering a name
// twice is a programming error and panics at init.
func RegisterKind(k Kind) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if _, dup := kinds[k.Name()]; dup {
		panic(fmt.Sprintf("engine: step kind %q registered twice", k.Name()))
	}
	kinds[k.Name()] = k
}

// LookupKind returns the registered kind called name.
func LookupKind(name string) (Kind, bool) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	k, ok := kinds[name]
	return k, ok
}

// KindNames lists registered kinds, sorted.
func KindNames() []string {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
