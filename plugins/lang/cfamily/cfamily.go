// Package cfamily registers C and C++ with plugins/lang. The two share a
// test-file rule, a syntax (the preprocessor, C++ raw strings), skip
// styles and probes; they differ in their extensions and LM prompt
// material. Their verify and mask rules are attached by plugins/verify and
// plugins/mask (one lexer and the preprocessor's conditional groups).
package cfamily

import (
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

func isTestName(base string) bool { return lang.StemHasSuffix(base, "_test", "_tests") }

// syntax is read the same in C and C++ files: a C file never holds an
// R"( raw string, so reading one as C++ would cost nothing.
var syntax = lang.Syntax{Preprocessor: true, CppRawStrings: true}

// probes: the windows rows are the tools of the wine executor (cross
// compilers and Wine itself); cmake drives the build on both platforms.
// Nothing pins their versions, so they are keyed by what is installed.
var probes = map[string][]lang.Probe{
	"linux": {
		{Argv: []string{"gcc", "-dumpfullversion"}},
		{Argv: []string{"cmake", "--version"}, FirstLine: true},
	},
	"windows": {
		{Argv: []string{"x86_64-w64-mingw32-gcc", "-dumpversion"}},
		{Argv: []string{"wine", "--version"}},
		{Argv: []string{"cmake", "--version"}, FirstLine: true},
	},
}

// skipStyles: CTest's -E regexp and GoogleTest's negative filter.
var skipStyles = []lang.SkipStyle{
	{Name: "ctest", Args: func(entries []string) []string {
		return []string{"-E", lang.AnchoredAlternation(entries)}
	}},
	{Name: "gtest", Args: func(entries []string) []string {
		// A negative filter: every test but those matching a pattern.
		// GoogleTest's patterns are globs already; ':' separates them.
		return []string{"--gtest_filter=-" + strings.Join(entries, ":")}
	}, EntryProblem: func(entry string) string {
		if strings.Contains(entry, ":") {
			return "a GoogleTest filter separates its patterns with ':', so a skip entry cannot contain one."
		}
		return ""
	}},
}

// C is the C language as registered. Its presets configure and build in
// the platform's build command, which is the mask step's check, so there
// is no default check.
var C = lang.Language{
	Name:       lang.C,
	Extensions: []string{".c", ".h"},
	IsTestName: isTestName,
	Syntax:     syntax,
	SkipStyles: skipStyles,
	Probes:     probes,
	BuildCheck: func(string) []string { return nil },
	Prompt: lang.Prompt{
		Name:        "C",
		Conditional: "preprocessor guards such as #ifdef _WIN32, #if defined(__linux__), #ifndef _WIN32 or _MSC_VER/__MINGW32__ tests, and the code between them",
		API:         "Win32 functions and types from <windows.h> (GetFileAttributesA, DWORD, HANDLE), POSIX functions from <unistd.h> or <sys/stat.h> (access, stat, fork), _wfopen and other CRT extensions",
		Placeholders: `- Delete the statements; where the function must return, return the zero value of its declared type (0, NULL, false, a zeroed struct).
- A parameter or variable that loses its last use gets "(void)name;".
- Keep preprocessor directives balanced: never remove an #if, #ifdef, #else or #endif without its partners.
- Do not call abort, exit or assert, and do not print: the code must fail quietly, not loudly.
- Keep every function signature; a function covered whole gets a placeholder body.`,
	},
	CacheEnv: []string{},
}

// CPP is C++ as registered.
var CPP = lang.Language{
	Name:       lang.CPP,
	Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".tcc"},
	IsTestName: isTestName,
	Syntax:     syntax,
	SkipStyles: skipStyles,
	Probes:     probes,
	BuildCheck: func(string) []string { return nil },
	Prompt: lang.Prompt{
		Name:        "C++",
		Conditional: "preprocessor guards such as #if defined(_WIN32), #ifdef __linux__ or _MSC_VER tests, and if constexpr on a platform constant, with the code between them",
		API:         "Win32 functions and types from <windows.h> (MultiByteToWideChar, HANDLE), POSIX functions from <unistd.h>, _wfopen and other CRT extensions",
		Placeholders: `- Delete the statements; where the function must return, return the zero value of its declared type (0, nullptr, false, {}, an empty string).
- A parameter or variable that loses its last use gets "(void)name;".
- Keep preprocessor directives balanced: never remove an #if, #ifdef, #else or #endif without its partners.
- Do not throw, call std::abort, std::terminate or exit, or assert: the code must fail quietly, not loudly.
- Keep every function signature; a function covered whole gets a placeholder body.`,
	},
	CacheEnv: []string{},
}

func init() {
	lang.Register(C)
	lang.Register(CPP)
	lang.AttachMask(lang.C, MaskRules{})
	lang.AttachMask(lang.CPP, MaskRules{CPP: true})
}
