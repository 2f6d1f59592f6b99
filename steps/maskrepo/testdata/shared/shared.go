// Package shared has one file both platforms compile: a Windows branch the
// source never runs, a shared line the source does run, and a function
// whose placeholder would be the code it already is (a zero int).
package shared

import (
	"errors"
	"runtime"
)

var errReadOnly = errors.New("read-only file system")

// Sep is the path separator.
func Sep() string {
	if runtime.GOOS == "windows" {
		return `\`
	}
	return "/"
}

// Remove refuses to write: every platform runs this line.
func Remove(name string) error {
	return errReadOnly
}

// Count counts nothing.
func Count() int {
	return 0
}
