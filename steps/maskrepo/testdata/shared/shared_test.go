package shared

import "testing"

func TestSep(t *testing.T) {
	if Sep() == "" {
		t.Fatal("no separator")
	}
}
