package skip

import "testing"

func TestSkipped(t *testing.T) { t.Skip("not on this platform") }

func TestRuns(t *testing.T) {}
