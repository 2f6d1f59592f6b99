package diffcov

import (
	"strings"
	"testing"
)

// kindsString renders line kinds one letter a line: c(ode), b(lank), # (comment).
func kindsString(kinds []lineKind) string {
	var b strings.Builder
	for _, k := range kinds {
		b.WriteByte(map[lineKind]byte{lineCode: 'c', lineBlank: 'b', lineComment: '#'}[k])
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
			got := kindsString(classifyLines(languageOf(tt.file), []byte(tt.src)))
			if got != tt.want {
				t.Errorf("classifyLines(%s) = %q, want %q\n%s", tt.file, got, tt.want, tt.src)
			}
		})
	}
}

func TestLanguageOf(t *testing.T) {
	tests := map[string]language{
		"a.go": langGo, "x/y.C": langC, "w.hpp": langC, "lib.rs": langRust,
		"P.cs": langCSharp, "Makefile": langUnknown, "a.py": langUnknown, "go": langUnknown,
	}
	for file, want := range tests {
		if got := languageOf(file); got != want {
			t.Errorf("languageOf(%q) = %v, want %v", file, got, want)
		}
	}
}
