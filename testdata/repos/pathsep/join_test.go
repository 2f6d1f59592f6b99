package pathsep

import (
	"errors"
	"testing"
)

func TestJoinUser(t *testing.T) {
	type result struct {
		path string
		err  error
	}
	base := onOS("/base", `C:\base`)
	tests := []struct {
		rel           string
		unix, windows result
	}{
		{"docs/readme.md", result{path: "/base/docs/readme.md"}, result{path: `C:\base\docs\readme.md`}},
		{"a|b.txt", result{path: "/base/a|b.txt"}, result{err: ErrInvalidName}},
		{"sub/report?.txt", result{path: "/base/sub/report?.txt"}, result{err: ErrInvalidName}},
		{"notes.", result{path: "/base/notes."}, result{err: ErrInvalidName}},
		{"dir /x", result{path: "/base/dir /x"}, result{err: ErrInvalidName}},
		{"C:evil", result{path: "/base/C:evil"}, result{err: ErrNotLocal}},
		{`..\up`, result{path: `/base/..\up`}, result{err: ErrNotLocal}},
		{"NUL", result{path: "/base/NUL"}, result{err: ErrNotLocal}},
	}
	for _, tt := range tests {
		want := onOS(tt.unix, tt.windows)
		got, err := JoinUser(base, tt.rel)
		if !errors.Is(err, want.err) || got != want.path {
			t.Errorf("JoinUser(%q, %q) = %q, %v; want %q, %v", base, tt.rel, got, err, want.path, want.err)
		}
	}
}

// TestJoinUserRejectsEscapes covers the rules every platform shares.
func TestJoinUserRejectsEscapes(t *testing.T) {
	for _, rel := range []string{"", "../x", "a/../../x", "/etc/passwd"} {
		got, err := JoinUser("base", rel)
		if !errors.Is(err, ErrNotLocal) {
			t.Errorf("JoinUser(%q, %q) = %q, %v; want error %v", "base", rel, got, err, ErrNotLocal)
		}
	}
}
