package broken

import "testing"

func TestNeverBuilt(t *testing.T) { _ = Value }
