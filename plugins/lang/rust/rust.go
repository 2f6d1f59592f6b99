// Package rust registers Rust with plugins/lang. Its verify and mask rules
// are attached by plugins/verify and plugins/mask; the character-versus-
// lifetime rule all of them need is lang.RustChar.
package rust

import "github.com/osbench/osbench/plugins/lang"

// Language is Rust as registered.
var Language = lang.Language{
	Name:       lang.Rust,
	Extensions: []string{".rs"},
	IsTestName: func(base string) bool { return lang.StemHasSuffix(base, "_test", "_tests") },
	Syntax:     lang.Syntax{NestedComments: true, RustLiterals: true},
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
		return ""
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
}

func init() { lang.Register(Language) }
