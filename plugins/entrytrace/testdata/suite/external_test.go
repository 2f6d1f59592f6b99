package suite_test

import (
	"testing"

	"example.com/suite"
)

func TestExternal(t *testing.T) {
	if suite.Add(2, 2) != 4 {
		t.Fatal("2+2 is not 4")
	}
}
