package sep

import "testing"

func TestSlash(t *testing.T) {
	if !IsSeparator('/') {
		t.Fatal("slash")
	}
}
