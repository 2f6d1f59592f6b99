package splitbackend

import (
	"errors"
	"os"
	"strings"
)

const emptyArg = `""`

// configBase is the roaming application data folder, %APPDATA%.
func configBase() (string, error) {
	if dir := os.Getenv("APPDATA"); dir != "" {
		return dir, nil
	}
	return "", errors.New("%APPDATA% is not set")
}

// quoteArg quotes for CommandLineToArgvW: an argument without spaces,
// tabs or double quotes stays as it is; otherwise it is put in double
// quotes, a double quote escaped with a backslash, and the backslashes
// before a double quote (or before the closing quote) doubled.
func quoteArg(s string) string {
	if !strings.ContainsAny(s, " \t\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, c := range s {
		switch c {
		case '\\':
			slashes++
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
		default:
			b.WriteString(strings.Repeat(`\`, slashes))
		}
		slashes = 0
		b.WriteRune(c)
	}
	b.WriteString(strings.Repeat(`\`, 2*slashes))
	b.WriteByte('"')
	return b.String()
}
