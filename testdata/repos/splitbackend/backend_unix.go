//go:build unix

package splitbackend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

const emptyArg = "''"

// configBase follows the XDG base directory rules: $XDG_CONFIG_HOME when
// it is an absolute path, else $HOME/.config.
func configBase() (string, error) {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return dir, nil
	}
	home := os.Getenv("HOME")
	if home == "" {
		return "", errors.New("neither $XDG_CONFIG_HOME nor $HOME is set")
	}
	return filepath.Join(home, ".config"), nil
}

// quoteArg quotes for a POSIX shell: words made only of safe characters
// stay as they are, anything else is put in single quotes, a single quote
// itself closing the quotes, escaped, and opening them again.
func quoteArg(s string) string {
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./=:,+@%", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
