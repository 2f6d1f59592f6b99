// Package parsers turns the raw output of test runners into normalised test
// results (schemas.TestResult). Parsers live in a registry keyed by the stable
// name a manifest uses ("go-test-json", ...); built-ins register themselves in
// builtin.go.
package parsers

import (
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/osbench/osbench/schemas"
)

// Options carries what a caller knows about a run beyond the raw output.
type Options struct {
	// Expected lists test ids the caller knows exist (may be empty). Parsers
	// use it to mark tests of a package that failed to build as build-failed,
	// and expected tests that never reported as missing.
	Expected []string
	// Regex declares the pattern of the "regex" parser, which needs one;
	// the other parsers ignore it.
	Regex *RegexOptions
}

// Parser reads one runner's output format.
type Parser interface {
	// Parse reads a runner's raw output and returns one result per test id,
	// sorted by id, ids unique.
	Parse(r io.Reader, opts Options) ([]schemas.TestResult, error)
}

var registry = struct {
	sync.RWMutex
	byName map[string]Parser
}{byName: map[string]Parser{}}

// Register makes p available under name. It is meant to be called from init
// functions; registering a name twice, an empty name or a nil parser is a
// programmer error and panics.
func Register(name string, p Parser) {
	if name == "" || p == nil {
		panic(fmt.Sprintf("parsers: Register(%q, %v): empty name or nil parser", name, p))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("parsers: Register called twice for %q", name))
	}
	registry.byName[name] = p
}

// Lookup returns the parser registered under name.
func Lookup(name string) (Parser, bool) {
	registry.RLock()
	defer registry.RUnlock()
	p, ok := registry.byName[name]
	return p, ok
}

// Names returns the registered names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.byName))
	for name := range registry.byName {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
