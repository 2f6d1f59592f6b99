package brokendep

import (
	"testing"

	"example.com/gostub/broken"
)

func TestUsesBroken(t *testing.T) { _ = broken.Value }
