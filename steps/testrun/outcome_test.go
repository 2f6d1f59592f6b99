package testrun

import (
	"reflect"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"TestA", "TestA", true},
		{"TestA", "TestAB", false},
		{"Test*", "Test", true},
		{"Test*", "TestWine", true},
		{"*Wine*", "TestWineLock", true},
		{"*Wine", "TestWineLock", false},
		{"T?st", "Test", true},
		{"T?st", "Tst", false},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"**", "", true},
		{"é?", "éx", true},
	}
	for _, tt := range tests {
		if got := globMatch(tt.pattern, tt.name); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// Expected tests a skip glob names are reported skip; others are left alone.
func TestMarkSkippedGlobs(t *testing.T) {
	expected := []string{"pkg/TestWineLock", "pkg/TestWineUnlock", "pkg/TestPlain"}
	got := markSkipped(nil, expected, []string{"TestWine*"})
	want := []schemas.TestResult{
		{ID: "pkg/TestWineLock", Status: schemas.StatusSkip},
		{ID: "pkg/TestWineUnlock", Status: schemas.StatusSkip},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("markSkipped = %+v, want %+v", got, want)
	}
}
