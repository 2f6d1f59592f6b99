package calc

import "testing"

func TestAbs(t *testing.T) {
	if Abs(-3) != 3 {
		t.Fatal("Abs(-3) != 3")
	}
}

func TestSign(t *testing.T) {
	if Sign(0) != 0 {
		t.Fatal("Sign(0) != 0")
	}
}
