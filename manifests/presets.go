package manifests

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// bundledPresets holds the presets that ship with osbench. Each file
// presets/NAME.hcl declares exactly one `preset "NAME"` block.
//
//go:embed presets/*.hcl
var bundledPresets embed.FS

// presetFileName is the name a bundled preset's file has in ranges and in
// Set.Sources, so diagnostics inside a preset point at it.
func presetFileName(name string) string { return "presets/" + name + ".hcl" }

// Presets lists the names of the bundled presets, sorted.
func Presets() []string {
	files, err := fs.Glob(bundledPresets, "presets/*.hcl")
	if err != nil {
		// The pattern is a constant and valid; Glob fails only on a bad pattern.
		return nil
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		names = append(names, strings.TrimSuffix(path.Base(f), ".hcl"))
	}
	sort.Strings(names)
	return names
}

// PresetSource returns the HCL of the bundled preset called name.
func PresetSource(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, false
	}
	src, err := bundledPresets.ReadFile(presetFileName(name))
	if err != nil {
		return nil, false
	}
	return src, true
}
