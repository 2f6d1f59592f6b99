package lang

import "testing"

func TestRulesKey(t *testing.T) {
	versions := map[string]string{"go": "1", "c": "1", "cpp": "1", "rust": "3"}
	of := func(l string) (string, bool) { v, ok := versions[l]; return v, ok }
	tests := []struct{ language, want string }{
		{"go", ""}, // every version 1: no field, old keys stay
		{"c", ""},  // C and C++ both 1
		{"rust", "rust=3"},
		{"csharp", ""}, // no rules attached: nothing to name
	}
	for _, tt := range tests {
		if got := rulesKey(tt.language, of); got != tt.want {
			t.Errorf("rulesKey(%s) = %q, want %q", tt.language, got, tt.want)
		}
	}
	versions["cpp"] = "2"
	if got := rulesKey("c", of); got != "c=1,cpp=2" {
		t.Errorf("a C++ rule bump in a C repository: %q, want c=1,cpp=2", got)
	}
}
