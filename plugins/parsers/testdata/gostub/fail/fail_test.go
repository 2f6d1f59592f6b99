package fail

import "testing"

func TestGood(t *testing.T) {}

func TestBad(t *testing.T) { t.Error("wrong answer") }

func TestFatal(t *testing.T) { t.Fatal("gave up") }
