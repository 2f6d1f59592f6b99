package compile

import "testing"

func TestModelDir(t *testing.T) {
	tests := map[string]string{
		"gold":                  "gold",
		"openai/gpt-4o":         "openai__gpt-4o",
		"acme/coder <v2>":       "acme__coder__v2_",
		"..":                    "_..",
		"":                      "_",
		"R&D agent":             "R_D_agent",
		"claude-3.5@2024+tools": "claude-3.5@2024+tools",
	}
	for in, want := range tests {
		if got := ModelDir(in); got != want {
			t.Errorf("ModelDir(%q) = %q, want %q", in, got, want)
		}
	}
}
