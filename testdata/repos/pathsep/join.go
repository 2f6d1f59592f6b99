package pathsep

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"
)

var (
	// ErrNotLocal means a user path is empty, absolute, names a volume, or
	// climbs out of its base with "..".
	ErrNotLocal = errors.New("path is not local")
	// ErrInvalidName means a user path has a component that the platform's
	// file system cannot store.
	ErrInvalidName = errors.New("invalid file name")
)

// JoinUser joins rel, a path that came from a user or an archive, to base,
// and refuses anything that would land outside base or could not be created
// there. On Windows that includes names with the characters <>"|?* or
// control characters, and names ending in a dot or a space (Windows strips
// those silently, so "a." would become "a").
func JoinUser(base, rel string) (string, error) {
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("join %q to %q: %w", rel, base, ErrNotLocal)
	}
	if runtime.GOOS == "windows" {
		if err := checkWindowsName(rel); err != nil {
			return "", fmt.Errorf("join %q to %q: %w", rel, base, err)
		}
	}
	return filepath.Join(base, rel), nil
}

// checkWindowsName checks every component of rel against the Win32 naming
// rules that filepath.IsLocal does not cover.
func checkWindowsName(rel string) error {
	for _, part := range strings.FieldsFunc(rel, isSeparatorRune) {
		if part == "." || part == ".." {
			continue
		}
		if i := strings.IndexFunc(part, isReservedWindowsRune); i >= 0 {
			return fmt.Errorf("%w: %q has %q", ErrInvalidName, part, part[i])
		}
		if last := part[len(part)-1]; last == '.' || last == ' ' {
			return fmt.Errorf("%w: %q ends in %q", ErrInvalidName, part, last)
		}
	}
	return nil
}

func isSeparatorRune(r rune) bool {
	return r < utf8.RuneSelf && IsSeparator(byte(r))
}

// isReservedWindowsRune reports whether Win32 refuses r in a file name.
func isReservedWindowsRune(r rune) bool {
	return r < 0x20 || strings.ContainsRune(`<>"|?*`, r)
}
