// Package report calls into calc, so -coverpkg gives calc's blocks twice.
package report

import "example.com/covstub/calc"

// Describe names the sign of n.
func Describe(n int) string {
	switch calc.Sign(n) {
	case 1:
		return "positive"
	case -1:
		return "negative"
	}
	return "zero"
}
