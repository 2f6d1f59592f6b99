package cfamily

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func FuzzOldLexC(f *testing.F) {
	for _, s := range []string{"#include <a.h>\n#if X /* a\n b */\nint f() { return 'a' + L\"b\"; }\n#endif\n", "R\"x(a\n)x\" u8R\"(y)\" 1'000 0x1p-3 a->b::c && d", "#define A \\\n  b\n\"a\\\nb\"\n"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, src string, cpp bool) {
		if knownCDivergence(src, cpp) {
			return
		}
		old, got := oldLexC([]byte(src), cpp), lexC([]byte(src))
		if !reflect.DeepEqual(old, got) {
			t.Fatalf("%q cpp=%v:\nold %+v\nnew %+v", src, cpp, old, got)
		}
	})
}

// knownCDivergence: the inputs the one lexer reads as the language (and
// the verify lexer and classifier) do and the old masker lexer did not:
// a raw string only after R, u8R, LR, uR or UR (not any identifier ending
// in R, and in C files too) with a valid delimiter; literals inside
// directive lines (so "/*" in a #define is a string).
func knownCDivergence(src string, cpp bool) bool {
	return strings.Contains(src, `R"`) || strings.Contains(src, "#") && (strings.Contains(src, "/*") || strings.Contains(src, "*/")) && strings.ContainsAny(src, `"'`)
}

var _ = regexp.MustCompile

// TestOldLexCorpus compares the old masker lexer with the new one over the
// files listed (one path a line) in $OSBENCH_OLDDIFF_C.
func TestOldLexCorpus(t *testing.T) {
	list := os.Getenv("OSBENCH_OLDDIFF_C")
	if list == "" {
		t.Skip("no file list")
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	files, diffs := strings.Fields(string(b)), 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		old, got := oldLexC(src, !strings.HasSuffix(p, ".c") && !strings.HasSuffix(p, ".h")), lexC(src)
		if !reflect.DeepEqual(old, got) {
			diffs++
			t.Logf("%s differs", p)
		}
	}
	t.Logf("%d files, %d differ", len(files), diffs)
}
