// Package verify judges candidate regions of differential coverage (DESIGN
// §2.3): for each region, is the code platform-specific, and of which kind?
//
// A Verifier receives one file at a time (its text, its language and the
// regions found in it) and returns one schemas.Verdict per region, in the
// order of the regions. Verifiers live in a registry keyed by the name a
// manifest uses; the built-in "rules" verifier (Rules) is deterministic: it
// reads the syntax of the file (Go build tags, file suffixes and
// runtime.GOOS checks; C and C++ preprocessor guards; Rust cfg attributes;
// C# OperatingSystem checks) and the OS-specific names and literals in the
// region, and never consults a model, the clock or the environment.
//
// What a file says is read by its language's front end, which its
// package under plugins/lang registers (lang.Language.Evidence) and which
// fills a plugins/lang/evidence File; this package holds only the
// language-neutral judge of such a file, the registry of verifiers and
// the rule sets it attaches to every language (lang.AttachVerify). The
// LM verifier is plugins/lm's.
//
// Usage:
//
//	v, _ := verify.Lookup("rules")
//	verdicts, err := v.Verify(ctx, verify.Input{Path: "attrs_windows.go", Source: src,
//		Regions: regions, SourceOS: "linux", TargetOS: "windows"})
package verify

import (
	"context"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages LanguageOf knows
	"github.com/osbench/osbench/plugins/registry"
	"github.com/osbench/osbench/schemas"
)

// Verifier judges the regions of one file.
type Verifier interface {
	// Verify returns one verdict per region of in, in the same order. An
	// error means the input itself is unusable (unknown language, a region
	// outside the file, an unparsable Go file), never that a region is not
	// platform-specific: that is the false-positive label.
	Verify(ctx context.Context, in Input) ([]schemas.Verdict, error)
}

// Input is one file and the candidate regions found in it (plugins/lang's
// type, which every language's verify rules see).
type Input = lang.VerifyInput

// The languages a Verifier is asked about.
const (
	LangGo     = lang.Go
	LangC      = lang.C
	LangCPP    = lang.CPP
	LangRust   = lang.Rust
	LangCSharp = lang.CSharp
)

// LanguageOf derives the language of a file from its extension, or returns
// "" when the extension is not one of a supported language.
func LanguageOf(file string) string { return lang.Of(file) }

var verifiers = registry.New[Verifier]("verifier")

// Register makes a verifier available under name. It is meant for init
// functions; an empty name, a nil verifier or a name taken twice is a
// programming error and panics.
func Register(name string, v Verifier) { verifiers.Register(name, v) }

// Lookup returns the verifier registered under name.
func Lookup(name string) (Verifier, bool) { return verifiers.Lookup(name) }

// Names returns the registered verifier names, sorted.
func Names() []string { return verifiers.Names() }

func init() {
	Register(RulesName, Rules{})
	// Every language the binary holds gets the judge; one without a front
	// end fails lang's Check ("no verify front end"), not here.
	for _, l := range lang.Names() {
		lang.AttachVerify(l, languageRules{lang: l})
	}
}

// judgeVersion names the language-neutral judge (rules.go, model.go): it
// changes whenever a verdict can for the same evidence.File.
const judgeVersion = "1"

// languageRules is Rules for one language, as plugins/lang sees it: the
// language's front end and the judge.
type languageRules struct{ lang string }

// Version names the rules; it changes whenever a verdict of the language
// can: with the judge (every language) or the language's front end (that
// language only). While the judge is at "1" it is the front end's version
// alone, so the keys made before front ends had versions stay what they
// were (lang.VerifyRulesKey leaves out a language at "1").
func (r languageRules) Version() string {
	front := ""
	if l, ok := lang.Lookup(r.lang); ok {
		front = l.Evidence.Version
	}
	if judgeVersion == "1" {
		return front
	}
	return judgeVersion + "+" + front
}

// Verify implements lang.VerifyRules.
func (r languageRules) Verify(ctx context.Context, in Input) ([]schemas.Verdict, error) {
	in.Language = r.lang
	return Rules{}.Verify(ctx, in)
}
