package evidence

import (
	"regexp"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// envGroups maps environment variables that locate per-user or system
// directories to the feature group of code that reads them.
var envGroups = map[string]string{
	"HOME": "home_dir", "USERPROFILE": "home_dir", "HOMEDRIVE": "home_dir", "HOMEPATH": "home_dir",
	"APPDATA": "config_dir", "LOCALAPPDATA": "config_dir", "XDG_CONFIG_HOME": "config_dir",
	"XDG_DATA_HOME": "data_dir", "XDG_CACHE_HOME": "cache_dir", "XDG_RUNTIME_DIR": "runtime_dir",
	"XDG_STATE_HOME": "state_dir", "XDG_DATA_DIRS": "data_dir", "XDG_CONFIG_DIRS": "config_dir",
	"TMPDIR": "temp_dir", "TEMP": "temp_dir", "TMP": "temp_dir",
	"PROGRAMFILES": "system_dirs", "PROGRAMDATA": "system_dirs", "SYSTEMROOT": "system_dirs",
	"WINDIR": "system_dirs", "COMSPEC": "shell", "PATHEXT": "executable_lookup",
}

var (
	driveLetter = regexp.MustCompile(`^[A-Za-z]:([\\/]|$)`)
	codePage    = regexp.MustCompile(`(?i)^(utf-?16(le|be)?|ucs-?2|windows-125\d|cp\d{3,5}|shift_jis|euc-jp|gbk|iso-8859-\d+)$`)
	dllName     = regexp.MustCompile(`(?i)^[a-z0-9_]+\.dll$`)
)

// Literal judges the decoded value of a string or character
// literal, the same in every language; shown is how the source writes it
// (quotes included). The facts have no line: the front end sets it.
func Literal(value, shown string) []Fact {
	var out []Fact
	add := func(label, group string, weight float64) {
		out = append(out, Fact{Label: label, Group: group, What: shown, Weight: weight})
	}
	switch {
	case strings.Contains(value, "\r\n"):
		add(schemas.LabelEncoding, "line_endings", 1)
	case value == "\\":
		add(schemas.LabelPath, "path_separators", 1)
	case strings.HasPrefix(value, `\\`) && len(value) > 2:
		add(schemas.LabelPath, "unc_paths", 0.8)
	case driveLetter.MatchString(value):
		add(schemas.LabelPath, "drive_letters", 0.8)
	case strings.Contains(value, `\`):
		add(schemas.LabelPath, "path_separators", 0.5)
	case value == ":" || value == ";":
		add(schemas.LabelPath, "path_syntax", 0.4)
	case strings.HasPrefix(value, "/tmp"):
		add(schemas.LabelPath, "temp_dir", 0.8)
	case strings.HasPrefix(value, "/proc/") || strings.HasPrefix(value, "/dev/") || strings.HasPrefix(value, "/sys/"):
		add(schemas.LabelAPI, "os_filesystems", 0.8)
	case codePage.MatchString(value):
		add(schemas.LabelEncoding, "code_pages", 1)
	case dllName.MatchString(value):
		add(schemas.LabelAPI, "win32_api", 0.8)
	case reservedNameChars(value) >= 3:
		add(schemas.LabelPath, "file_names", 0.8)
	}
	if g, ok := envGroups[strings.ToUpper(value)]; ok && value == strings.ToUpper(value) {
		add(schemas.LabelPath, g, 0.8)
	}
	return out
}

// reservedNameChars counts the characters Windows refuses in file names.
func reservedNameChars(s string) int {
	n := 0
	for _, c := range `<>"|?*` {
		if strings.ContainsRune(s, c) {
			n++
		}
	}
	return n
}
