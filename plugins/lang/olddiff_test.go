package lang

import (
	"os"
	"reflect"
	"strings"
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

// TestOldClassifyCorpus compares the old classifier with the new one over
// the files listed (one path a line) in $OSBENCH_OLDDIFF_<name>.
func TestOldClassifyCorpus(t *testing.T) {
	for name, syn := range diffSyntaxes {
		files := corpusFiles(t, name)
		diffs := 0
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			old, got := oldClassify(syn, src), Lex(syn, src).LineKinds()
			if !reflect.DeepEqual(old, got) {
				diffs++
				if len(old) != len(got) {
					t.Logf("%s %s: %d lines old, %d new", name, p, len(old), len(got))
				}
				for i := range old {
					if i < len(got) && old[i] != got[i] {
						t.Logf("%s %s:%d: old %v new %v: %q", name, p, i+1, old[i], got[i], strings.Split(string(src), "\n")[i])
						break
					}
				}
			}
		}
		if len(files) > 0 {
			t.Logf("%s: %d files, %d differ", name, len(files), diffs)
		}
	}
}

func corpusFiles(t *testing.T, name string) []string {
	list := os.Getenv("OSBENCH_OLDDIFF_" + strings.ToUpper(name))
	if list == "" {
		return nil
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}
