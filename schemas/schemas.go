package schemas

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

// Names lists the artifact schemas by name ("tests", "coverage", ...).
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	sort.Strings(names)
	return names
}

// Schema returns the JSON Schema of the named artifact.
func Schema(name string) ([]byte, bool) {
	b, err := files.ReadFile(name + ".schema.json")
	return b, err == nil
}
