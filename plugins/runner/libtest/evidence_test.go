package libtest

import (
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestManglesPath(t *testing.T) {
	tests := []struct {
		symbol string
		path   string
		want   bool
	}{
		{"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators", "paths::tests::separators", true},
		{"_RNvCsj3klfEMwgwO_8platforms_28joined_paths_name_real_files", "joined_paths_name_real_files", true},
		{"_ZN6rsplat5paths5tests10separators17h0123456789abcdefE", "paths::tests::separators", true},
		{"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators", "tests::paths::separators", false},
		{"_RNvNtCs7Ki3xCtWVbG_6rsplat5paths4join", "paths::join_list", false},
		{"_RNvNtCs7Ki3xCtWVbG_6rsplat5paths9join_list", "paths::join", false},
		{"main", "main", false},
	}
	for _, tt := range tests {
		if got := manglesPath(tt.symbol, strings.Split(tt.path, "::")); got != tt.want {
			t.Errorf("manglesPath(%s, %s) = %v, want %v", tt.symbol, tt.path, got, tt.want)
		}
	}
	raw := []byte(`{"data":[{"functions":[{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_10separators","count":1},{"name":"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5testss_13drive_letters","count":0}]}]}`)
	got := rustEvidence([]schemas.TestResult{
		{ID: "src/lib.rs/paths::tests::drive_letters", Status: "pass"},
		{ID: "src/lib.rs/paths::tests::separators", Status: "pass"},
		{ID: "doctest/src/paths.rs - paths::separators", Status: "pass"},
	}, raw)
	if got[0].Evidence != "" || got[1].Evidence != "ran" || got[2].Evidence != "" {
		t.Errorf("rust evidence = %+v", got)
	}
}
