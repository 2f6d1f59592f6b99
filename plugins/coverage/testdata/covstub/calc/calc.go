// Package calc has code that the tests run only in part.
package calc

// Abs returns the absolute value of n.
func Abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Sign returns -1, 0 or 1.
func Sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n == 0:
		return 0
	}
	return 1
}

// Unused is never called by any test.
func Unused() string {
	return "unused"
}
