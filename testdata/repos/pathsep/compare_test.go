package pathsep

import "testing"

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b          string
		unix, windows bool
	}{
		{`C:\Temp`, "c:/temp", false, true},
		{"/A", "/a", false, true},
		{"/a/b", "/a/./b/", true, true},
		{"a", "b", false, false},
	}
	for _, tt := range tests {
		if got, want := Equal(tt.a, tt.b), onOS(tt.unix, tt.windows); got != want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tt.a, tt.b, got, want)
		}
	}
}

func TestHasPrefix(t *testing.T) {
	tests := []struct {
		p, dir        string
		unix, windows bool
	}{
		{`C:\Src\app`, "c:/src", false, true},
		{"/Home/me", "/home", false, true},
		{`a\b`, "a", false, true},
	}
	for _, tt := range tests {
		if got, want := HasPrefix(tt.p, tt.dir), onOS(tt.unix, tt.windows); got != want {
			t.Errorf("HasPrefix(%q, %q) = %v, want %v", tt.p, tt.dir, got, want)
		}
	}
}

// TestHasPrefixComponents covers the component-boundary rule, which is the
// same on every platform.
func TestHasPrefixComponents(t *testing.T) {
	tests := []struct {
		p, dir string
		want   bool
	}{
		{"/srv/app", "/srv", true},
		{"/srv", "/srv/", true},
		{"/srvx", "/srv", false},
		{"/a", "/", true},
		{"/", "/a", false},
		{"x/y/z", "x/y", true},
	}
	for _, tt := range tests {
		if got := HasPrefix(tt.p, tt.dir); got != tt.want {
			t.Errorf("HasPrefix(%q, %q) = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}
