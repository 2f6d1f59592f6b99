package executors

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Factory creates an executor from its configuration.
type Factory func(Config) (Executor, error)

// registry maps executor names to factories. It is a type rather than a bare
// map so tests can exercise it without touching the process-wide one.
type registry struct {
	mu        sync.RWMutex
	factories map[string]Factory
}

func newRegistry() *registry {
	return &registry{factories: make(map[string]Factory)}
}

// builtin is the process-wide registry that all.go fills.
var builtin = newRegistry()

// Register makes an executor available under name. It is meant to be called
// from init functions; like database/sql.Register it panics on an empty
// name, a nil factory or a name registered twice, because each is a
// programming error in the binary, never a consequence of user input.
func Register(name string, factory func(Config) (Executor, error)) {
	builtin.register(name, factory)
}

// New creates the executor registered under name. An unknown name is an
// error that lists the known names, so a manifest typo is easy to fix.
func New(name string, cfg Config) (Executor, error) {
	return builtin.create(name, cfg)
}

// Names returns the registered executor names, sorted.
func Names() []string {
	return builtin.names()
}

func (r *registry) register(name string, factory Factory) {
	if name == "" {
		panic("executors: Register called with an empty name")
	}
	if factory == nil {
		panic(fmt.Sprintf("executors: Register(%q) called with a nil factory", name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.factories[name]; dup {
		panic(fmt.Sprintf("executors: executor %q registered twice", name))
	}
	r.factories[name] = factory
}

func (r *registry) create(name string, cfg Config) (Executor, error) {
	r.mu.RLock()
	factory, ok := r.factories[name]
	r.mu.RUnlock()
	if !ok {
		known := r.names()
		if len(known) == 0 {
			return nil, fmt.Errorf("unknown executor %q (no executors are registered)", name)
		}
		return nil, fmt.Errorf("unknown executor %q (known: %s)", name, strings.Join(known, ", "))
	}
	ex, err := factory(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating executor %q: %w", name, err)
	}
	return ex, nil
}

func (r *registry) names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.factories))
	for name := range r.factories {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
