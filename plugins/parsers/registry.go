// Package parsers turns the raw output of test runners into normalised test
// results (schemas.TestResult). Parsers live in a registry keyed by the stable
// name a manifest uses ("go-test-json", ...); built-ins register themselves in
// builtin.go.
package parsers

import (
	"io"

	"github.com/osbench/osbench/plugins/registry"
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

// VersionOf is the version of the parser registered under name (see
// registry.Versioned): part of the key of every step that uses it.
func VersionOf(name string) string { return builtin.Version(name) }

var builtin = registry.New[Parser]("parser")

// Register makes a plugin available under name. It is meant to be called
// from init functions (builtin.go); an empty name, a nil plugin or a name
// registered twice is a programming error and panics.
func Register(name string, p Parser) { builtin.Register(name, p) }

// Lookup returns the plugin registered under name.
func Lookup(name string) (Parser, bool) { return builtin.Lookup(name) }

// Names returns the registered names, sorted.
func Names() []string { return builtin.Names() }
