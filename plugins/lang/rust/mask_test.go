package rust_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/lang/rust"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// TestMaskRust covers the Rust rules one at a time on small files.
func TestMaskRust(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		regions []schemas.VerifiedRegion
		coarse  bool
		want    string // "" when the source must come out unchanged
		kinds   []string
	}{
		{
			name:    "a tail block becomes the zero of the result",
			src:     "fn f(p: &str) -> Option<char> {\n    #[cfg(windows)]\n    {\n        p.chars().next()\n    }\n    #[cfg(unix)]\n    {\n        None\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(4, 4)},
			want:    "fn f(p: &str) -> Option<char> {\n    #[cfg(windows)]\n    {\n        Default::default()\n    }\n    #[cfg(unix)]\n    {\n        None\n    }\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "a Result gets Ok of a zero",
			src:     "fn f() -> Result<u32, Error> {\n    #[cfg(unix)]\n    { Ok(7) }\n    #[cfg(not(unix))]\n    { Ok(1) }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			want:    "fn f() -> Result<u32, Error> {\n    #[cfg(unix)]\n    { Ok(Default::default()) }\n    #[cfg(not(unix))]\n    { Ok(1) }\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "an io::Result gets the neutral error",
			src:     "fn f() -> io::Result<u32> {\n    #[cfg(unix)]\n    { Ok(7) }\n    #[cfg(not(unix))]\n    { Ok(1) }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			want:    "fn f() -> io::Result<u32> {\n    #[cfg(unix)]\n    { " + rust.RustNeutralError + " }\n    #[cfg(not(unix))]\n    { Ok(1) }\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name: "a file the source does not compile: every function the region touches loses its body",
			src: "use std::io;\n\npub fn attrs(p: &str) -> Result<u32, io::Error> {\n    let m = meta(p)?;\n    Ok(m)\n}\n\n" +
				"fn meta(p: &str) -> io::Result<u32> {\n    Ok(p.len() as u32)\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(4, 4), masktest.Region(9, 9), masktest.Region(15, 15)},
			want: "use std::io;\n\npub fn attrs(p: &str) -> Result<u32, io::Error> {\n    let _ = p;\n    " + rust.RustNeutralError + "\n}\n\n" +
				"fn meta(p: &str) -> io::Result<u32> {\n    let _ = p;\n    " + rust.RustNeutralError + "\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
			kinds: []string{mask.KindFunctionBody, mask.KindFunctionBody, mask.KindUnmasked},
		},
		{
			name:    "a statement block is emptied",
			src:     "fn f() -> u8 {\n    #[cfg(windows)]\n    {\n        setup();\n    }\n    3\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(4, 4)},
			want:    "fn f() -> u8 {\n    #[cfg(windows)]\n    {\n    }\n    3\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "a cfg! branch at the tail gets the zero, the other branch is kept",
			src:     "fn sep() -> char {\n    if cfg!(windows) {\n        '\\\\'\n    } else {\n        '/'\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			want:    "fn sep() -> char {\n    if cfg!(windows) {\n        Default::default()\n    } else {\n        '/'\n    }\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "the else of a cfg! test is the other platform's branch",
			src:     "fn f() {\n    if cfg!(windows) {\n        a();\n    } else {\n        b();\n    }\n    c();\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(5, 5)},
			want:    "fn f() {\n    if cfg!(windows) {\n        a();\n    } else {\n    }\n    c();\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "a cfg! branch inside an expression is left",
			src:     "fn f() -> u8 {\n    let x = if cfg!(windows) {\n        1\n    } else {\n        2\n    };\n    x\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			kinds:   []string{mask.KindUnmasked},
		},
		{
			name:    "a target-only function keeps its signature",
			src:     "#[cfg(windows)]\nfn split(list: &str, n: usize) -> Vec<String> {\n    list.split(';').take(n).map(String::from).collect()\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			want:    "#[cfg(windows)]\nfn split(list: &str, n: usize) -> Vec<String> {\n    let _ = (list, n);\n    Default::default()\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
		{
			name:    "a method of a cfg'd impl, unit result",
			src:     "struct W;\n#[cfg(windows)]\nimpl W {\n    pub fn go(&self, x: u8) {\n        run(x);\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(5, 5)},
			want:    "struct W;\n#[cfg(windows)]\nimpl W {\n    pub fn go(&self, x: u8) {\n        let _ = x;\n    }\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
		{
			name: "primitive constants get zero literals",
			src: "#[cfg(windows)]\nconst SEP: char = '\\\\';\n#[cfg(windows)]\npub(crate) static ON: bool = true;\n" +
				"#[cfg(windows)]\nconst NAME: &'static str = \"NUL\";\n#[cfg(windows)]\nconst MASK: u32 = 0x1 | 0x2;\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(2, 2), masktest.Shared(4, 4), masktest.Shared(6, 6), masktest.Shared(8, 8)},
			want: "#[cfg(windows)]\nconst SEP: char = '\\0';\n#[cfg(windows)]\npub(crate) static ON: bool = false;\n" +
				"#[cfg(windows)]\nconst NAME: &'static str = \"\";\n#[cfg(windows)]\nconst MASK: u32 = 0;\n",
			kinds: []string{mask.KindConstant, mask.KindConstant, mask.KindConstant, mask.KindConstant},
		},
		{
			name:    "a constant of another type is left",
			src:     "#[cfg(windows)]\nconst DIRS: [&str; 2] = [\"a\", \"b\"];\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(2, 2)},
			kinds:   []string{mask.KindUnmasked},
		},
		{
			name:    "use declarations and type aliases are kept",
			src:     "#[cfg(windows)]\nuse std::os::windows::ffi::OsStrExt;\n#[cfg(windows)]\npub type Unit = u16;\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(2, 2), masktest.Shared(4, 4)},
			kinds:   []string{mask.KindUnmasked, mask.KindUnmasked},
		},
		{
			name:    "shared code is left",
			src:     "fn f() -> u8 {\n    4\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(2, 2)},
			kinds:   []string{mask.KindUnmasked},
		},
		{
			name:    "a region covering part of a block is left",
			src:     "fn f() {\n    #[cfg(windows)]\n    {\n        a();\n        b();\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(4, 4)},
			kinds:   []string{mask.KindUnmasked},
		},
		{
			name: "raw strings, lifetimes, chars and nested comments do not confuse the lexer",
			src: "fn f<'a>(s: &'a str) -> &'a str {\n    /* a /* nested } */ comment { */\n    #[cfg(windows)]\n    {\n" +
				"        let _ = (r#\"}\"#, b\"{\", '}', b'{', '\\'', \"\\\"}\");\n        let _: &'a str = s;\n        s\n    }\n" +
				"    #[cfg(unix)]\n    {\n        s\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(5, 7)},
			want: "fn f<'a>(s: &'a str) -> &'a str {\n    /* a /* nested } */ comment { */\n    #[cfg(windows)]\n    {\n" +
				"        Default::default()\n    }\n    #[cfg(unix)]\n    {\n        s\n    }\n}\n",
			kinds: []string{mask.KindPreprocessorBlock},
		},
		{
			name:    "a false positive is skipped",
			src:     "#[cfg(windows)]\nconst A: u8 = 1;\n",
			regions: []schemas.VerifiedRegion{{Region: schemas.Region{Start: 2, End: 2}, Verdict: schemas.Verdict{Label: schemas.LabelFalsePositive}}},
			kinds:   []string{mask.KindSkipped},
		},
		{
			name:    "coarse guards a shared function",
			src:     "fn f(a: u8) -> u8 {\n    #[cfg(windows)]\n    {\n        a + 1\n    }\n    #[cfg(unix)]\n    {\n        a\n    }\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(4, 4)},
			coarse:  true,
			want: "fn f(a: u8) -> u8 {\n    #[cfg(windows)]\n    {\n        let _ = a;\n        Default::default()\n    }\n    #[cfg(not(windows))]\n    {\n" +
				"    #[cfg(windows)]\n    {\n    }\n    #[cfg(unix)]\n    {\n        a\n    }\n    }\n}\n",
			kinds: []string{mask.KindFunctionBody},
		},
		{
			name:    "coarse replaces the body of a target-only function",
			src:     "#[cfg(unix)]\nfn f(a: u8) -> bool {\n    let b = a + 1;\n    b > 2\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(3, 3)},
			coarse:  true,
			want:    "#[cfg(unix)]\nfn f(a: u8) -> bool {\n    let _ = a;\n    Default::default()\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
		{
			name:    "coarse falls back to the fine mask and says so",
			src:     "fn f() -> u8 { #[cfg(windows)] { g(); } 1 }\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(1, 1)},
			coarse:  true,
			want:    "fn f() -> u8 { #[cfg(windows)] {} 1 }\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "src/lib.rs", Source: []byte(tc.src), Regions: tc.regions, Coarse: tc.coarse})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = tc.src
			}
			if string(out.Source) != want {
				t.Errorf("masked:\n%s\nwant:\n%s", out.Source, want)
			}
			var kinds []string
			for _, a := range out.Actions {
				kinds = append(kinds, a.Kind)
			}
			if !reflect.DeepEqual(kinds, tc.kinds) {
				t.Errorf("kinds = %v, want %v (%+v)", kinds, tc.kinds, out.Actions)
			}
			if strings.HasPrefix(tc.name, "coarse falls back") && !strings.Contains(out.Actions[0].Detail, "coarse declined") {
				t.Errorf("the fallback is not reported: %q", out.Actions[0].Detail)
			}
		})
	}
}

// TestMaskRustRefusesTests: test code is never masked, in a tests/
// directory, a #[cfg(test)] module or a #[test] function.
func TestMaskRustRefusesTests(t *testing.T) {
	mod := "fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[cfg(windows)]\n    const A: u8 = 1;\n}\n"
	fn := "#[test]\n#[cfg(windows)]\nfn t() {\n    check();\n}\n"
	_, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "tests/platform.rs", Source: []byte("fn f() {}\n"),
		Regions: []schemas.VerifiedRegion{masktest.Shared(1, 1)}})
	if err == nil || !strings.Contains(err.Error(), "test") {
		t.Errorf("a file under tests/: error = %v, want a refusal of test files", err)
	}
	for _, tc := range []struct {
		name, src string
		line      int
	}{
		{"cfg(test) module", mod, 6},
		{"test function", fn, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "src/lib.rs", Source: []byte(tc.src),
				Regions: []schemas.VerifiedRegion{masktest.Shared(tc.line, tc.line)}})
			if err != nil || string(out.Source) != tc.src {
				t.Fatalf("test code changed or refused: %q, %v", out.Source, err)
			}
			if len(out.Actions) != 1 || out.Actions[0].Kind != mask.KindUnmasked || !strings.Contains(out.Actions[0].Detail, "test code") {
				t.Errorf("actions = %+v, want one unmasked region in test code", out.Actions)
			}
		})
	}
	// A region outside the test module is masked as usual.
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "src/lib.rs", Source: []byte("#[cfg(unix)]\nconst B: u8 = 2;\n" + mod),
		Regions: []schemas.VerifiedRegion{masktest.Shared(2, 2)}})
	if err != nil || !strings.HasPrefix(string(out.Source), "#[cfg(unix)]\nconst B: u8 = 0;\n") {
		t.Errorf("Mask = %q, %v", out.Source, err)
	}
}
