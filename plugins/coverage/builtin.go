package coverage

// The stable names of the built-in importers. Manifests refer to importers by
// these names, so they never change once released.
const (
	NameGoCoverprofile = "go-coverprofile"
	NameLcov           = "lcov"
	NameGcov           = "gcov"
	NameCobertura      = "cobertura"
	NameLLVMJSON       = "llvm-json"
)

// Built-ins register here, in one place, so the full set is visible at a
// glance and no file registers as a hidden side effect.
func init() {
	Register(NameGoCoverprofile, &GoCoverprofile{})
	Register(NameLcov, &Lcov{})
	Register(NameGcov, &Gcov{})
	Register(NameCobertura, &Cobertura{})
	Register(NameLLVMJSON, &LLVMJSON{})
}

// Version 2 of go-coverprofile: ./- and ../-relative files are taken
// relative to the root instead of being dropped.
func (*GoCoverprofile) Version() string { return "2" }

// Version 2 of gcov: text reports with C++ names (ns::K::m) import instead
// of failing.
func (*Gcov) Version() string { return "2" }

// Version 2 of llvm-json: a summary-only export is an error, not empty
// coverage.
func (*LLVMJSON) Version() string { return "2" }
