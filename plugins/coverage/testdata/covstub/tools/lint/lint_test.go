package lint

import "testing"

func TestClean(t *testing.T) {
	if got, ok := Clean("  x "); !ok || got != "x" {
		t.Fatalf("Clean = %q, %v", got, ok)
	}
}
