package lang_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all"
)

func syntaxOf(t testing.TB, name string) Syntax {
	l, ok := Lookup(name)
	if !ok {
		t.Fatalf("no language %q", name)
	}
	return l.Syntax
}

// tokenStrings renders the tokens of src, comments left out, as their
// texts, a literal prefixed with "L:", a lifetime with "T:".
func tokenStrings(lx *Lexed) []string {
	var out []string
	for _, tk := range lx.Tokens {
		switch tk.Kind {
		case TokenComment:
			continue
		case TokenLiteral:
			out = append(out, "L:"+lx.Text(tk))
		case TokenLifetime:
			out = append(out, "T:"+lx.Text(tk))
		default:
			out = append(out, lx.Text(tk))
		}
	}
	return out
}

// The rules on which the three lexers before lang.Lex disagreed, each as
// the one lexer now reads it.
func TestLexTokens(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []string
	}{
		{"c++ digit separators stay in the number", CPP, "x = 0x8000'0000u; y = '{';",
			[]string{"x", "=", "0x8000'0000u", ";", "y", "=", "L:'{'", ";"}},
		{"c++ prefixed raw strings", CPP, `a = u8R"(x")"; b = LR"d(y)d";`,
			[]string{"a", "=", `L:u8R"(x")"`, ";", "b", "=", `L:LR"d(y)d"`, ";"}},
		{"a quote may be a raw delimiter", CPP, "s(R\"\"\"(\nx\n)\"\"\");",
			[]string{"s", "(", "L:R\"\"\"(\nx\n)\"\"\"", ")", ";"}},
		{"an identifier ending in R is no raw prefix", CPP, `printf("%"PRIuPTR"\n", x);`,
			[]string{"printf", "(", `L:"%"`, "PRIuPTR", `L:"\n"`, ",", "x", ")", ";"}},
		{"encoding prefixes", C, `L"a" u8'b' u"c"`, []string{`L:L"a"`, "L:u8'b'", `L:u"c"`}},
		{"an escaped newline continues a string", C, "s = \"a\\\n// b\";", []string{"s", "=", "L:\"a\\\n// b\"", ";"}},
		{"an unterminated string ends at its line", C, "s = \"a\nb;", []string{"s", "=", `L:"a`, "b", ";"}},
		{"operators of C", C, "a->b::c && d=>e", []string{"a", "->", "b", "::", "c", "&&", "d", "=", ">", "e"}},
		{"$ in C identifiers", C, "int $x1 = .5e+3;", []string{"int", "$x1", "=", ".5e+3", ";"}},
		{"rust lifetimes, chars and raw strings", Rust, `'a: loop { f::<'b>('c', b'\'', r#"}"#, br"]", cr"x", c"y") }`,
			[]string{"T:'a", ":", "loop", "{", "f", "::", "<", "T:'b", ">", "(", "L:'c'", ",", `L:b'\''`, ",", `L:r#"}"#`, ",", `L:br"]"`, ",", `L:cr"x"`, ",", `L:c"y"`, ")", "}"}},
		{"rust raw identifiers and numbers", Rust, "r#type 1..2 1.5 x.0.max(1) a=>b", []string{"r#type", "1", ".", ".", "2", "1.5", "x", ".", "0", ".", "max", "(", "1", ")", "a", "=>", "b"}},
		{"rust strings span lines", Rust, "\"a\n}\" x", []string{"L:\"a\n}\"", "x"}},
		{"c# verbatim, interpolated and raw strings", CSharp, `@"a""}" $"{b}" $@"c" """d"e""" $"""f""" """"g""""`,
			[]string{`L:@"a""}"`, `L:$"{b}"`, `L:$@"c"`, `L:"""d"e"""`, `L:$"""f"""`, `L:""""g""""`}},
		{"c# verbatim identifiers and operators", CSharp, "@class ?? x => y::z", []string{"@", "class", "??", "x", "=>", "y", "::", "z"}},
		{"go backtick strings", Go, "s := `a\n\"b`", []string{"s", ":", "=", "L:`a\n\"b`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokenStrings(Lex(syntaxOf(t, tt.lang), []byte(tt.src)))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("tokens of %q:\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestLexDirectives(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []string // the directives' text
		tokens          []string // the tokens outside directives
	}{
		{"c continuation and comment", C, "#define A \\\n  1 /* x\n y */\nint a;\n  # if B\n#endif\n",
			[]string{"#define A \\\n  1 /* x\n y */", "# if B", "#endif"}, []string{"int", "a", ";"}},
		{"a string in a c directive", C, "#define S \"/*\"\nint b;\n", []string{`#define S "/*"`}, []string{"int", "b", ";"}},
		{"a comment before # still starts a line", C, "/* a */ #if X\nx; #y\n", []string{"#if X"}, []string{"x", ";", "#", "y"}},
		{"c# directives are one line", CSharp, "#if WINDOWS // x\nclass A {}\n#endif", []string{"#if WINDOWS // x", "#endif"}, []string{"class", "A", "{", "}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lx := Lex(syntaxOf(t, tt.lang), []byte(tt.src))
			var dirs []string
			for _, d := range lx.Directives {
				dirs = append(dirs, tt.src[d.Start:d.End])
				if d.Last != d.Line+strings.Count(tt.src[d.Start:d.End], "\n") {
					t.Errorf("directive %q: lines %d-%d", tt.src[d.Start:d.End], d.Line, d.Last)
				}
			}
			var outside []string
			for _, tk := range lx.Tokens {
				if tk.Kind != TokenComment && !lx.InDirective(tk) {
					outside = append(outside, lx.Text(tk))
				}
			}
			if !reflect.DeepEqual(dirs, tt.want) || !reflect.DeepEqual(outside, tt.tokens) {
				t.Errorf("directives %q, tokens %q\nwant %q, %q", dirs, outside, tt.want, tt.tokens)
			}
		})
	}
}

func TestLexViews(t *testing.T) {
	src := "int f(/* a */ int x) { // tail\n  return g(\"\\\\\", L\"a\\n\", R\"d(x\ny)d\"); /* p /* q */\n}\n"
	lx := Lex(syntaxOf(t, CPP), []byte(src))
	wantCode := []string{"int f(  int x) { ", `  return g("  ", L"   ", R"d( `, ` )d");   `, "}"}
	if got := lx.LineCode(); !reflect.DeepEqual(got, wantCode) {
		t.Errorf("LineCode:\n got %q\nwant %q", got, wantCode)
	}
	wantLits := []Literal{{Line: 2, Shown: `"\\"`, Value: `\`}, {Line: 2, Shown: `"a\n"`, Value: "a\n"}, {Line: 2, Shown: "R\"d(x\ny)d\"", Value: "x\ny"}}
	if got := lx.Literals(); !reflect.DeepEqual(got, wantLits) {
		t.Errorf("Literals:\n got %+v\nwant %+v", got, wantLits)
	}
	cs := Lex(syntaxOf(t, CSharp), []byte(`var s = @"C:\""x"""; var t = $"{a}";`))
	wantCS := []Literal{{Line: 1, Shown: `@"C:\""x"""`, Value: `C:\"x"`}, {Line: 1, Shown: `"{a}"`, Value: "{a}"}}
	if got := cs.Literals(); !reflect.DeepEqual(got, wantCS) {
		t.Errorf("C# Literals:\n got %+v\nwant %+v", got, wantCS)
	}
}

// FuzzLex: tokens are in order, do not overlap, lie in the file, start on
// the line they say, and leave out only white space and line
// continuations; the line views count the file's lines.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"a /* b */ \"c\\\"\" 'd' R\"x(e)x\" #if X\n", "r#\"a\"# 'b' b'c' /* /* */ */", "@\"a\"\"\" $\"\"\"b\"\"\" #if W\n", "`a\nb`", "x\\\ny\r\n"} {
		for _, l := range []string{Go, C, CPP, Rust, CSharp} {
			f.Add(l, s)
		}
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		l, ok := Lookup(name)
		if !ok {
			return
		}
		b := []byte(src)
		lx := Lex(l.Syntax, b)
		at := 0
		for _, tk := range lx.Tokens {
			if tk.Start < at || tk.End <= tk.Start || tk.End > len(b) {
				t.Fatalf("token %+v after offset %d in %d bytes", tk, at, len(b))
			}
			if want := 1 + strings.Count(src[:tk.Start], "\n"); tk.Line != want {
				t.Fatalf("token %+v on line %d, want %d", tk, tk.Line, want)
			}
			gap := src[at:tk.Start]
			gap = strings.ReplaceAll(gap, "\\\n", "")
			if strings.Trim(gap, " \t\r\n\f\v") != "" {
				t.Fatalf("bytes %q between tokens are not white space", gap)
			}
			if tk.Kind == TokenLiteral && tk.Open+tk.Close > tk.End-tk.Start {
				t.Fatalf("literal %+v: delimiters longer than it", tk)
			}
			at = tk.End
		}
		lines := len(lx.LineKinds())
		if code := len(lx.LineCode()); code != max(lines, 1) {
			t.Fatalf("%d code lines for %d classified ones", code, lines)
		}
		for _, lit := range lx.Literals() {
			if lit.Line < 1 || lit.Line > max(lines, 1) || !utf8.ValidString(lit.Shown) && utf8.ValidString(src) && len(lit.Shown) < 40 {
				t.Fatalf("literal %+v", lit)
			}
		}
	})
}

// A C# directive is one line: a comment or a verbatim string it leaves
// open ends with it, and the next line is code again.
func TestLexCSharpDirectiveIsOneLine(t *testing.T) {
	src := "#error use @\"x\n#if WINDOWS /* a\nclass A {}\n#endif\n"
	lx := Lex(syntaxOf(t, CSharp), []byte(src))
	var outside []string
	for _, tk := range lx.Tokens {
		if !lx.InDirective(tk) {
			outside = append(outside, lx.Text(tk))
		}
	}
	if want := []string{"class", "A", "{", "}"}; !reflect.DeepEqual(outside, want) {
		t.Errorf("tokens outside directives %q, want %q", outside, want)
	}
	if got := len(lx.Directives); got != 3 {
		t.Errorf("%d directives, want 3", got)
	}
	if kinds := lx.LineKinds(); kinds[2] != LineCode {
		t.Errorf("line 3 is %v, want code", kinds[2])
	}
}
