// Package mask removes the target platform's code from a file of the
// complete repository (DESIGN §2.4): every verified region is replaced by a
// quiet placeholder, code that still builds, never panics, hangs or throws
// and does not re-implement anything, but makes the target's tests fail by
// their own assertions.
//
// Quiet by construction means: no statement that survives the mask depends
// on one that was removed (a kept token[3] after its removed length check),
// no loop loses its exit (for { }), and no placeholder hands its callers a
// value they dereference, slice or retry on (a nil pointer with a nil
// error, a try-lock's false, nil), freezes time or drops a cleanup call.
// The exact rule per language is below.
//
// A Masker receives one file at a time with the regions verified in it and
// returns the masked text and one Action per thing it did (or declined to
// do). Maskers live in a registry keyed by the name a manifest uses; the
// built-in "rules" masker (Rules) is deterministic syntax surgery:
//
// A rule set per language, each in its language's package under
// plugins/lang (the package comment says what it masks and how):
//
//   - Go: plugins/lang/golang (go/parser: whole bodies of target-only
//     functions, early returns of covered runs, neutral errors, unused
//     imports removed);
//   - C and C++: plugins/lang/cfamily (lang.Lex's tokens and the
//     preprocessor's conditional groups; clocks and cleanups refused);
//   - Rust: plugins/lang/rust (cfg blocks and cfg! branches, target-only
//     functions, constants);
//   - C#: plugins/lang/csharp (OperatingSystem and RuntimeInformation
//     branches, [SupportedOSPlatform] members, #if WINDOWS branches).
//
// Only the bytes of the masked statements, bodies and unused imports change;
// every other byte of the file is copied unchanged, so the gold patch (the
// reverse of the masking diff) touches nothing else. Test files are never
// masked: asking for one is an error, as is an unparsable file or a region
// outside the file. A region the rules cannot mask safely (it covers no
// whole statement, it lies outside any preprocessor guard) is reported with
// an Action of kind KindUnmasked, not an error: the labelling step then
// finds that the task has no FAIL_TO_PASS test and drops it.
//
// Usage:
//
//	m, _ := mask.Lookup("rules")
//	out, err := m.Mask(ctx, mask.Input{Path: "pathsep.go", Source: src, Regions: regions})
package mask

import (
	"context"
	"fmt"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages and their mask rules
	"github.com/osbench/osbench/plugins/lang/srcedit"
	"github.com/osbench/osbench/plugins/registry"
	"github.com/osbench/osbench/schemas"
)

// Masker replaces verified regions of one file by quiet placeholders.
type Masker interface {
	// Mask returns the file with every region of in replaced by a quiet
	// placeholder, and a record of what it did. It never changes a line
	// outside the regions except as documented by the implementation (Rules
	// removes Go imports that became unused) and refuses test files.
	Mask(ctx context.Context, in Input) (Output, error)
}

// Input, Output and Action are plugins/lang's: a language's mask rules
// live in its own package and see the same types.
type (
	// Input is one file of the complete repository and its verified regions.
	Input = lang.MaskInput
	// Output is the masked file and what was done to it.
	Output = lang.MaskOutput
	// Action records one placeholder (or one region left alone, and why).
	Action = lang.Action
)

// NeutralError is the message of the error a placeholder returns where its
// function has an error result (plugins/lang).
const NeutralError = lang.NeutralError

// The kinds of Action (see plugins/lang).
const (
	KindStatements        = lang.KindStatements
	KindFunctionBody      = lang.KindFunctionBody
	KindPreprocessorBlock = lang.KindPreprocessorBlock
	KindConstant          = lang.KindConstant
	KindImport            = lang.KindImport
	KindUnmasked          = lang.KindUnmasked
	KindSkipped           = lang.KindSkipped
)

// The languages a Masker is asked about.
const (
	LangGo     = lang.Go
	LangC      = lang.C
	LangCPP    = lang.CPP
	LangRust   = lang.Rust
	LangCSharp = lang.CSharp
)

// LanguageOf derives the language of a file from its extension, or returns
// "" when it is not one of the languages the rules mask (a registered
// language with mask rules attached).
func LanguageOf(file string) string {
	l := lang.Of(file)
	if _, ok := lang.Default.Mask(l); ok {
		return l
	}
	return ""
}

// IsTestFile reports whether the repo-relative path names a test file
// (plugins/lang's classification, the one diffcov uses).
func IsTestFile(p string) bool { return lang.IsTestFile(p) }

var maskers = registry.New[Masker]("masker")

// Register makes a masker available under name. It is meant for init
// functions; an empty name, a nil masker or a name taken twice is a
// programming error and panics.
func Register(name string, m Masker) { maskers.Register(name, m) }

// Lookup returns the masker registered under name.
func Lookup(name string) (Masker, bool) { return maskers.Lookup(name) }

// Names returns the registered names, sorted.
func Names() []string { return maskers.Names() }

func init() {
	Register("rules", Rules{})
}

// Rules is the deterministic masker described in the package comment.
type Rules struct{}

// Mask implements Masker.
func (Rules) Mask(ctx context.Context, in Input) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	if IsTestFile(in.Path) {
		return Output{}, fmt.Errorf("mask %s: test files are never masked", in.Path)
	}
	name, err := languageFor(in)
	if err != nil {
		return Output{}, err
	}
	regions, skipped, err := checkRegions(in)
	if err != nil {
		return Output{}, err
	}
	rules, _ := lang.Default.Mask(name)
	checked := in
	checked.Language, checked.Regions = name, regions
	out, err := rules.Mask(ctx, checked)
	if err != nil {
		return Output{}, err
	}
	out.Actions = append(skipped, out.Actions...)
	srcedit.SortActions(out.Actions)
	return out, nil
}

// languageFor resolves the language of in. A manifest's "c" covers C and
// C++ projects alike, so a C++ extension wins over it.
func languageFor(in Input) (string, error) {
	byExt := LanguageOf(in.Path)
	_, hasRules := lang.Default.Mask(in.Language)
	switch l := in.Language; {
	case l == "":
		if byExt == "" {
			return "", fmt.Errorf("mask %s: no language given and none known for the extension", in.Path)
		}
		return byExt, nil
	case l == LangC && byExt == LangCPP:
		return LangCPP, nil
	case hasRules:
		return l, nil
	default:
		return "", fmt.Errorf("mask %s: the rules masker does not handle language %q", in.Path, l)
	}
}

// checkRegions validates the regions against the file and sets the false
// positives apart (as skipped actions).
func checkRegions(in Input) (regions []schemas.VerifiedRegion, skipped []Action, err error) {
	lines := countLines(in.Source)
	for _, r := range in.Regions {
		if r.File != "" && r.File != in.Path {
			return nil, nil, fmt.Errorf("mask %s: region %d-%d belongs to %s", in.Path, r.Start, r.End, r.File)
		}
		if r.Start < 1 || r.End < r.Start || r.End > lines {
			return nil, nil, fmt.Errorf("mask %s: region %d-%d outside the file's %d lines", in.Path, r.Start, r.End, lines)
		}
		if r.Label == schemas.LabelFalsePositive {
			skipped = append(skipped, Action{Region: r.Region, Kind: KindSkipped, Detail: "verdict false-positive: never masked"})
			continue
		}
		regions = append(regions, r)
	}
	return regions, skipped, nil
}

// countLines counts the lines of src, a last line without newline included.
func countLines(src []byte) int {
	n := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
