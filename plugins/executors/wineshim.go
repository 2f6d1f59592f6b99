package executors

import (
	"crypto/sha256"
	_ "embed" // the shim's C source ships inside the osbench binary
	"encoding/hex"
)

// The bcryptprimitives.dll shim (see wineshim/bcryptprimitives.c for why it
// exists). Its source is embedded rather than read from the repository at
// run time, so an installed osbench binary can build it anywhere.
var (
	//go:embed wineshim/bcryptprimitives.c
	shimSource string
	//go:embed wineshim/bcryptprimitives.def
	shimExports string
	// The Windows entry tracer (see wineshim/entrytrace.c), built into
	// the same system32 as the shim, which test programs cannot write.
	//go:embed wineshim/entrytrace.c
	tracerSource string
)

// Names of the shim's files, in the build directory and in the prefix.
const (
	shimSourceName   = "bcryptprimitives.c"
	shimExportsName  = "bcryptprimitives.def"
	shimDLLName      = "bcryptprimitives.dll"
	tracerSourceName = "osbench-entrytrace.c"
)

// mingwCC is the cross compiler that builds the shim (Debian package
// gcc-mingw-w64-x86-64).
const mingwCC = "x86_64-w64-mingw32-gcc"

// shimDigest returns the SHA-256 of the shim's source files, hex-encoded.
// It enters the executor's fingerprint and the marker of a finished prefix,
// so a change to the shim rebuilds every prefix and reruns every step that
// ran under the old one.
func shimDigest() string {
	h := sha256.New()
	for _, f := range [][2]string{{shimSourceName, shimSource}, {shimExportsName, shimExports}} {
		// Names and contents are separated by NUL bytes, which neither
		// contains, so no two different file sets hash alike.
		h.Write([]byte(f[0] + "\x00" + f[1] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sha256Hex returns the hex-encoded SHA-256 of s.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// shimBuildArgv is the command that compiles the shim, run in a directory
// holding its two source files, into out. The timestamp is left out of the
// PE header so the same source always gives the same DLL.
func shimBuildArgv(out string) []string {
	return []string{
		mingwCC, "-shared", "-O2", "-s", "-Wl,--no-insert-timestamp",
		"-o", out, shimSourceName, shimExportsName, "-ladvapi32",
	}
}

// tracerDigest is the SHA-256 of the entry tracer's source. It enters the
// marker of a finished prefix, so a prefix built with another tracer is
// rebuilt; it stays out of the executor's fingerprint (and so out of every
// Windows step's key): the go-test runner's Windows version names the
// evidence the tracer gives, and a change to what the tracer records is a
// bump of that version (plugins/runner/gotest).
func tracerDigest() string { return sha256Hex(tracerSource) }

// tracerBuildArgv compiles the entry tracer, run in a directory holding
// its source, into out (entrytrace.WineTracer in system32).
func tracerBuildArgv(out string) []string {
	return []string{
		mingwCC, "-municode", "-O2", "-s", "-Wl,--no-insert-timestamp",
		"-o", out, tracerSourceName,
	}
}
