package lang

import (
	"reflect"
	"testing"
)

var diffSyntaxes = map[string]Syntax{
	"c":      {Preprocessor: true, CppRawStrings: true, LineContinuations: true, DollarIdents: true, Numbers: NumbersC, Operators: []string{"::", "->", "&&"}},
	"rust":   {NestedComments: true, RustLiterals: true, Numbers: NumbersRust, Operators: []string{"::", "->", "=>"}},
	"csharp": {Preprocessor: true, CSharpLiterals: true, Operators: []string{"=>", "::", "??"}},
	"go":     {BacktickStrings: true},
}

func FuzzOldClassify(f *testing.F) {
	for _, s := range []string{"a // b\n/* c\n d */ e\n", "\"a\\\nb\"\n", "R\"x(a\n)x\"\n", "'a' 'b\n", "r#\"a\n\"# /* /* */ */\n", "@\"a\n\"\"b\"\n\"\"\"\nx\n\"\"\"\n", "`a\nb`\n"} {
		for n := range diffSyntaxes {
			f.Add(n, s)
		}
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		syn, ok := diffSyntaxes[name]
		if !ok {
			return
		}
		old := oldClassify(syn, []byte(src))
		got := Lex(syn, []byte(src)).LineKinds()
		if len(old) == 0 && len(got) == 0 {
			return
		}
		if !reflect.DeepEqual(old, got) {
			t.Fatalf("%s %q: old %v new %v", name, src, old, got)
		}
	})
}

func TestOldClassifyKnown(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"c", "\"a\\\n// b\"\n"},
		{"c", "x = 1'000; /* a\n b */\n"},
		{"rust", "cr#\"a\n// \"#\n"},
		{"c", "/* a */ x\n\"\\\n"},
		{"csharp", "$\"\"\"\n// x\n\"\"\"\n"},
		{"c", "x\r\r\n \r\n"},
	} {
		old := oldClassify(diffSyntaxes[c.name], []byte(c.src))
		got := Lex(diffSyntaxes[c.name], []byte(c.src)).LineKinds()
		if !reflect.DeepEqual(old, got) {
			t.Logf("%s %q: old %v new %v", c.name, c.src, old, got)
		}
	}
}
