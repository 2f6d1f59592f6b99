package parsers

import (
	"strings"
)

// Helpers shared by the parsers of human-readable runner output (libtest,
// ctest, tap, regex).

// stripANSI removes the terminal escape sequences (colours, cursor moves)
// that runners print when they believe they write to a terminal, e.g. cargo
// with CARGO_TERM_COLOR=always. A line without ESC is returned as is.
func stripANSI(line string) string {
	if !strings.Contains(line, "\x1b") {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); i++ {
		if line[i] != '\x1b' {
			b.WriteByte(line[i])
			continue
		}
		// ESC [ parameters final-byte (CSI); any other ESC takes one byte.
		if i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		i++
	}
	return b.String()
}

// slashPath turns the "\" separators of a Windows path into "/", so that a
// path printed on Windows and on Linux gives the same id.
func slashPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// binaryName reduces the path of a test executable to what stays the same
// on every OS and build: the file name without its directory, without
// ".exe", and without the "-<16 hex digits>" metadata hash cargo appends.
//
//	target/debug/deps/foo-1a2b3c4d5e6f7a8b        foo
//	C:\w\target\debug\deps\foo-1a2b3c4d5e6f7a8b.exe  foo
func binaryName(p string) string {
	name := p[strings.LastIndexAny(p, `/\`)+1:]
	if len(name) > len(".exe") && strings.EqualFold(name[len(name)-len(".exe"):], ".exe") {
		name = name[:len(name)-len(".exe")]
	}
	const hashLen = 16
	if i := len(name) - hashLen - 1; i > 0 && name[i] == '-' && isLowerHex(name[i+1:]) {
		name = name[:i]
	}
	return name
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}
