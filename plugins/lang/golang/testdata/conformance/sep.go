package sep

import "runtime"

// IsSeparator reports whether c separates path elements.
func IsSeparator(c byte) bool {
	if runtime.GOOS == "windows" {
		return c == '\\' || c == '/' // osbench:target
	}
	return c == '/'
}
