package parsers

// The stable names of the built-in parsers. Manifests refer to parsers by
// these names, so they never change once released.
const (
	NameGoTestJSON = "go-test-json"
)

// Built-ins register here, in one place, so the full set is visible at a
// glance and no file registers as a hidden side effect.
func init() {
	Register(NameGoTestJSON, &GoTestJSON{})
}
