// Package coverage imports the line coverage that tools report into
// schemas.FileCoverage: repo-relative, "/"-separated paths, and per file the
// lines that ran and the lines that could have. Importers live in a registry
// keyed by the stable name a manifest uses ("go-coverprofile", ...); built-ins
// register themselves in builtin.go.
package coverage

import (
	"io"

	"github.com/osbench/osbench/plugins/registry"
	"github.com/osbench/osbench/schemas"
)

// Options carries what an importer needs to turn a tool's paths into
// repository paths.
type Options struct {
	// Root is the absolute directory the tool ran in (the repository root in
	// the work dir), in any OS spelling ("/tmp/w/repo", `C:\w\repo`,
	// `Z:\tmp\w\repo`, `\\?\C:\w\repo`); paths under it become
	// repo-relative. May also be the literal token "$WORK".
	Root string
	// Modules maps Go module paths to repo-relative directories ("" for the
	// root module), e.g. {"example.com/m": "", "example.com/m/tools": "tools"}
	// (nested modules).
	Modules map[string]string
}

// Importer reads one coverage format.
type Importer interface {
	// Import returns the coverage of every file the report names and that
	// lies in the repository, sorted by path, lines ascending and unique.
	Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error)
}

var builtin = registry.New[Importer]("coverage format")

// Register makes a plugin available under name. It is meant to be called
// from init functions (builtin.go); an empty name, a nil plugin or a name
// registered twice is a programming error and panics.
func Register(name string, p Importer) { builtin.Register(name, p) }

// VersionOf is the version of the importer registered under name (see
// registry.Versioned): part of the key of every step that uses it.
func VersionOf(name string) string { return builtin.Version(name) }

// Lookup returns the plugin registered under name.
func Lookup(name string) (Importer, bool) { return builtin.Lookup(name) }

// Names returns the registered names, sorted.
func Names() []string { return builtin.Names() }
