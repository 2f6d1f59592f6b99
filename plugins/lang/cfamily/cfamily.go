// Package cfamily is C and C++ for osbench: the two share a test-file
// rule, a syntax (the preprocessor, C++ raw strings), skip styles, probes
// and a rules masker (MaskRules, lang.Lex's tokens and the preprocessor's
// conditional groups); they differ in their extensions, zero values and
// LM prompt material. The masker's rules:
//
// Only code inside a conditional branch (#ifdef _WIN32 ... #else) is
// touched. A branch ending a function body becomes "(void)param;" lines
// and a zero-value return of the declared type; a run of statements in
// the middle of a body is removed; functions defined inside the branch
// keep their signatures and get placeholder bodies. With Input.Coarse
// set, a function the source compiles too gets its whole body guarded:
// a placeholder body under the masked branches' condition, the original
// body (those branches emptied) under #else, so the source's compiler
// sees what it saw before (coarse.go). Two rules keep C placeholders
// quiet where a zero cannot (quiet.go): a region of a clock (a
// function returning struct timeval, timespec, time_t, FILETIME…, or
// named for time, clock, tick or now) is refused, since a stopped
// clock hangs every wait on it; so is a region whose removed code
// calls fclose, free, close, CloseHandle (and the like) on something
// that outlives it (a parameter, or a variable named outside the
// removed code). Edits nested in another edit of the file (a
// statement of a function whose whole body another region masks) give
// way to the outer one.
//
// Their verify front ends (verify.go: ReadC, ReadCPP) are
// plugins/lang/braced's brace scanner with the preprocessor's platform
// macros as guards and Win32 and POSIX names as facts.
package cfamily

import (
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

func isTestName(base string) bool { return lang.StemHasSuffix(base, "_test", "_tests") }

// syntax is read the same in C and C++ files: a C file never holds an
// R"( raw string, so reading one as C++ would cost nothing.
var syntax = lang.Syntax{Preprocessor: true, CppRawStrings: true, LineContinuations: true, DollarIdents: true,
	Numbers: lang.NumbersC, Operators: []string{"::", "->", "&&"}}

// probes: the windows rows are the tools of the wine executor (cross
// compilers and Wine itself); cmake drives the build on both platforms.
// A real Windows machine (executor local) builds with its native MinGW gcc
// and CMake, and has no Wine. Nothing pins their versions, so they are
// keyed by what is installed. The cross compilers are asked by the names
// the presets call them: c-autotools configures --host=x86_64-w64-mingw32
// (Debian's alternative, win32 threads unless changed), c-cmake names the
// posix thread model's gcc and g++ (its mingw_threads default; -dumpversion
// says "12-posix"). A manifest that picks mingw_threads = "win32" names
// the compilers of the alternative's package in its build command, which
// is in the key.
var probes = map[string][]lang.Probe{
	"windows/local": {
		{Argv: []string{"gcc", "-dumpfullversion"}},
		{Argv: []string{"cmake", "--version"}, FirstLine: true},
	},
	"linux": {
		{Argv: []string{"gcc", "-dumpfullversion"}},
		{Argv: []string{"cmake", "--version"}, FirstLine: true},
	},
	"windows": {
		{Argv: []string{"x86_64-w64-mingw32-gcc", "-dumpversion"}},
		{Argv: []string{"x86_64-w64-mingw32-gcc-posix", "-dumpversion"}},
		{Argv: []string{"x86_64-w64-mingw32-g++-posix", "-dumpversion"}},
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
	// "2": read with lang.Lex, the front end sees C++14/C23 digit
	// separators as part of the number (0x1'0000 no longer opens a
	// character literal that hides the rest of the line), raw strings
	// after u8R, LR, uR and UR and with a quote in their delimiter.
	// "3": a test of a build probe's HAVE_* macro guards its branch.
	// "4": so does a test of a project's own platform macro,
	// PREFIX_OS_* or PREFIX_PLATFORM_* (googletest's GTEST_OS_WINDOWS).
	Evidence: lang.EvidenceReader{Read: ReadC, Version: "4"},
	TestCode: lang.TestCode{None: "C has no test code convention inside source files; its tests are test programs and test directories"},
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
	// "2", "3", "4": as C's.
	Evidence: lang.EvidenceReader{Read: ReadCPP, Version: "4"},
	TestCode: lang.TestCode{None: "C++ has no test code convention inside source files; its tests are test programs and test directories"},
}

func init() {
	lang.Register(C)
	lang.Register(CPP)
	lang.AttachMask(lang.C, MaskRules{})
	lang.AttachMask(lang.CPP, MaskRules{CPP: true})
}
