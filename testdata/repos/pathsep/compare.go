package pathsep

import (
	"runtime"
	"strings"
)

// Equal reports whether a and b name the same path once normalised. Windows
// file systems ignore case, so there `C:\Temp` equals "c:/temp"; on Unix
// names that differ only in case are different files.
func Equal(a, b string) bool {
	return sameName(Normalize(a), Normalize(b))
}

// HasPrefix reports whether p is dir or lies below it. It compares whole
// components, so "/srv/app" is below "/srv" but "/srvx" is not, and it
// follows the platform's case rule.
func HasPrefix(p, dir string) bool {
	p, dir = Normalize(p), Normalize(dir)
	if len(p) < len(dir) || !sameName(p[:len(dir)], dir) {
		return false
	}
	if len(p) == len(dir) {
		return true
	}
	// A root such as "/" or `C:\` already ends in a separator; any other
	// normalised dir must be followed by one in p.
	return IsSeparator(dir[len(dir)-1]) || IsSeparator(p[len(dir)])
}

// sameName compares two normalised paths under the platform's case rule.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
