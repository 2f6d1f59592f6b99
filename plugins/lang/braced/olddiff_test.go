package braced

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
)

var diffSyntaxes = map[string]lang.Syntax{
	"c":      {Preprocessor: true, CppRawStrings: true, LineContinuations: true, DollarIdents: true, Numbers: lang.NumbersC, Operators: []string{"::", "->", "&&"}},
	"rust":   {NestedComments: true, RustLiterals: true, Numbers: lang.NumbersRust, Operators: []string{"::", "->", "=>"}},
	"csharp": {Preprocessor: true, CSharpLiterals: true, Operators: []string{"=>", "::", "??"}},
}

func FuzzOldLex(f *testing.F) {
	for _, s := range []string{"a // b\n/* c\n d */ e\n", "\"a\\\nb\"\n", "R\"x(a\n)x\"\n", "'a' 'b\n", "r#\"a\n\"# /* /* */ */ b'x' b\"y\" 'a &'b str\n", "@\"a\n\"\"b\"\n\"\"\"\nx\n\"\"\"\n $\"a{b}\"", "L\"x\" u8\"y\" '\\n'\n#define X \"\\\\\"\n"} {
		for n := range diffSyntaxes {
			f.Add(n, s)
		}
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		syn, ok := diffSyntaxes[name]
		if !ok {
			return
		}
		if knownDivergence(name, src) {
			return
		}
		old := oldLex(syn, src)
		lx := lang.Lex(syn, []byte(src))
		code := lx.LineCode()
		if !reflect.DeepEqual(old.Code, code) {
			t.Fatalf("%s %q: code\nold %q\nnew %q", name, src, old.Code, code)
		}
		var lits []Lit
		for _, l := range lx.Literals() {
			lits = append(lits, Lit{Line: l.Line, Shown: l.Shown, Value: l.Value})
		}
		if !reflect.DeepEqual(old.Lits, lits) {
			t.Fatalf("%s %q: lits\nold %+v\nnew %+v", name, src, old.Lits, lits)
		}
	})
}

// rustCharDiffers: a character literal whose end lang.RustChar (the rule
// the maskers and the classifier used) puts elsewhere than the old verify
// lexer's escape-aware scan did ('\0\'0, a newline in quotes).
func rustCharDiffers(src string) bool {
	for i := 0; i < len(src); i++ {
		if src[i] != '\'' {
			continue
		}
		n := lang.RustChar(src[i:])
		if n == 0 {
			continue
		}
		q := i + 1
		for q < len(src) && src[q] != '\'' && src[q] != '\n' {
			if src[q] == '\\' {
				q++
			}
			q++
		}
		closed := q < len(src) && src[q] == '\''
		if closed {
			q++
		}
		if q-i != n || closed != (src[i+n-1] == '\'' && n > 1 && (src[i+1] != '\\' || n >= 4)) {
			return true
		}
	}
	return false
}

// rustRawIdentQuote: a raw identifier ending in r glued to a quote (r#r"),
// which the old lexer read as a raw string after r#.
var rustRawIdentQuote = regexp.MustCompile(`r#\w*r[#"]|'[bc]?r[#"]`)

var cDigitSep = regexp.MustCompile(`[0-9][^ \t\n\r'"(){};,]*'`)

// knownDivergence: the inputs on which the one lexer reads literals as the
// maskers (and the language) do and the old verify lexer did not.
func knownDivergence(name, src string) bool {
	switch name {
	case "c":
		return cDigitSep.MatchString(src) || strings.Contains(src, "R\"") || strings.Contains(src, "/*/")
	case "csharp":
		return csGluedVerbatim(src) || strings.Contains(src, "@@") || strings.Contains(src, `""""`) || strings.Contains(src, `$"""`) || strings.Contains(src, "$$") || strings.Contains(src, "/*/")
	case "rust":
		return strings.Contains(src, "cr\"") || strings.Contains(src, "cr#") || strings.Contains(src, "'''") || rustCharDiffers(src) || rustRawIdentQuote.MatchString(src)
	}
	return false
}

// csGluedVerbatim: a verbatim string glued to an identifier (x@"…"), which
// the old lexer did not take for one.
func csGluedVerbatim(src string) bool {
	for i := 1; i < len(src); i++ {
		if (src[i] == '@' || src[i] == '$') && oldIsIdentByte(src[i-1]) {
			return true
		}
	}
	return false
}

// TestOldLexCorpus compares the old verify lexer with lang.Lex's views
// over the files listed (one path a line) in $OSBENCH_OLDDIFF_<name>.
func TestOldLexCorpus(t *testing.T) {
	for name, syn := range diffSyntaxes {
		list := os.Getenv("OSBENCH_OLDDIFF_" + strings.ToUpper(name))
		if list == "" {
			continue
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
			old := oldLex(syn, string(src))
			lx := lang.Lex(syn, src)
			code := lx.LineCode()
			var lits []Lit
			for _, l := range lx.Literals() {
				lits = append(lits, Lit{Line: l.Line, Shown: l.Shown, Value: l.Value})
			}
			switch {
			case !reflect.DeepEqual(old.Code, code):
				diffs++
				for i := range old.Code {
					if i >= len(code) || old.Code[i] != code[i] {
						t.Logf("%s %s:%d: code\nold %q\nnew %q", name, p, i+1, old.Code[i], code[min(i, len(code)-1)])
						break
					}
				}
			case !reflect.DeepEqual(old.Lits, lits):
				diffs++
				for i := range old.Lits {
					if i >= len(lits) || old.Lits[i] != lits[i] {
						t.Logf("%s %s: literal %d\nold %+v\nnew %+v", name, p, i, old.Lits[i], lits[min(i, len(lits)-1)])
						break
					}
				}
			}
		}
		t.Logf("%s: %d files, %d differ", name, len(files), diffs)
	}
}
