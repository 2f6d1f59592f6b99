package report

import "testing"

func TestDescribe(t *testing.T) {
	if got := Describe(5); got != "positive" {
		t.Fatalf("Describe(5) = %q", got)
	}
}
