package csharp

import (
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/lang/braced"
	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// C#'s verify front end (Language.Evidence): the brace scanner of
// plugins/lang/braced with #if WINDOWS-style symbols,
// [SupportedOSPlatform] attributes and OperatingSystem.Is* conditions as
// guards, and the platform APIs below (and calls of the file's own extern
// methods) as facts.

var (
	platformSymbols = regexp.MustCompile(`\b(WINDOWS|LINUX|OSX|MACOS|UNIX|FREEBSD|ANDROID|IOS|WIN32|WIN64)\b`)
	osPlatformAttr  = regexp.MustCompile(`\[\s*(SupportedOSPlatform|UnsupportedOSPlatform|SupportedOSPlatformGuard)\b`)
	ifPlatform      = regexp.MustCompile(`\bif\s*\(.*\b(OperatingSystem\.Is\w+|RuntimeInformation\.IsOSPlatform|Environment\.OSVersion|Path\.DirectorySeparatorChar)`)
	// externDecl finds the names of extern methods (P/Invoke targets).
	externDecl = regexp.MustCompile(`\bextern\s+[\w<>\[\],.?\s]*?\b(\w+)\s*\(`)
)

var grammar = braced.Grammar{
	Syntax:            syntax,
	PlatformDirective: platformSymbols.MatchString,
	Container:         regexp.MustCompile(`\b(namespace|class|struct|interface|record|enum)\b`),
	FunctionName:      braced.CFunctionName,
	Attributes:        osPlatformAttribute,
	IfCondition:       ifPlatformCondition,
	Patterns:          csPatterns,
	ExtraFacts:        externCalls,
}

// ReadEvidence is C#'s verify front end.
func ReadEvidence(_ string, src []byte) (*evidence.File, error) {
	return braced.Read(&grammar, src), nil
}

// osPlatformAttribute finds the first [SupportedOSPlatform]-like attribute
// of a header; the guard's text is its source line.
func osPlatformAttribute(h string) []braced.Attribute {
	loc := osPlatformAttr.FindStringIndex(h)
	if loc == nil {
		return nil
	}
	return []braced.Attribute{{Needle: h[loc[0]:loc[1]], Cond: "os-attribute"}}
}

// ifPlatformCondition returns the if (OperatingSystem.Is*()) condition
// heading h, or "".
func ifPlatformCondition(h string) string {
	loc := ifPlatform.FindStringIndex(h)
	if loc == nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(h[loc[0]:], "else "))
}

// externCalls are the calls of the file's own extern (P/Invoke) methods:
// native API calls, wherever they are.
func externCalls(code []string, calls []evidence.Call) []evidence.Fact {
	var out []evidence.Fact
	externs := map[string]bool{}
	for _, line := range code {
		for _, m := range externDecl.FindAllStringSubmatch(line, -1) {
			externs[m[1]] = true
		}
	}
	for _, c := range calls {
		if externs[c.Callee] && !externDecl.MatchString(code[c.Line-1]) {
			out = append(out, evidence.Fact{Line: c.Line, Label: schemas.LabelAPI, Group: "native_interop",
				What: c.Callee + " (extern)", Weight: 1})
		}
	}
	return out
}

var csPatterns = []braced.Pattern{
	{Re: regexp.MustCompile(`\bOperatingSystem\.Is\w+\s*\(|\bRuntimeInformation\.IsOSPlatform\b|\bEnvironment\.OSVersion\b|\bPlatformID\.\w+`), Label: schemas.LabelConditional, Group: "platform_switch", Weight: 0.85},
	{Re: regexp.MustCompile(`\bEnvironment\.NewLine\b`), Label: schemas.LabelEncoding, Group: "line_endings", Weight: 1},
	{Re: regexp.MustCompile(`\bEncoding\.(Unicode|BigEndianUnicode|GetEncoding|Default)\b`), Label: schemas.LabelEncoding, Group: "text_encoding", Weight: 0.8},
	{Re: regexp.MustCompile(`\bCodePagesEncodingProvider\b`), Label: schemas.LabelEncoding, Group: "code_pages", Weight: 1},
	{Re: regexp.MustCompile(`\bPath\.(DirectorySeparatorChar|AltDirectorySeparatorChar|VolumeSeparatorChar)\b`), Label: schemas.LabelPath, Group: "path_separators", Weight: 1},
	{Re: regexp.MustCompile(`\bPath\.PathSeparator\b`), Label: schemas.LabelPath, Group: "path_lists", Weight: 1},
	{Re: regexp.MustCompile(`\bPath\.GetTempPath\b`), Label: schemas.LabelPath, Group: "temp_dir", Weight: 1},
	{Re: regexp.MustCompile(`\bEnvironment\.(GetFolderPath|SpecialFolder)\b`), Label: schemas.LabelPath, Group: "known_folders", Weight: 1},
	{Re: regexp.MustCompile(`\bMicrosoft\.Win32\b|\bRegistry(Key)?\.\w+`), Label: schemas.LabelAPI, Group: "registry", Weight: 1},
	{Re: regexp.MustCompile(`\[\s*(DllImport|LibraryImport)\b`), Label: schemas.LabelAPI, Group: "native_interop", Weight: 1},
	{Re: regexp.MustCompile(`\bMarshal\.\w+|\bSafe\w*Handle\b`), Label: schemas.LabelAPI, Group: "native_interop", Weight: 0.6},
	{Re: regexp.MustCompile(`\bFile\.(Get|Set)Attributes\b|\bFileAttributes\.\w+`), Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	{Re: regexp.MustCompile(`\bFile\.(Get|Set)UnixFileMode\b|\bUnixFileMode\.\w+`), Label: schemas.LabelAPI, Group: "file_permissions", Weight: 1},
	{Re: regexp.MustCompile(`\bMono\.(Unix|Posix)\b`), Label: schemas.LabelAPI, Group: "posix_api", Weight: 1},
	{Re: regexp.MustCompile(`\bPlatformNotSupportedException\b`), Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
}
