package cfamily

import (
	"context"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/lang/srcedit"
)

// MaskRules is the rules masker for C or C++ (mask.go: what it masks and
// how), attached to plugins/lang; plugins/mask's Rules checks the regions
// and sets false positives aside before it is called.
type MaskRules struct {
	CPP bool // C++: raw strings, and C++'s zero values
}

// Version names the rules. "2": tokens from lang.Lex, where a raw string
// starts only after R, u8R, LR, uR or UR with a valid delimiter (before,
// any identifier ending in R glued to a string, as in "%"PRIuPTR"\n",
// opened one that could run to the end of the file) and a literal in a
// directive line is a literal (#define S "/*" no longer opens a comment).
// "3": a C placeholder casts to void the file statics its body named
// (statics.go), so -Werror=unused-function builds keep building.
// "5": a coarse guard gives way to a whole-body placeholder of the same
// function; statics named through the file's macros are cast to void too;
// an upper-case specifier macro (JSON_INLINE) is no part of a result type.
// "6": a static declared under conditions is cast to void under them.
// "7": a macro call before a class ("PUSH_() class C {") is no function
// head, so the class body is no function body (googletest's
// CapturedStream lost every member to one placeholder); an out-of-class
// destructor ("Base::~Base() {") has no result type, so its placeholder
// returns nothing (it returned {}).
func (MaskRules) Version() string { return "7" }

// Mask implements lang.MaskRules.
func (r MaskRules) Mask(_ context.Context, in lang.MaskInput) (lang.MaskOutput, error) {
	return maskCFamily(in.Path, in.Source, r.CPP, in.Regions, in.Coarse)
}

// The names the C masker was written with, from plugins/lang.
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
	countLines   = srcedit.CountLines
)
