// Package csharp is C# for osbench, all in one package: its files and
// test-file rule, its syntax, its probes, its LM prompt material, its
// rules masker (MaskRules: OperatingSystem.Is*() and
// RuntimeInformation.IsOSPlatform branches, [SupportedOSPlatform] members,
// #if WINDOWS-style branches) and the default build check of a masked
// repository, which compiles its non-test C# with Debian's Mono compiler
// (mcs) when the project is plain C#. Its verify front end (verify.go:
// ReadEvidence) is plugins/lang/braced's brace scanner with #if WINDOWS
// symbols, [SupportedOSPlatform] attributes and OperatingSystem.Is*
// conditions as guards.
//
// What runs on a Linux machine without the .NET SDK: verification,
// masking and the mcs compile check. What needs a .NET worker (the dotnet
// preset): the test runs, their coverage, and with them labels and
// evaluation.
package csharp

import "github.com/osbench/osbench/plugins/lang"

// Language is C# as registered.
var Language = lang.Language{
	Name:       lang.CSharp,
	Extensions: []string{".cs"},
	// Pascal case: "Contest.cs" is not a test file.
	IsTestName: func(base string) bool { return lang.StemHasSuffix(base, "Tests", "Test") },
	Syntax:     syntax,
	// dotnet test's --filter is not a skip flag osbench can spell.
	SkipStyles: []lang.SkipStyle{},
	Probes: map[string][]lang.Probe{
		"linux":   {{Argv: []string{"dotnet", "--version"}}},
		"windows": {{Argv: []string{"dotnet", "--version"}}},
	},
	BuildCheck: BuildCheck,
	Prompt: lang.Prompt{
		Name:        "C#",
		Conditional: "OperatingSystem.IsWindows() or IsLinux(), RuntimeInformation.IsOSPlatform(OSPlatform.Windows), Environment.OSVersion.Platform, #if WINDOWS and [SupportedOSPlatform] attributes",
		API:         "P/Invoke ([DllImport(\"kernel32.dll\")], [LibraryImport(\"libc\")]), Microsoft.Win32.Registry, Mono.Unix and other APIs of one OS",
		Placeholders: `- Delete the statements of the platform branch, or end the method early: return the zero value of its declared type ("" for a string, an empty array or Enumerable.Empty<T>() for a sequence, Task.CompletedTask, default(T) otherwise), yield break in an iterator; assign every out parameter first.
- Keep #if, #elif, #else and #endif lines balanced, and keep every member signature and attribute; a method covered whole gets a placeholder body.
- Do not throw (no NotImplementedException, no PlatformNotSupportedException), and do not call Environment.Exit or Debug.Fail: the code must fail quietly, not loudly.
- The using directives lie outside the regions and cannot change.`,
	},
	// The dotnet preset points NuGet at a directory of the work tree.
	CacheEnv: []string{"NUGET_PACKAGES", "DOTNET_CLI_HOME"},
	// "2": read with lang.Lex, raw strings of four or more quotes and
	// interpolated raw strings ($""", $$""") are literals, and a
	// directive is one line.
	Evidence: lang.EvidenceReader{Read: ReadEvidence, Version: "2"},
	TestCode: lang.TestCode{None: "C# tests live in test projects (*.Tests), which are test files whole"},
}

func init() {
	lang.Register(Language)
	lang.AttachMask(lang.CSharp, MaskRules{})
}

// syntax is how C# writes comments and literals: the preprocessor,
// @"…" verbatim and """…""" raw strings.
var syntax = lang.Syntax{Preprocessor: true, CSharpLiterals: true, Operators: []string{"=>", "::", "??"}}
