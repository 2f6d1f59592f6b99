// Package rust is Rust for osbench: its files, syntax, skip style, probes
// and prompt material, and its rules masker (MaskRules: lang.Lex's tokens and
// the items, blocks and attributes it finds). The masker's rules:
//
// In a file the source compiles, only code under cfg is touched. The
// content of a #[cfg(windows)] { … } block or of an if cfg!(windows)
// branch in a function body is removed, or becomes Default::default()
// (Ok(…) of it for a Result) when it is the body's value; a function
// only the target compiles (under cfg, or anywhere in a file the
// source does not compile: a module only the target declares) keeps
// its signature and loses its whole body as soon as a region touches
// it; a const or static of a primitive type gets its zero literal. An
// io::Result (or Result<T, io::Error>) placeholder is
// Err(io::Error::new(ErrorKind::Unsupported, lang.NeutralError)), never
// Ok of a default the callers would take for a success; other error
// types are the crate's own and get Ok(Default::default()). Use declarations and type
// declarations are kept (lang.KindUnmasked says so). With Input.Coarse set,
// a function both platforms compile gets #[cfg(target)] { placeholder }
// #[cfg(not(target))] { original body, target blocks emptied }
// (coarse.go). Test code (#[test] functions, #[cfg(test)] modules)
// is never masked.
//
// Its verify front end (verify.go: ReadEvidence) is plugins/lang/braced's
// brace scanner with #[cfg] attributes and cfg! conditions as guards and
// the OS extension traits and native crates as facts. Both read the file
// with lang.Lex (the character-versus-lifetime rule is lang.RustChar).
package rust

import (
	"strings"
	"unicode"

	"github.com/osbench/osbench/plugins/lang"
)

// Language is Rust as registered.
var Language = lang.Language{
	Name:       lang.Rust,
	Extensions: []string{".rs"},
	IsTestName: func(base string) bool { return lang.StemHasSuffix(base, "_test", "_tests") },
	Syntax:     syntax,
	SkipStyles: []lang.SkipStyle{{Name: "libtest", Args: func(entries []string) []string {
		args := make([]string, 0, 2*len(entries))
		for _, t := range entries {
			args = append(args, "--skip", t)
		}
		return args
	}, EntryProblem: func(entry string) string {
		// libtest's --skip matches substrings, so it can express neither a
		// whole name with a wildcard nor a glob.
		if lang.IsGlob(entry) {
			return "libtest's --skip takes substrings, not globs; list the tests, or a substring shared by exactly those tests."
		}
		if strings.ContainsFunc(entry, unicode.IsSpace) {
			return "cargo hands test arguments to rustdoc, which splits them at white space, so an entry with a space (a doctest's \"src/lib.rs - f (line 9)\") becomes several filters and leaves every doctest out; a doctest cannot be skipped by name (mark it ignore, or leave it: a test that fails never enters a label set)."
		}
		return ""
	}, EntryFor: func(id string) string {
		// A doctest's name has spaces, which no skip entry can carry
		// (EntryProblem); every other test is named by its last element.
		name := id[strings.LastIndexByte(id, '/')+1:]
		if strings.ContainsFunc(name, unicode.IsSpace) {
			return ""
		}
		return name
	}}},
	Probes: map[string][]lang.Probe{
		"linux": {
			{Argv: []string{"rustc", "--version"}},
			{Argv: []string{"cargo", "--version"}},
		},
		"windows": {
			{Argv: []string{"rustc", "--version"}},
			{Argv: []string{"cargo", "--version"}},
			{Argv: []string{"x86_64-w64-mingw32-gcc", "-dumpversion"}},
			{Argv: []string{"wine", "--version"}},
			// The Windows standard library and profile runtime that
			// scripts/rust-profiler.sh builds: its stamp changes with
			// rustc and with the runtime's source.
			{Argv: []string{"cat", "/usr/local/lib/osbench/rust-windows-gnu/stamp"}},
		},
		// A real Windows machine: its native rustc and cargo (whose
		// target's standard library ships with rustc), no Wine.
		"windows/local": {
			{Argv: []string{"rustc", "--version"}},
			{Argv: []string{"cargo", "--version"}},
		},
	},
	// cargo test builds as it tests, and the cargo preset's test command is
	// the check that matters; no separate default.
	BuildCheck: func(string) []string { return nil },
	Prompt: lang.Prompt{
		Name:        "Rust",
		Conditional: "attributes #[cfg(windows)], #[cfg(unix)], #[cfg(target_os = \"...\")] and cfg_attr, and the cfg! macro in expressions",
		API:         "std::os::windows and std::os::unix extension traits (MetadataExt, PermissionsExt, OsStrExt), and the libc, winapi or windows-sys crates",
		Placeholders: `- Delete the statements; where the function must return, return Default::default(), None, Ok(Default::default()) or another zero value of its declared type.
- A binding or parameter that loses its last use gets "let _ = name;".
- Do not call panic!, unreachable!, unimplemented! or todo!, and do not unwrap what may fail: the code must fail quietly, not loudly.
- Keep cfg attributes and every item signature; a function covered whole gets a placeholder body.`,
	},
	// steps/checkout resolves crates with osbench's own CARGO_HOME.
	CacheEnv: []string{"CARGO_HOME"},
	// "2": read with lang.Lex, cr"…" raw C strings are literals and a
	// character literal ends where lang.RustChar says.
	Evidence: lang.EvidenceReader{Read: ReadEvidence, Version: "2"},
	TestCode: lang.TestCode{Restore: RestoreTestCode, Modules: TestModules, Version: "1"},
}

func init() {
	lang.Register(Language)
	lang.AttachMask(lang.Rust, MaskRules{})
}

// syntax is how Rust writes comments and literals: nested block comments,
// raw strings, strings spanning lines, and characters as opposed to
// lifetimes.
var syntax = lang.Syntax{NestedComments: true, RustLiterals: true, Numbers: lang.NumbersRust,
	Operators: []string{"::", "->", "=>"}}
