// Package registry is the one implementation of the plugin registries
// (parsers, coverage importers, executors): a name → plugin map filled at
// init time and read afterwards. Each plugin package wraps a Registry in its
// own Register/Lookup/Names functions so callers see typed, documented APIs.
package registry

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// Registry maps stable names (the ones manifests use) to plugins of type T.
type Registry[T any] struct {
	kind   string // "parser", "coverage format", ...: for messages
	mu     sync.RWMutex
	byName map[string]T
}

// New returns an empty registry of plugins of the given kind.
func New[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, byName: map[string]T{}}
}

// Register adds p under name. An empty name, a nil plugin or a name taken
// twice is a programming error in the binary, never the result of user
// input, so it panics (as database/sql.Register does).
func (r *Registry[T]) Register(name string, p T) {
	if name == "" || isNil(p) {
		panic(fmt.Sprintf("register %s %q: empty name or nil plugin", r.kind, name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("register %s %q: registered twice", r.kind, name))
	}
	r.byName[name] = p
}

// Lookup returns the plugin registered under name.
func (r *Registry[T]) Lookup(name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byName[name]
	return p, ok
}

// Versioned is implemented by a plugin whose results changed since its
// first release: Version names the rules it follows now ("2", "3", …).
type Versioned interface {
	Version() string
}

// Version is the version of the plugin registered under name: its
// Version() when it is Versioned, else "1" (also for an unknown name, which
// the manifest checks report on their own). Steps put it in their keys, so
// a plugin change reruns exactly the steps that use that plugin.
func (r *Registry[T]) Version(name string) string {
	if p, ok := r.Lookup(name); ok {
		if v, ok := any(p).(Versioned); ok {
			return v.Version()
		}
	}
	return "1"
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.byName))
	for name := range r.byName {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// isNil catches nil plugins of any nillable kind (a nil *T in an
// interface is not == nil).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}
