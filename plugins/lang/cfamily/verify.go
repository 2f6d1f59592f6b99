package cfamily

import (
	"regexp"

	"github.com/osbench/osbench/plugins/lang/braced"
	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// The verify front ends of C and C++ (Language.Evidence): the brace
// scanner of plugins/lang/braced with the preprocessor's platform macros
// as guards and the Win32 and POSIX names below as facts. The two differ
// only in which block headers hold functions (C++'s namespaces and
// classes).

// platformMacros are the macros whose test in an #if, #ifdef or #elif
// makes a branch platform code. HAVE_* are the results of a build's
// probes (autoconf's AC_CHECK_FUNCS, CMake's check_symbol_exists): C says
// "this platform has uselocale, getrandom, arc4random_buf" that way, and a
// region that runs on one platform only under such a test is platform
// code (json-c's locale and random seed, expat's entropy), not a false
// positive for want of a _WIN32. PREFIX_OS_* and PREFIX_PLATFORM_* are a
// project's own names for the platform, derived from the compiler's
// macros in one header and tested everywhere else: googletest's
// GTEST_OS_WINDOWS, Catch's CATCH_PLATFORM_WINDOWS, leveldb's
// LEVELDB_PLATFORM_POSIX.
var platformMacros = regexp.MustCompile(`\b([A-Z][A-Z0-9]*_(?:OS|PLATFORM)_[A-Z0-9_]+|HAVE_[A-Z0-9_]+|_WIN32|_WIN64|WIN32|_WINDOWS|__WINDOWS__|__linux__|__linux|linux|__gnu_linux__|__unix__|__unix|unix|_MSC_VER|__APPLE__|__MACH__|__MINGW32__|__MINGW64__|__CYGWIN__|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__sun|__HAIKU__|__ANDROID__|_AIX|_POSIX_VERSION|__EMSCRIPTEN__)\b`)

var (
	cGrammar = braced.Grammar{
		Syntax:            syntax,
		PlatformDirective: platformMacros.MatchString,
		Container:         regexp.MustCompile(`\b(struct|union|enum)\b|\bextern\s*"`),
		FunctionName:      braced.CFunctionName,
		Patterns:          cPatterns,
	}
	cppGrammar = braced.Grammar{
		Syntax:            syntax,
		PlatformDirective: platformMacros.MatchString,
		Container:         regexp.MustCompile(`\b(namespace|class|struct|union|enum)\b|\bextern\s*"`),
		FunctionName:      braced.CFunctionName,
		Patterns:          cPatterns,
	}
)

// ReadC is C's verify front end.
func ReadC(_ string, src []byte) (*evidence.File, error) { return braced.Read(&cGrammar, src), nil }

// ReadCPP is C++'s verify front end.
func ReadCPP(_ string, src []byte) (*evidence.File, error) { return braced.Read(&cppGrammar, src), nil }

// posixCall matches a call of a POSIX function, not a method or a
// namespaced function of the same name (std::fopen, obj.stat()).
func posixCall(names string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^.\w>:])(` + names + `)\s*\(`)
}

var cPatterns = []braced.Pattern{
	{Re: regexp.MustCompile(`\b(MultiByteToWideChar|WideCharToMultiByte)\b`), Label: schemas.LabelEncoding, Group: "text_encoding", Weight: 1},
	{Re: regexp.MustCompile(`\bCP_(UTF8|ACP|OEMCP|UTF7)\b`), Label: schemas.LabelEncoding, Group: "code_pages", Weight: 1},
	{Re: regexp.MustCompile(`\b(mbstowcs|wcstombs|mbrtowc|wcrtomb|iconv\w*|setlocale|_setmode)\b`), Label: schemas.LabelEncoding, Group: "text_encoding", Weight: 0.8},
	{Re: regexp.MustCompile(`\b(_O_BINARY|_O_TEXT|_O_U8TEXT|_O_U16TEXT|O_BINARY)\b`), Label: schemas.LabelEncoding, Group: "line_endings", Weight: 0.8},
	{Re: regexp.MustCompile(`\b(wstring|wchar_t|char16_t)\b`), Label: schemas.LabelEncoding, Group: "wide_strings", Weight: 0.5},
	{Re: regexp.MustCompile(`\b(Get|Set)FileAttributes(Ex)?[AW]?\b|\bFILE_ATTRIBUTE_\w+|\bINVALID_FILE_ATTRIBUTES\b`), Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	{Re: regexp.MustCompile(`\b(CreateFile|DeleteFile|CopyFile|MoveFile(Ex)?|FindFirstFile(Ex)?|FindNextFile|FindClose|CreateDirectory|RemoveDirectory|GetFinalPathNameByHandle|ReadFile|WriteFile|CloseHandle|GetLastError|CreateProcess|WaitForSingleObject|LoadLibrary(Ex)?|GetProcAddress|FreeLibrary|GetModuleFileName|GetModuleHandle|CreateEvent|CreateMutex|LockFileEx|UnlockFileEx|DeviceIoControl|RegOpenKeyEx|RegQueryValueEx|RegCloseKey)[AW]?\b`), Label: schemas.LabelAPI, Group: "win32_api", Weight: 1},
	{Re: regexp.MustCompile(`\b_w(fopen|open|stat|getenv|remove|rename|mkdir|rmdir|access|chdir|getcwd)\b`), Label: schemas.LabelAPI, Group: "wide_file_api", Weight: 1},
	{Re: regexp.MustCompile(`\b(HANDLE|DWORD|BOOL|LPCSTR|LPCWSTR|LPSTR|LPWSTR|HMODULE|WINAPI)\b`), Label: schemas.LabelAPI, Group: "win32_api", Weight: 0.3},
	{Re: posixCall(`stat|lstat|fstat|access|faccessat|fstatat`), Label: schemas.LabelAPI, Group: "file_metadata", Weight: 0.8},
	{Re: posixCall(`open|openat|close|read|write|fork|vfork|execv|execvp|execve|execl|execlp|waitpid|pipe|dup2|getuid|geteuid|getgid|getegid|getgroups|chmod|fchmod|chown|mkdir|rmdir|unlink|symlink|readlink|opendir|readdir|closedir|fcntl|ioctl|mmap|munmap|kill|sigaction|dlopen|dlsym|dlclose|realpath|getpid|getppid|isatty|flock|posix_spawn`), Label: schemas.LabelAPI, Group: "posix_api", Weight: 0.8},
	{Re: regexp.MustCompile(`\bS_IS(DIR|REG|LNK|FIFO|SOCK)\b|\bS_I[RWX](USR|GRP|OTH)\b|\b[FRWX]_OK\b|\bO_(RDONLY|WRONLY|RDWR|CREAT|CLOEXEC|NOFOLLOW)\b`), Label: schemas.LabelAPI, Group: "posix_api", Weight: 0.6},
	{Re: regexp.MustCompile(`\bstruct\s+stat\b`), Label: schemas.LabelAPI, Group: "file_metadata", Weight: 0.8},
	{Re: regexp.MustCompile(`#\s*include\s*<(windows|winbase|winnt|io|direct|shlobj|shellapi|winsock2|ws2tcpip)\.h>`), Label: schemas.LabelAPI, Group: "win32_api", Weight: 0.8},
	{Re: regexp.MustCompile(`#\s*include\s*<(unistd|fcntl|dirent|dlfcn|pwd|grp|sys/\w+|termios|pthread)\.h>`), Label: schemas.LabelAPI, Group: "posix_api", Weight: 0.8},
	{Re: regexp.MustCompile(`\bGetTempPath2?[AW]?\b`), Label: schemas.LabelPath, Group: "temp_dir", Weight: 1},
	{Re: regexp.MustCompile(`\b(GetFullPathName|SHGetFolderPath|SHGetKnownFolderPath|GetUserProfileDirectory|PathCombine|PathIsRelative|GetWindowsDirectory|GetSystemDirectory)[AW]?\b`), Label: schemas.LabelPath, Group: "known_folders", Weight: 1},
	{Re: regexp.MustCompile(`\b(MAX_PATH|PATH_MAX|_MAX_PATH)\b`), Label: schemas.LabelPath, Group: "path_limits", Weight: 0.4},
	{Re: regexp.MustCompile(`\b(ENOSYS|ENOTSUP|EOPNOTSUPP|ERROR_NOT_SUPPORTED|ERROR_CALL_NOT_IMPLEMENTED)\b`), Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
}
