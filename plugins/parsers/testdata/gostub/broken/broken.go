// Package broken does not compile.
package broken

// Value is meant to be an int.
var Value int = "not an int"
