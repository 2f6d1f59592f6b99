package fsapi

import "testing"

// makeHidden creates a file that Windows hides: it carries the hidden
// attribute.
func makeHidden(t *testing.T, dir, name string) string {
	t.Helper()
	path := writeFile(t, dir, name)
	if err := SetHidden(path, true); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSetHiddenAttribute(t *testing.T) {
	path := writeFile(t, t.TempDir(), "plain.txt")
	for _, hidden := range []bool{false, true, false} {
		if err := SetHidden(path, hidden); err != nil {
			t.Fatal(err)
		}
		if got, err := IsHidden(path); err != nil || got != hidden {
			t.Errorf("after SetHidden(%v): IsHidden = %v, %v; want %v, nil", hidden, got, err, hidden)
		}
	}
}

func TestHomeDirFallback(t *testing.T) {
	t.Setenv("USERPROFILE", "")
	t.Setenv("HOMEDRIVE", "D:")
	t.Setenv("HOMEPATH", `\Users\tester`)
	if got, err := HomeDir(); err != nil || got != `D:\Users\tester` {
		t.Errorf("HomeDir() = %q, %v; want %q, nil", got, err, `D:\Users\tester`)
	}
}
