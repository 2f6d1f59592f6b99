// Package sourcelang names the source languages osbench reads and tells
// them apart by file extension: the one table differential coverage, the
// verifiers and the maskers share, so they never disagree about a file.
package sourcelang

import (
	"path"
	"strings"
)

// The languages, by the names manifests, verdicts and prompts use.
const (
	Go     = "go"
	C      = "c"
	CPP    = "cpp"
	Rust   = "rust"
	CSharp = "csharp"
)

// Of returns the language of a file from its extension, or "" when it is
// none of the above. A .h header counts as C.
func Of(file string) string {
	switch strings.ToLower(path.Ext(file)) {
	case ".go":
		return Go
	case ".c", ".h":
		return C
	case ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".tcc":
		return CPP
	case ".rs":
		return Rust
	case ".cs":
		return CSharp
	}
	return ""
}
