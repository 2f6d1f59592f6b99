// Package lint lives in a nested module.
package lint

import "strings"

// Clean trims s and reports whether anything was left.
func Clean(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	return s, true
}
