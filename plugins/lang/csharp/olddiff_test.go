package csharp

import (
	"reflect"
	"strings"
	"testing"
)

func FuzzOldLexCSharp(f *testing.F) {
	f.Add("#if WINDOWS // x\nclass A { string s = @\"a\"\"b\"; var t = $\"{x}\"; var r = \"\"\"\n q \"\"\"; char c = '\\''; int? n = m ?? 1; Func<int> g = () => 1; }\n#endif\n")
	f.Fuzz(func(t *testing.T, src string) {
		if knownCSharpDivergence(src) {
			return
		}
		old, got := oldLex([]byte(src)), lex([]byte(src))
		if !reflect.DeepEqual(old, got) {
			t.Fatalf("%q:\nold %+v\nnew %+v", src, old, got)
		}
	})
}

// knownCSharpDivergence: comments and literals inside a directive line are
// lexed (the verify lexer's and the classifier's rule), where the old
// masker lexer skipped the line raw: only a comment or a literal that the
// line does not end differs.
func knownCSharpDivergence(src string) bool {
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimLeft(l, " \t\r\f\v"); strings.Contains(t, "#") &&
			(strings.Contains(t, "/*") || strings.Contains(t, "@") || strings.Contains(t, `"""`) ||
				strings.Count(t, `"`)%2 == 1 || strings.Count(t, "'")%2 == 1) {
			return true
		}
	}
	return false
}
