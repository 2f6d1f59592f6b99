package subtests

import "testing"

func TestTable(t *testing.T) {
	for _, name := range []string{"one", "two words", "fails"} {
		t.Run(name, func(t *testing.T) {
			if name == "fails" {
				t.Error("this case fails")
			}
		})
	}
}

func TestNested(t *testing.T) {
	t.Run("outer", func(t *testing.T) {
		t.Run("inner", func(t *testing.T) {})
		t.Run("skipped", func(t *testing.T) { t.Skip("later") })
	})
}

func TestParallel(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) { t.Parallel() })
	}
}
