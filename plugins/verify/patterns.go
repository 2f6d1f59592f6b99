package verify

import (
	"regexp"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// pattern is a rule over the code of a line (comments removed, literal
// contents blanked).
type pattern struct {
	re     *regexp.Regexp
	label  string
	group  string
	weight float64
}

// posixCall matches a call of a POSIX function, not a method or a
// namespaced function of the same name (std::fopen, obj.stat()).
func posixCall(names string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^.\w>:])(` + names + `)\s*\(`)
}

var cPatterns = []pattern{
	{regexp.MustCompile(`\b(MultiByteToWideChar|WideCharToMultiByte)\b`), schemas.LabelEncoding, "text_encoding", 1},
	{regexp.MustCompile(`\bCP_(UTF8|ACP|OEMCP|UTF7)\b`), schemas.LabelEncoding, "code_pages", 1},
	{regexp.MustCompile(`\b(mbstowcs|wcstombs|mbrtowc|wcrtomb|iconv\w*|setlocale|_setmode)\b`), schemas.LabelEncoding, "text_encoding", 0.8},
	{regexp.MustCompile(`\b(_O_BINARY|_O_TEXT|_O_U8TEXT|_O_U16TEXT|O_BINARY)\b`), schemas.LabelEncoding, "line_endings", 0.8},
	{regexp.MustCompile(`\b(wstring|wchar_t|char16_t)\b`), schemas.LabelEncoding, "wide_strings", 0.5},
	{regexp.MustCompile(`\b(Get|Set)FileAttributes(Ex)?[AW]?\b|\bFILE_ATTRIBUTE_\w+|\bINVALID_FILE_ATTRIBUTES\b`), schemas.LabelAPI, "file_attributes", 1},
	{regexp.MustCompile(`\b(CreateFile|DeleteFile|CopyFile|MoveFile(Ex)?|FindFirstFile(Ex)?|FindNextFile|FindClose|CreateDirectory|RemoveDirectory|GetFinalPathNameByHandle|ReadFile|WriteFile|CloseHandle|GetLastError|CreateProcess|WaitForSingleObject|LoadLibrary(Ex)?|GetProcAddress|FreeLibrary|GetModuleFileName|GetModuleHandle|CreateEvent|CreateMutex|LockFileEx|UnlockFileEx|DeviceIoControl|RegOpenKeyEx|RegQueryValueEx|RegCloseKey)[AW]?\b`), schemas.LabelAPI, "win32_api", 1},
	{regexp.MustCompile(`\b_w(fopen|open|stat|getenv|remove|rename|mkdir|rmdir|access|chdir|getcwd)\b`), schemas.LabelAPI, "wide_file_api", 1},
	{regexp.MustCompile(`\b(HANDLE|DWORD|BOOL|LPCSTR|LPCWSTR|LPSTR|LPWSTR|HMODULE|WINAPI)\b`), schemas.LabelAPI, "win32_api", 0.3},
	{posixCall(`stat|lstat|fstat|access|faccessat|fstatat`), schemas.LabelAPI, "file_metadata", 0.8},
	{posixCall(`open|openat|close|read|write|fork|vfork|execv|execvp|execve|execl|execlp|waitpid|pipe|dup2|getuid|geteuid|getgid|getegid|getgroups|chmod|fchmod|chown|mkdir|rmdir|unlink|symlink|readlink|opendir|readdir|closedir|fcntl|ioctl|mmap|munmap|kill|sigaction|dlopen|dlsym|dlclose|realpath|getpid|getppid|isatty|flock|posix_spawn`), schemas.LabelAPI, "posix_api", 0.8},
	{regexp.MustCompile(`\bS_IS(DIR|REG|LNK|FIFO|SOCK)\b|\bS_I[RWX](USR|GRP|OTH)\b|\b[FRWX]_OK\b|\bO_(RDONLY|WRONLY|RDWR|CREAT|CLOEXEC|NOFOLLOW)\b`), schemas.LabelAPI, "posix_api", 0.6},
	{regexp.MustCompile(`\bstruct\s+stat\b`), schemas.LabelAPI, "file_metadata", 0.8},
	{regexp.MustCompile(`#\s*include\s*<(windows|winbase|winnt|io|direct|shlobj|shellapi|winsock2|ws2tcpip)\.h>`), schemas.LabelAPI, "win32_api", 0.8},
	{regexp.MustCompile(`#\s*include\s*<(unistd|fcntl|dirent|dlfcn|pwd|grp|sys/\w+|termios|pthread)\.h>`), schemas.LabelAPI, "posix_api", 0.8},
	{regexp.MustCompile(`\bGetTempPath2?[AW]?\b`), schemas.LabelPath, "temp_dir", 1},
	{regexp.MustCompile(`\b(GetFullPathName|SHGetFolderPath|SHGetKnownFolderPath|GetUserProfileDirectory|PathCombine|PathIsRelative|GetWindowsDirectory|GetSystemDirectory)[AW]?\b`), schemas.LabelPath, "known_folders", 1},
	{regexp.MustCompile(`\b(MAX_PATH|PATH_MAX|_MAX_PATH)\b`), schemas.LabelPath, "path_limits", 0.4},
	{regexp.MustCompile(`\b(ENOSYS|ENOTSUP|EOPNOTSUPP|ERROR_NOT_SUPPORTED|ERROR_CALL_NOT_IMPLEMENTED)\b`), schemas.LabelOtherFeature, "unsupported_fallback", 1},
}

var rustPatterns = []pattern{
	{regexp.MustCompile(`std::os::(windows|unix|wasi)::ffi\b|\b(OsStrExt|OsStringExt)\b`), schemas.LabelEncoding, "os_strings", 1},
	{regexp.MustCompile(`\b(encode_wide|from_wide)\b`), schemas.LabelEncoding, "utf16_strings", 1},
	{regexp.MustCompile(`\bMAIN_SEPARATOR(_STR)?\b`), schemas.LabelPath, "path_separators", 1},
	{regexp.MustCompile(`\b(home_dir|temp_dir|config_dir)\s*\(`), schemas.LabelPath, "known_folders", 0.8},
	{regexp.MustCompile(`\b(MetadataExt|PermissionsExt|FileTypeExt|OpenOptionsExt|DirEntryExt)\b`), schemas.LabelAPI, "file_metadata", 1},
	{regexp.MustCompile(`\bfile_attributes\s*\(`), schemas.LabelAPI, "file_attributes", 1},
	{regexp.MustCompile(`\.mode\s*\(\s*\)`), schemas.LabelAPI, "file_permissions", 0.6},
	{regexp.MustCompile(`std::os::(windows|unix|linux|macos|wasi)::(fs|process|io|net|thread|raw)\b`), schemas.LabelAPI, "os_extensions", 0.8},
	{regexp.MustCompile(`(?:^|[^:\w])(windows_sys|winapi|libc|nix|windows)::`), schemas.LabelAPI, "native_api", 1},
	{regexp.MustCompile(`\bcfg!\s*\(`), schemas.LabelConditional, "platform_switch", 0.85},
	{regexp.MustCompile(`ErrorKind::Unsupported\b`), schemas.LabelOtherFeature, "unsupported_fallback", 1},
}

var csPatterns = []pattern{
	{regexp.MustCompile(`\bOperatingSystem\.Is\w+\s*\(|\bRuntimeInformation\.IsOSPlatform\b|\bEnvironment\.OSVersion\b|\bPlatformID\.\w+`), schemas.LabelConditional, "platform_switch", 0.85},
	{regexp.MustCompile(`\bEnvironment\.NewLine\b`), schemas.LabelEncoding, "line_endings", 1},
	{regexp.MustCompile(`\bEncoding\.(Unicode|BigEndianUnicode|GetEncoding|Default)\b`), schemas.LabelEncoding, "text_encoding", 0.8},
	{regexp.MustCompile(`\bCodePagesEncodingProvider\b`), schemas.LabelEncoding, "code_pages", 1},
	{regexp.MustCompile(`\bPath\.(DirectorySeparatorChar|AltDirectorySeparatorChar|VolumeSeparatorChar)\b`), schemas.LabelPath, "path_separators", 1},
	{regexp.MustCompile(`\bPath\.PathSeparator\b`), schemas.LabelPath, "path_lists", 1},
	{regexp.MustCompile(`\bPath\.GetTempPath\b`), schemas.LabelPath, "temp_dir", 1},
	{regexp.MustCompile(`\bEnvironment\.(GetFolderPath|SpecialFolder)\b`), schemas.LabelPath, "known_folders", 1},
	{regexp.MustCompile(`\bMicrosoft\.Win32\b|\bRegistry(Key)?\.\w+`), schemas.LabelAPI, "registry", 1},
	{regexp.MustCompile(`\[\s*(DllImport|LibraryImport)\b`), schemas.LabelAPI, "native_interop", 1},
	{regexp.MustCompile(`\bMarshal\.\w+|\bSafe\w*Handle\b`), schemas.LabelAPI, "native_interop", 0.6},
	{regexp.MustCompile(`\bFile\.(Get|Set)Attributes\b|\bFileAttributes\.\w+`), schemas.LabelAPI, "file_attributes", 1},
	{regexp.MustCompile(`\bFile\.(Get|Set)UnixFileMode\b|\bUnixFileMode\.\w+`), schemas.LabelAPI, "file_permissions", 1},
	{regexp.MustCompile(`\bMono\.(Unix|Posix)\b`), schemas.LabelAPI, "posix_api", 1},
	{regexp.MustCompile(`\bPlatformNotSupportedException\b`), schemas.LabelOtherFeature, "unsupported_fallback", 1},
}

var patternsByLang = map[string][]pattern{LangC: cPatterns, LangCPP: cPatterns, LangRust: rustPatterns, LangCSharp: csPatterns}

// csExternDecl finds the names of C# extern methods (P/Invoke targets).
var csExternDecl = regexp.MustCompile(`\bextern\s+[\w<>\[\],.?\s]*?\b(\w+)\s*\(`)

// patternEvidence applies the language's pattern table to every code line
// and the literal rules to every literal. In C#, calls of the file's own
// extern (P/Invoke) methods are native API calls too.
func patternEvidence(lang string, lx lexed) []evidence {
	var out []evidence
	pats := patternsByLang[lang]
	for i, code := range lx.code {
		for _, p := range pats {
			for _, loc := range p.re.FindAllStringIndex(code, -1) {
				out = append(out, evidence{line: i + 1, label: p.label, group: p.group,
					what: strings.TrimLeft(strings.TrimSpace(code[loc[0]:loc[1]]), ".>:(["), weight: p.weight})
			}
		}
	}
	for _, l := range lx.lits {
		for _, e := range literalEvidence(l.value, l.shown) {
			e.line = l.line
			out = append(out, e)
		}
	}
	if lang == LangCSharp {
		out = append(out, externCalls(lx)...)
	}
	return out
}

func externCalls(lx lexed) []evidence {
	var out []evidence
	externs := map[string]bool{}
	for _, code := range lx.code {
		for _, m := range csExternDecl.FindAllStringSubmatch(code, -1) {
			externs[m[1]] = true
		}
	}
	for _, c := range callSites(LangCSharp, lx) {
		if externs[c.callee] && !csExternDecl.MatchString(lx.code[c.line-1]) {
			out = append(out, evidence{line: c.line, label: schemas.LabelAPI, group: "native_interop",
				what: c.callee + " (extern)", weight: 1})
		}
	}
	return out
}

var callRe = regexp.MustCompile(`(?:^|[^.\w>])((?:\w+::)*[A-Za-z_]\w*)\s*\(`)

// callSites lists the calls of plain functions, by name (the last path
// segment for Rust and C++ qualified names).
func callSites(lang string, lx lexed) []callSite {
	var out []callSite
	for i, code := range lx.code {
		if strings.HasPrefix(strings.TrimSpace(code), "#") && lang != LangRust {
			continue
		}
		for _, m := range callRe.FindAllStringSubmatch(code, -1) {
			name := m[1]
			name = name[strings.LastIndex(name, ":")+1:]
			if notFuncName[name] || name == "fn" {
				continue
			}
			out = append(out, callSite{callee: name, line: i + 1})
		}
	}
	return out
}
