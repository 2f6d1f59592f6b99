package lang_test

import (
	"strings"
	"testing"

	. "github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all"
)

// kindsString renders line kinds one letter a line: c(ode), b(lank), # (comment).
func kindsString(kinds []LineKind) string {
	var b strings.Builder
	for _, k := range kinds {
		b.WriteByte(map[LineKind]byte{LineCode: 'c', LineBlank: 'b', LineComment: '#'}[k])
	}
	return b.String()
}

func TestClassifyLines(t *testing.T) {
	tests := []struct {
		name string
		file string
		src  string
		want string
	}{
		{"go basics", "a.go", "package a\n\n// doc\n\t  \nfunc f() {}\n", "cb#bc"},
		{"go block comment spans lines", "a.go", "/* one\ntwo\n*/\nx := 1 /* tail\n*/ y()\n", "###cc"},
		{"go comment after code is code", "a.go", "x := 1 // why\n", "c"},
		{"go slashes in a string are not a comment", "a.go", "s := \"http://x\"\n", "c"},
		{"go string hides a comment opener", "a.go", "s := \"/*\"\n// real\n", "c#"},
		{"go escaped quote stays in the string", "a.go", "s := \"a\\\"/*\"\n// real\n", "c#"},
		{"go rune quote does not open a string", "a.go", "c := '\"' /* x\n*/\n", "c#"},
		{"go raw string spans lines", "a.go", "s := `\n/* not a comment\n// nor this\n`\n// real\n", "cccc#"},
		{"crlf endings", "a.go", "// a\r\n\r\nx\r\n", "#bc"},
		{"no final newline", "a.go", "x\n// y", "c#"},
		{"c preprocessor lines are code", "a.c", "#ifdef _WIN32\n/* win */\n#endif\n", "c#c"},
		{"c comment closes mid-line then code", "a.c", "/* a */ int x;\n/* a */ /* b */\n", "c#"},
		{"c block comments do not nest", "a.c", "/* /* */\nint x;\n", "#c"},
		{"c++ raw string spans lines", "a.cpp", "auto s = R\"x(\n// in )\" still\n)x\";\n// real\n", "ccc#"},
		{"c++ prefixed raw string", "a.hpp", "auto s = u8R\"(\n/*\n)\";\nint y;\n", "cccc"},
		{"c++ R is an identifier elsewhere", "a.cpp", "int R = 1; // r\n/* c */\n", "c#"},
		{"rust comments nest", "a.rs", "/* a /* b */ still\n*/\nfn f() {}\n", "##c"},
		{"rust strings span lines", "a.rs", "let s = \"\n// in string\n\";\n// real\n", "ccc#"},
		{"rust raw string with hashes", "a.rs", "let s = r#\"\n\"/* quote\n\"#;\n/* c */\n", "ccc#"},
		{"rust byte raw string", "a.rs", "let s = br\"\n//\n\";\n", "ccc"},
		{"rust lifetime is not a char", "a.rs", "fn f<'a>(x: &'a str) {} // ok\n/* c */\n", "c#"},
		{"rust char literals", "a.rs", "let a = ['\\'','\"']; let e = '\\\\'; /* c\n*/\n", "c#"},
		{"c# verbatim string spans lines", "a.cs", "var s = @\"C:\\dir\\\n\"\" // in\n\";\n// real\n", "ccc#"},
		{"c# interpolated verbatim", "a.cs", "var s = $@\"\n/*\n\";\n", "ccc"},
		{"c# raw string", "a.cs", "var s = \"\"\"\n\" // in\n\"\"\";\n// real\n", "ccc#"},
		{"unknown language: only blank lines", "a.py", "# comment\n\nx = 1\n", "cbc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kindsString(ClassifyLines(Of(tt.file), []byte(tt.src)))
			if got != tt.want {
				t.Errorf("ClassifyLines(%s) = %q, want %q\n%s", tt.file, got, tt.want, tt.src)
			}
		})
	}
}

// TestRustChar is the one rule of characters against lifetimes, as all
// three lexers now read it.
func TestRustChar(t *testing.T) {
	for s, want := range map[string]int{
		"'a'": 3, "'\\n'": 4, "'\\''": 4, "'\\\\'": 4, "'\\u{e9}'": 8, "'é'": 4,
		"'a>(x": 0, "'static str": 0, "'a, 'b>": 0, "'outer: loop": 0, "'": 0,
		"'\\'\n": 3, // unterminated escape: ends at the line
	} {
		if got := RustChar(s); got != want {
			t.Errorf("RustChar(%q) = %d, want %d", s, got, want)
		}
		if got := RustChar([]byte(s)); got != want {
			t.Errorf("RustChar([]byte %q) = %d, want %d", s, got, want)
		}
	}
}
