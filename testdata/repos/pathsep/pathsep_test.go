package pathsep

import (
	"runtime"
	"slices"
	"testing"
)

// onOS picks the expectation for the platform the test runs on. Table rows
// state both, so one test checks Unix behaviour on Linux and Windows
// behaviour on Windows, and fails on either if that platform's code is gone.
func onOS[T any](unix, windows T) T {
	if runtime.GOOS == "windows" {
		return windows
	}
	return unix
}

func TestIsSeparator(t *testing.T) {
	tests := []struct {
		c             byte
		unix, windows bool
	}{
		{'/', true, true},
		{'\\', false, true},
		{':', false, false},
		{'a', false, false},
	}
	for _, tt := range tests {
		if got, want := IsSeparator(tt.c), onOS(tt.unix, tt.windows); got != want {
			t.Errorf("IsSeparator(%q) = %v, want %v", tt.c, got, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in            string
		unix, windows string
	}{
		{"a/b/../c", "a/c", `a\c`},
		{"c:/Src/../x", "c:/x", `C:\x`},
		{`C:\Users\\me\`, `C:\Users\\me\`, `C:\Users\me`},
		{"/tmp//x/", "/tmp/x", `\tmp\x`},
		{"", ".", "."},
	}
	for _, tt := range tests {
		if got, want := Normalize(tt.in), onOS(tt.unix, tt.windows); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, want)
		}
	}
}

func TestDrive(t *testing.T) {
	type drive struct {
		letter byte
		ok     bool
	}
	tests := []struct {
		in            string
		unix, windows drive
	}{
		{`c:\x`, drive{}, drive{'C', true}},
		{"D:", drive{}, drive{'D', true}},
		{"1:/x", drive{}, drive{}},
		{"/x", drive{}, drive{}},
		{"", drive{}, drive{}},
	}
	for _, tt := range tests {
		letter, ok := Drive(tt.in)
		if got, want := (drive{letter, ok}), onOS(tt.unix, tt.windows); got != want {
			t.Errorf("Drive(%q) = %q, %v; want %q, %v", tt.in, got.letter, got.ok, want.letter, want.ok)
		}
	}
}

func TestSplitList(t *testing.T) {
	tests := []struct {
		in            string
		unix, windows []string
	}{
		{"/usr/bin:/bin", []string{"/usr/bin", "/bin"}, []string{"/usr/bin:/bin"}},
		{"/usr/bin::/bin:", []string{"/usr/bin", "/bin"}, []string{"/usr/bin::/bin:"}},
		{
			`C:\Go\bin;"C:\Program Files\a;b";;D:\tools`,
			[]string{`C`, `\Go\bin;"C`, `\Program Files\a;b";;D`, `\tools`},
			[]string{`C:\Go\bin`, `C:\Program Files\a;b`, `D:\tools`},
		},
		{`"open;x`, []string{`"open;x`}, []string{`open;x`}},
		{"", nil, nil},
	}
	for _, tt := range tests {
		if got, want := SplitList(tt.in), onOS(tt.unix, tt.windows); !slices.Equal(got, want) {
			t.Errorf("SplitList(%q) = %q, want %q", tt.in, got, want)
		}
	}
}
