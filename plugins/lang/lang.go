// Package lang is the one place that says what a source language is to
// osbench. Each language is a package under plugins/lang/<name> that
// registers a Language here: how its files are told apart (extension,
// test files), the syntax its one lexer (Lex) follows, its skip
// styles, the tools whose versions its steps depend on, the default check
// that a masked repository still builds, the notes a language model is
// given about it, the package-cache variables its toolchains read and its
// verify front end (Evidence: the file read into plugins/lang/evidence's
// File, which plugins/verify's language-neutral judge weighs). The rule
// sets that need more than a table are attached to the same entry by the
// packages that implement them (AttachVerify by plugins/verify, AttachMask
// by the language's package), so the registry, and the conformance suite in
// plugins/lang/langtest, can say of every language which part it lacks.
//
// Consumers never switch on a language name for these facts: diffcov,
// verify, mask, the toolchain step and the task compiler all ask the
// registry. Adding a language is one package plus its fixtures (see
// docs/extending.md).
package lang

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// The languages, by the names manifests, verdicts and prompts use.
const (
	Go     = "go"
	C      = "c"
	CPP    = "cpp"
	Rust   = "rust"
	CSharp = "csharp"
)

// Language is everything osbench knows of one source language that is not
// a rule set. Every field is required (Check says which one is missing);
// an empty list or map is a statement ("no probes: the toolchain is pinned
// by version"), so each field's comment says what empty means.
type Language struct {
	// Name is the manifest's `language` value ("go", "c", ...).
	Name string
	// Extensions are the file name extensions of the language, lower case
	// with the dot (".go"). A file's extension is matched case-insensitively.
	Extensions []string
	// IsTestName reports whether a base file name (no directory) names a
	// test file of the language: Go's x_test.go, C's x_test.c. Directory
	// conventions (tests/, testdata/, Foo.Tests/) are common to all
	// languages and live in IsTestFile.
	IsTestName func(base string) bool
	// Syntax is what Lex, the lexer the line classifier, the verify front
	// ends and the maskers share, needs to know of comments, literals and
	// tokens.
	Syntax Syntax
	// SkipStyles are how this language's test runners leave tests out
	// (manifests' skip_style values); empty: its runners have none osbench
	// can spell, so skip lists need a test command of their own. Two
	// languages may share a style (C and C++).
	SkipStyles []SkipStyle
	// Probes are, per platform ("linux", "windows"), the commands whose
	// output identifies the tools a test run uses; a platform with an empty
	// list has its toolchain pinned some other way (Go's GOTOOLCHAIN).
	// An executor that runs a platform with other tools has a row of its
	// own, "<platform>/<executor>", which wins over the platform's: the
	// "windows" rows are the wine executor's (mingw-w64 cross compilers and
	// Wine, on a Linux host), "windows/local" a real Windows machine's
	// native compilers (plugins/toolprobe.For).
	Probes map[string][]Probe
	// BuildCheck is the default argv that proves a masked repository still
	// builds for target (run in the repository root by the mask step), for
	// platforms without a build command of their own; nil: no default check.
	BuildCheck func(target string) []string
	// Prompt is what a language model is told about the language when it
	// verifies or masks a file of it. Its wording is versioned by the LM
	// plugin's prompt versions (plugins/lm): a change here bumps them.
	Prompt Prompt
	// CacheEnv names the environment variables of the language's package
	// caches (GOMODCACHE, CARGO_HOME, NUGET_PACKAGES); empty: none.
	CacheEnv []string
	// Evidence is the language's verify front end: what the rules
	// verifier (plugins/verify) reads from a file of it before its
	// language-neutral judge weighs the regions.
	Evidence EvidenceReader
	// TestCode is the test code the language allows inside source files
	// (Rust's #[cfg(test)] modules and #[test] functions), which belongs
	// to the task as test files do.
	TestCode TestCode
}

// TestCode is how a language's test code inside source files is found and
// put back. An evaluation restores it before anything runs, as it restores
// test files: a patch must not change the tests that judge it, wherever
// they live (docs/security.md).
type TestCode struct {
	// None says why the language has no test code in source files (Go's
	// tests live in _test.go files only); set it, or Restore and Modules.
	None string
	// Restore returns patched with every test item of the file put back to
	// its version in task: an item the patch changed gets the task's text,
	// one it added is removed, one it removed is put back at the end of its
	// enclosing module. items names what changed ("mod tests"), sorted;
	// problem, when not empty, says why the file's test code cannot be put
	// back (its enclosing module is gone): the patch is then refused.
	Restore func(task, patched []byte) (out []byte, items []string, problem string)
	// Modules returns the files that src, the file at path (repo-relative,
	// "/"-separated), declares as test-only modules (Rust's
	// #[cfg(test)] mod helpers; in src/lib.rs is src/helpers.rs or
	// src/helpers/mod.rs): such a file is test code whole.
	Modules func(path string, src []byte) []string
	// Version names the rules: it enters the key of every step that
	// restores test code.
	Version string
}

// EvidenceReader is a language's verify front end.
type EvidenceReader struct {
	// Read reads one file (path repo-relative and "/"-separated: Go's
	// front end reads build tags from the file name) into its guards,
	// facts, functions and calls. An error means the file is unusable (an
	// unparsable Go file), never that it holds no platform code.
	Read func(path string, src []byte) (*evidence.File, error)
	// Version names the front end: it changes whenever what Read returns
	// for some file can, and enters the language's verify rules version
	// (plugins/verify), so a change reruns that language's verify steps
	// and nothing else.
	Version string
}

// Prompt is a language's material for the LM verifier and masker.
type Prompt struct {
	Name string // as people write it: "C++", "C#"
	// Conditional: how code of the language selects a platform.
	Conditional string
	// API: what an OS-only API looks like in the language.
	API string
	// Placeholders: what a quiet placeholder is made of, as a list of
	// "- " rules.
	Placeholders string
}

// Probe is one command whose output identifies a tool.
type Probe struct {
	Argv []string
	// FirstLine keeps only the first line of the output: the rest of
	// `cmake --version` is a link to a web page, not a version.
	FirstLine bool
}

// Syntax selects the comment, literal and token forms of a language: it
// drives Lex, the one lexer of plugins/lang.
type Syntax struct {
	// NestedComments: block comments nest (Rust).
	NestedComments bool
	// Preprocessor: a line starting with # is a directive (C, C++, C#).
	Preprocessor bool
	// BacktickStrings: `raw` strings that may span lines (Go).
	BacktickStrings bool
	// CppRawStrings: R"delim( ... )delim" (C++; read in C files too, which
	// never contain one).
	CppRawStrings bool
	// RustLiterals: r#"…"# raw strings, strings spanning lines, and 'a'
	// characters as opposed to 'a lifetimes (RustChar).
	RustLiterals bool
	// CSharpLiterals: @"…" verbatim and """…""" raw strings.
	CSharpLiterals bool
	// LineContinuations: a backslash before a newline joins the lines, so
	// a directive goes on (C, C++).
	LineContinuations bool
	// DollarIdents: '$' is a letter of identifiers (C compilers' extension).
	DollarIdents bool
	// Numbers is how a number token runs on.
	Numbers NumberSyntax
	// Operators are the two-byte operators a token holds whole ("::");
	// any other punctuation is a token of one byte.
	Operators []string
}

// NumberSyntax is how a number token runs on after its first digit.
type NumberSyntax uint8

// The number syntaxes.
const (
	// NumbersPlain: letters, digits and dots (C#, Go).
	NumbersPlain NumberSyntax = iota
	// NumbersC: also a leading dot (.5), a sign after an exponent's e or
	// p, and the ' digit separator of C++14 and C23.
	NumbersC
	// NumbersRust: letters, digits and '_', and a dot only before a digit
	// (1.5, not 1..2 or 1.max(2)).
	NumbersRust
)

// VerifyRules is the rules verifier's rule set for one language.
type VerifyRules interface {
	// Verify returns one verdict per region of in, in order.
	Verify(ctx context.Context, in VerifyInput) ([]schemas.Verdict, error)
	// Version names the rules: it changes whenever a verdict can.
	Version() string
}

// VerifyInput is one file and the candidate regions found in it.
type VerifyInput struct {
	Path     string // repo-relative, "/"-separated
	Source   []byte // the whole file as in the complete repository (R+)
	Language string // "go", "c", "cpp", "rust", "csharp"; derived from Path when empty
	Regions  []schemas.Region
	SourceOS string // "linux" or "windows": the platform the code is kept for
	TargetOS string // the platform whose code the regions are candidates of
}

// MaskRules is the rules masker's rule set for one language.
type MaskRules interface {
	// Mask returns the file with every (already checked, false positives
	// removed) region replaced by a quiet placeholder.
	Mask(ctx context.Context, in MaskInput) (MaskOutput, error)
	// Version names the rules: it changes whenever a mask can.
	Version() string
}

// MaskInput is one file of the complete repository and its verified regions.
type MaskInput struct {
	Path     string // repo-relative, "/"-separated
	Source   []byte // the whole file as in the complete repository (R+)
	Language string // "go", "c", "cpp", "rust", "csharp"; derived from Path when empty
	// Regions are the verified target regions of this file. Their File must
	// be Path (or empty); false positives are skipped, never masked.
	Regions []schemas.VerifiedRegion
	// Coarse masks the whole enclosing function body of every region
	// instead of only the statements the region covers.
	Coarse bool
	// Dir holds the other files of Path's directory with Path's extension
	// as in the complete repository, by base name, for rules that need declarations made
	// beside the file (Go: the package's types and methods, so that a
	// placeholder can return a concrete value of an interface). nil: the
	// rules see the file alone.
	Dir map[string][]byte
}

// MaskOutput is the masked file and what was done to it.
type MaskOutput struct {
	Source  []byte
	Actions []Action // in the order of the file
}

// Action records one placeholder (or one region left alone, and why).
type Action = schemas.MaskAction

// The kinds of Action.
const (
	// KindStatements: statements inside a function body were removed (and
	// replaced, where the body needs it, by a zero-value return).
	KindStatements = "statements"
	// KindFunctionBody: a whole function body became a placeholder.
	KindFunctionBody = "function-body"
	// KindPreprocessorBlock: the target branch of a C or C++ conditional
	// (or a Rust #[cfg] block or cfg! branch, or a C# #if) inside a
	// function body became a placeholder or was emptied.
	KindPreprocessorBlock = "preprocessor-block"
	// KindConstant: the initializer of a Rust const or static became the
	// zero literal of its type.
	KindConstant = "constant"
	// KindImport: a Go import was removed because masking took its last use.
	KindImport = "import"
	// KindUnmasked: the region was left unchanged; Detail says why.
	KindUnmasked = "unmasked"
	// KindSkipped: the region's verdict is false-positive; never masked.
	KindSkipped = "skipped"
)

// NeutralError is the message of the error a placeholder returns where
// its function has an error result (Go's error, Rust's io::Error): callers
// check it before they use the other results, so a masked function fails
// them by their own error handling.
const NeutralError = "not implemented on this platform"

// entry is a language and the rule sets attached to it.
type entry struct {
	lang   *Language
	verify VerifyRules
	mask   MaskRules
}

// Registry holds languages by name. The package's functions use Default;
// tests build their own to check what a half-added language lacks.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]*entry
	byExt  map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*entry{}, byExt: map[string]string{}}
}

// Default is the registry the language packages register with at init.
var Default = NewRegistry()

func (r *Registry) entry(name string) *entry {
	e := r.byName[name]
	if e == nil {
		e = &entry{}
		r.byName[name] = e
	}
	return e
}

// Register adds a language. An empty name, a name or an extension taken
// twice is a programming error in the binary and panics, as
// database/sql.Register does; the missing parts of a language are not:
// Check reports them.
func (r *Registry) Register(l Language) {
	if l.Name == "" {
		panic("lang: register a language without a name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(l.Name)
	if e.lang != nil {
		panic(fmt.Sprintf("lang: language %q registered twice", l.Name))
	}
	for _, ext := range l.Extensions {
		ext = strings.ToLower(ext)
		if other, dup := r.byExt[ext]; dup {
			panic(fmt.Sprintf("lang: extension %q of %q is %q's already", ext, l.Name, other))
		}
		r.byExt[ext] = l.Name
	}
	copied := l
	e.lang = &copied
}

// AttachVerify attaches the rules verifier's rule set of a language (the
// language itself may register before or after).
func (r *Registry) AttachVerify(name string, v VerifyRules) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.entry(name); e.verify != nil {
		panic(fmt.Sprintf("lang: verify rules of %q attached twice", name))
	} else {
		e.verify = v
	}
}

// AttachMask attaches the rules masker's rule set of a language.
func (r *Registry) AttachMask(name string, m MaskRules) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.entry(name); e.mask != nil {
		panic(fmt.Sprintf("lang: mask rules of %q attached twice", name))
	} else {
		e.mask = m
	}
}

// Lookup returns the language registered under name.
func (r *Registry) Lookup(name string) (*Language, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.byName[name]; e != nil && e.lang != nil {
		return e.lang, true
	}
	return nil, false
}

// Verify returns the verify rules attached to name.
func (r *Registry) Verify(name string) (VerifyRules, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.byName[name]; e != nil && e.verify != nil {
		return e.verify, true
	}
	return nil, false
}

// Mask returns the mask rules attached to name.
func (r *Registry) Mask(name string) (MaskRules, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.byName[name]; e != nil && e.mask != nil {
		return e.mask, true
	}
	return nil, false
}

// Names returns the names of the registered languages (and of names that
// only have rule sets attached, which Check reports), sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Of returns the language of a file from its extension, or "" when no
// registered language has it. A .h header counts as C.
func (r *Registry) Of(file string) string {
	ext := strings.ToLower(path.Ext(file))
	if ext == "" {
		return ""
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byExt[ext]
}

// Package-level shorthands for Default.

// Register adds a language to Default.
func Register(l Language) { Default.Register(l) }

// AttachVerify attaches verify rules to a language of Default.
func AttachVerify(name string, v VerifyRules) { Default.AttachVerify(name, v) }

// AttachMask attaches mask rules to a language of Default.
func AttachMask(name string, m MaskRules) { Default.AttachMask(name, m) }

// Lookup returns a language of Default.
func Lookup(name string) (*Language, bool) { return Default.Lookup(name) }

// Names returns the languages of Default, sorted.
func Names() []string { return Default.Names() }

// Of returns the language of a file by Default's extensions, or "".
func Of(file string) string { return Default.Of(file) }
