// Package sourcelang is the old name of plugins/lang's extension table,
// kept so that code written against it still builds. New code uses
// plugins/lang.
package sourcelang

import (
	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages Of knows
)

// The languages, by the names manifests, verdicts and prompts use.
const (
	Go     = lang.Go
	C      = lang.C
	CPP    = lang.CPP
	Rust   = lang.Rust
	CSharp = lang.CSharp
)

// Of returns the language of a file from its extension, or "".
func Of(file string) string { return lang.Of(file) }
