// Package lmsep is the fixture of the language-model end-to-end test: one
// line of code per platform, so each migration direction has one region.
package lmsep

import "runtime"

// Sep is the path separator of the running system.
func Sep() string {
	if runtime.GOOS == "windows" {
		return `\`
	}
	return "/"
}

// Join joins two path elements with Sep.
func Join(a, b string) string { return a + Sep() + b }
