package forger

import "testing"

func TestMasked(t *testing.T) {
	if Masked() != 1 {
		t.Fatal("masked")
	}
}

func TestAlsoMasked(t *testing.T) {
	if Masked() != 1 {
		t.Fatal("masked")
	}
}
