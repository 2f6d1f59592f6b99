package golang

import (
	"context"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/lang/srcedit"
)

// MaskRules is the rules masker for Go (the package comment says what it masks and how),
// attached to plugins/lang; plugins/mask's Rules checks the regions and
// sets false positives aside before it is called.
type MaskRules struct{}

// Version names the rules.
//
// Version 2: an interface result of the package gets a zero value of a
// type implementing it, not nil; the coarse mode's bool results beside an
// error are true.
func (MaskRules) Version() string { return "2" }

// Mask implements lang.MaskRules.
func (MaskRules) Mask(_ context.Context, in lang.MaskInput) (lang.MaskOutput, error) {
	return maskGo(in.Path, in.Source, in.Regions, in.Coarse, in.Dir)
}

// The names the Go masker was written with, from plugins/lang.
type (
	// Output is the masked file and what was done to it.
	Output = lang.MaskOutput
	// Action records one placeholder or one region left alone.
	Action = lang.Action
	edit   = srcedit.Edit
	// lineIndex maps offsets to lines.
	lineIndex = srcedit.Lines
)

var (
	newLineIndex = srcedit.NewLines
	applyEdits   = srcedit.Apply
	describe     = srcedit.Describe
)
