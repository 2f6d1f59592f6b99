package parsers

// The stable names of the built-in parsers. Manifests refer to parsers by
// these names, so they never change once released.
const (
	NameGoTestJSON = "go-test-json"
	NameLibtest    = "libtest"
	NameJUnit      = "junit"
	NameCTest      = "ctest"
	NameTRX        = "trx"
	NameTAP        = "tap"
	NameRegex      = "regex"
)

// Built-ins register here, in one place, so the full set is visible at a
// glance and no file registers as a hidden side effect.
func init() {
	Register(NameGoTestJSON, &GoTestJSON{})
	Register(NameLibtest, &Libtest{})
	Register(NameJUnit, &JUnit{})
	Register(NameCTest, &CTest{})
	Register(NameTRX, &TRX{})
	Register(NameTAP, &TAP{})
	Register(NameRegex, &Regex{})
}

// Version 2 of JUnit: an error at suite level (directly under <testsuite>,
// or a nameless <testcase>) gives error to the suite's tests.
func (*JUnit) Version() string { return "2" }

// Version 2 of TAP: buffered subtests (ok N - name {) nest under their own
// test point, without the brace in their names.
func (*TAP) Version() string { return "2" }
