package entrytrace

import (
	"path/filepath"
	"strconv"
	"strings"
)

// RustTests is the selector of a cargo test program whose crate is crate
// (the program's file name up to its "-<hash>": cargo names a test
// program after its target, with "-" made "_", as rustc names the crate).
// It accepts every function of that crate, named by its path below the
// crate as libtest names a test ("paths::tests::separators"), and the
// closure directly inside one under the same name: libtest reaches a
// #[test] function through the closure its harness wraps it in, so the
// closure is entered whenever the test starts, even where an optimising
// test profile inlined the function itself into it. Functions of other
// crates (the standard library, dependencies, generic code instantiated
// here), trait impls and nested closures are left out: none is a test of
// this program. Both manglings rustc has are read: legacy
// ("_ZN6rsplat5paths5tests10separators17h…E", rustc's default) and v0
// ("_RNvNtNtCs…_6rsplat5paths5tests10separators").
//
// Arming helpers too is harmless: the evidence asks only about the tests
// the run reported as passing, and an entered helper costs one trap.
func RustTests(crate string) func(symbol string) (name string, ok bool) {
	return func(symbol string) (string, bool) {
		segs, ok := rustPath(symbol)
		if !ok || len(segs) < 2 || segs[0] != crate {
			return "", false
		}
		segs = segs[1:]
		if segs[len(segs)-1] == closureSeg {
			segs = segs[:len(segs)-1]
		}
		if len(segs) == 0 {
			return "", false
		}
		for _, s := range segs {
			if s == closureSeg || s == "" {
				return "", false
			}
		}
		return strings.Join(segs, "::"), true
	}
}

// RustCrate is the crate of a cargo test program: its file name without
// the "-<hash>" cargo adds (and a Windows ".exe").
func RustCrate(program string) string {
	base := strings.TrimSuffix(filepath.Base(program), ".exe")
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		base = base[:i]
	}
	return strings.ReplaceAll(base, "-", "_")
}

const closureSeg = "{{closure}}"

// rustPath is the path a Rust symbol names, one identifier per segment
// ("{{closure}}" for a closure); false for anything but a plain path of
// crate, modules, types and functions.
func rustPath(symbol string) ([]string, bool) {
	switch {
	case strings.HasPrefix(symbol, "_ZN"):
		return legacyPath(symbol[3:])
	case strings.HasPrefix(symbol, "_R"):
		segs, _, ok := v0Path(symbol, 2)
		return segs, ok
	}
	return nil, false
}

// legacyPath reads "<len><ident>…17h<16 hex>E", the Itanium-style nested
// name rustc's legacy mangling writes, hash last.
func legacyPath(s string) ([]string, bool) {
	var segs []string
	for s != "E" {
		n, rest, ok := decimal(s)
		if !ok || n > len(rest) {
			return nil, false
		}
		segs = append(segs, rest[:n])
		s = rest[n:]
	}
	if len(segs) < 2 {
		return nil, false
	}
	hash := segs[len(segs)-1]
	if len(hash) != 17 || hash[0] != 'h' {
		return nil, false
	}
	segs = segs[:len(segs)-1]
	for i, seg := range segs {
		if seg == "_$u7b$$u7b$closure$u7d$$u7d$" {
			segs[i] = closureSeg
			continue
		}
		if strings.ContainsAny(seg, "$.") {
			return nil, false // an impl path ("_$LT$…$GT$") or an escape
		}
	}
	return segs, true
}

// v0Path reads the path at s[i:] of a v0 symbol: a crate root
// ("C" [disambiguator] ident) or a nested path ("N" namespace path ident),
// the only two forms a plain function path takes. It returns the
// segments and where the path ends.
func v0Path(s string, i int) ([]string, int, bool) {
	if i >= len(s) {
		return nil, 0, false
	}
	switch s[i] {
	case 'C':
		id, j, ok := v0Ident(s, i+1)
		if !ok {
			return nil, 0, false
		}
		return []string{id}, j, true
	case 'N':
		if i+1 >= len(s) {
			return nil, 0, false
		}
		ns := s[i+1]
		segs, j, ok := v0Path(s, i+2)
		if !ok {
			return nil, 0, false
		}
		id, j, ok := v0Ident(s, j)
		if !ok {
			return nil, 0, false
		}
		switch {
		case ns == 'C':
			return append(segs, closureSeg), j, true
		case ns >= 'a' && ns <= 'z' && id != "":
			return append(segs, id), j, true
		}
	}
	return nil, 0, false
}

// v0Ident reads [ "s" base62 "_" ] decimal [ "_" ] bytes; punycode ("u")
// identifiers are not read.
func v0Ident(s string, i int) (string, int, bool) {
	if i < len(s) && s[i] == 's' {
		j := strings.IndexByte(s[i:], '_')
		if j < 0 {
			return "", 0, false
		}
		i += j + 1
	}
	n, rest, ok := decimal(s[i:])
	if !ok {
		return "", 0, false
	}
	i = len(s) - len(rest)
	if i < len(s) && s[i] == '_' {
		i++
	}
	if i+n > len(s) {
		return "", 0, false
	}
	return s[i : i+n], i + n, true
}

// decimal reads the decimal number s starts with.
func decimal(s string) (int, string, bool) {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || j > 6 {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:j])
	return n, s[j:], err == nil
}
