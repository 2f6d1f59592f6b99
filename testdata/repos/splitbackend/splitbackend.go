// Package splitbackend is a fixture for split tasks: two independent
// features, each with its own per-OS backend in backend_unix.go and
// backend_windows.go — where an application keeps its settings
// (ConfigDir) and how one argument is quoted for the platform's command
// line (QuoteArg). Masking one feature's backend breaks only that
// feature's tests.
package splitbackend

import "path/filepath"

// App is the directory name settings are kept under.
const App = "splitbackend"

// ConfigDir is the directory of the application's settings.
func ConfigDir() (string, error) {
	base, err := configBase()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, App), nil
}

// QuoteArg quotes one argument so that the platform's command-line parser
// gives it back unchanged.
func QuoteArg(s string) string {
	if s == "" {
		return emptyArg
	}
	return quoteArg(s)
}

// QuoteArgs quotes every argument and joins them with spaces.
func QuoteArgs(args []string) string {
	out := ""
	for i, a := range args {
		if i > 0 {
			out += " "
		}
		out += QuoteArg(a)
	}
	return out
}
