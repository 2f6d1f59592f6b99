package cfamily

import (
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
