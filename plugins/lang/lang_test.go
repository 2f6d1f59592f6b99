package lang_test

import (
	"testing"

	. "github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all"
)

func TestOf(t *testing.T) {
	for file, want := range map[string]string{
		"a/b.go": Go, "x.C": C, "inc/x.h": C, "x.hpp": CPP, "x.TCC": CPP, "src/lib.rs": Rust,
		"P.cs": CSharp, "Makefile": "", "x.py": "", "dir.go/readme": "",
	} {
		if got := Of(file); got != want {
			t.Errorf("Of(%q) = %q, want %q", file, got, want)
		}
	}
}
