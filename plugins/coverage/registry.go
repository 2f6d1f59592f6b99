// Package coverage imports the line coverage that tools report into
// schemas.FileCoverage: repo-relative, "/"-separated paths, and per file the
// lines that ran and the lines that could have. Importers live in a registry
// keyed by the stable name a manifest uses ("go-coverprofile", ...); built-ins
// register themselves in builtin.go.
package coverage

import (
	"fmt"
	"io"
	"sort"
	"sync"

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

var registry = struct {
	sync.RWMutex
	byName map[string]Importer
}{byName: map[string]Importer{}}

// Register makes i available under name. It is meant to be called from init
// functions; registering a name twice, an empty name or a nil importer is a
// programmer error and panics.
func Register(name string, i Importer) {
	if name == "" || i == nil {
		panic(fmt.Sprintf("coverage: Register(%q, %v): empty name or nil importer", name, i))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("coverage: Register called twice for %q", name))
	}
	registry.byName[name] = i
}

// Lookup returns the importer registered under name.
func Lookup(name string) (Importer, bool) {
	registry.RLock()
	defer registry.RUnlock()
	i, ok := registry.byName[name]
	return i, ok
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
