// Package pathsep handles paths that come from users and configuration
// files, where the same program must accept Unix and Windows conventions:
// separators, drive letters, PATH-style lists and case rules.
//
// Platform behaviour is chosen two ways on purpose: some functions test
// filepath.Separator (a constant the compiler folds per GOOS), others test
// runtime.GOOS directly. Both are common in real code.
package pathsep

import (
	"path/filepath"
	"runtime"
	"strings"
)

// IsSeparator reports whether c separates path components. '/' does so
// everywhere; on Windows '\' does too, and both may appear in one path.
func IsSeparator(c byte) bool {
	if filepath.Separator == '\\' {
		return c == '\\' || c == '/'
	}
	return c == '/'
}

// Normalize cleans p and writes it with the platform's separator. On Windows
// it also upper-cases a leading drive letter, so "c:/Src/../x" and `C:\x`
// normalise to the same string. Like filepath.Clean, it returns "." for "".
func Normalize(p string) string {
	if filepath.Separator == '\\' {
		b := []byte(p)
		for i, c := range b {
			if c == '/' {
				b[i] = '\\'
			}
		}
		if hasDriveLetter(p) {
			b[0] = upperASCII(b[0])
		}
		p = string(b)
	}
	return filepath.Clean(p)
}

// Drive returns the upper-cased drive letter that starts p ("c:\x" gives
// 'C'). Drive letters exist only on Windows; elsewhere "c:" is an ordinary
// file name and Drive reports false.
func Drive(p string) (letter byte, ok bool) {
	if runtime.GOOS == "windows" && hasDriveLetter(p) {
		return upperASCII(p[0]), true
	}
	return 0, false
}

// SplitList splits a PATH-style list into its entries and drops empty ones:
// some shells read an empty entry as "the current directory", which a
// configuration file never means. Unix lists are separated by ':'. Windows
// lists are separated by ';', and an entry may be double-quoted so that it
// can hold a ';' itself: `"C:\a;b";C:\c` has two entries.
func SplitList(list string) []string {
	if runtime.GOOS == "windows" {
		return splitQuotedList(list)
	}
	var entries []string
	for _, e := range strings.Split(list, ":") {
		if e != "" {
			entries = append(entries, e)
		}
	}
	return entries
}

// splitQuotedList splits a Windows list on ';' outside double quotes and
// removes the quotes. An unterminated quote runs to the end of the list,
// which is how cmd.exe reads it too.
func splitQuotedList(list string) []string {
	var entries []string
	var entry strings.Builder
	quoted := false
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			if entry.Len() > 0 {
				entries = append(entries, entry.String())
				entry.Reset()
			}
		default:
			entry.WriteByte(c)
		}
	}
	if entry.Len() > 0 {
		entries = append(entries, entry.String())
	}
	return entries
}

// hasDriveLetter reports whether p starts with an ASCII letter and a colon.
func hasDriveLetter(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0]
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
