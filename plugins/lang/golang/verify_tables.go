package golang

import (
	"regexp"

	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// The OS-specific names of Go that the verify front end (verify.go) reads.

// goosNames are the GOOS values and the OS families used in build tags and
// file-name suffixes ("unix" and "bsd" are conventions, not GOOS values,
// but real repositories use them in file names).
var goosNames = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true,
	"zos": true, "unix": true, "bsd": true, "posix": true,
}

// goSelectors maps "importpath.Name" (or "importpath.*") to evidence.
var goSelectors = map[string]evidence.Fact{
	"runtime.GOOS":                        {Label: schemas.LabelConditional, Group: "platform_switch", Weight: 0.85},
	"path/filepath.Separator":             {Label: schemas.LabelPath, Group: "path_separators", Weight: 1},
	"path/filepath.ListSeparator":         {Label: schemas.LabelPath, Group: "path_lists", Weight: 1},
	"os.PathSeparator":                    {Label: schemas.LabelPath, Group: "path_separators", Weight: 1},
	"os.PathListSeparator":                {Label: schemas.LabelPath, Group: "path_lists", Weight: 1},
	"path/filepath.VolumeName":            {Label: schemas.LabelPath, Group: "drive_letters", Weight: 1},
	"os.UserHomeDir":                      {Label: schemas.LabelPath, Group: "home_dir", Weight: 1},
	"os.UserConfigDir":                    {Label: schemas.LabelPath, Group: "config_dir", Weight: 1},
	"os.UserCacheDir":                     {Label: schemas.LabelPath, Group: "cache_dir", Weight: 1},
	"os.TempDir":                          {Label: schemas.LabelPath, Group: "temp_dir", Weight: 0.8},
	"unicode/utf16.*":                     {Label: schemas.LabelEncoding, Group: "utf16_strings", Weight: 1},
	"syscall.UTF16FromString":             {Label: schemas.LabelEncoding, Group: "utf16_strings", Weight: 0.5},
	"syscall.UTF16PtrFromString":          {Label: schemas.LabelEncoding, Group: "utf16_strings", Weight: 0.5},
	"syscall.UTF16ToString":               {Label: schemas.LabelEncoding, Group: "utf16_strings", Weight: 0.5},
	"syscall.Getenv":                      {Label: schemas.LabelAPI, Group: "environment", Weight: 0.3},
	"syscall.GetFileAttributes":           {Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	"syscall.SetFileAttributes":           {Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	"syscall.FILE_ATTRIBUTE_HIDDEN":       {Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	"syscall.FILE_ATTRIBUTE_READONLY":     {Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	"syscall.Stat":                        {Label: schemas.LabelAPI, Group: "file_metadata", Weight: 1},
	"syscall.Stat_t":                      {Label: schemas.LabelAPI, Group: "file_metadata", Weight: 1},
	"syscall.Getuid":                      {Label: schemas.LabelAPI, Group: "file_permissions", Weight: 1},
	"syscall.Getgid":                      {Label: schemas.LabelAPI, Group: "file_permissions", Weight: 1},
	"syscall.Getgroups":                   {Label: schemas.LabelAPI, Group: "file_permissions", Weight: 1},
	"syscall.ENOSYS":                      {Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
	"syscall.ENOTSUP":                     {Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
	"syscall.EOPNOTSUPP":                  {Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
	"syscall.*":                           {Label: schemas.LabelAPI, Group: "syscalls", Weight: 0.7},
	"golang.org/x/sys/unix.*":             {Label: schemas.LabelAPI, Group: "syscalls", Weight: 1},
	"golang.org/x/sys/windows.*":          {Label: schemas.LabelAPI, Group: "win32_api", Weight: 1},
	"golang.org/x/sys/windows/registry.*": {Label: schemas.LabelAPI, Group: "registry", Weight: 1},
	"os/user.*":                           {Label: schemas.LabelAPI, Group: "user_accounts", Weight: 1},
	"errors.ErrUnsupported":               {Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
	"golang.org/x/text/encoding/*":        {Label: schemas.LabelEncoding, Group: "code_pages", Weight: 1},
}

// goPlatformTests are the selectors whose presence in a condition makes it
// a platform test.
var goPlatformTests = map[string]bool{
	"runtime.GOOS": true, "path/filepath.Separator": true, "path/filepath.ListSeparator": true,
	"os.PathSeparator": true, "os.PathListSeparator": true,
}

// goPortableSyscall matches the syscall names every GOOS defines: the
// errno constants (Windows has invented values for them) and the signals.
var goPortableSyscall = regexp.MustCompile(`^(E[A-Z0-9]+|SIG[A-Z0-9]+|Errno|Signal)$`)
