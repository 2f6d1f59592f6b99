package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// snippetCases are small files with one region each (the lines marked
// with "// R" or "/* R */"), for every language and label.
var snippetCases = []struct {
	name, path, src string
	sourceCompiled  bool
	want            string
}{
	{"go build tag", "a.go", "//go:build windows\n\npackage a\n\nfunc f() int {\n\treturn 1 // R\n}\n", false, schemas.LabelConditional},
	{"go file suffix api", "a_windows.go", "package a\n\nimport \"golang.org/x/sys/windows\"\n\nfunc f() {\n\twindows.GetCurrentProcessId() // R\n}\n", false, schemas.LabelAPI},
	{"go goos path", "a.go", "package a\n\nimport (\n\t\"os\"\n\t\"runtime\"\n)\n\nfunc dir() string {\n\tif runtime.GOOS == \"windows\" {\n\t\treturn os.Getenv(\"APPDATA\") // R\n\t}\n\treturn \"\"\n}\n", true, schemas.LabelPath},
	{"go goos encoding", "a.go", "package a\n\nimport \"runtime\"\n\nfunc eol() string {\n\tswitch runtime.GOOS {\n\tcase \"windows\":\n\t\treturn \"\\r\\n\" // R\n\t}\n\treturn \"\\n\"\n}\n", true, schemas.LabelEncoding},
	{"go fallback", "a.go", "package a\n\nimport \"errors\"\n\nfunc f(err error) bool {\n\tif errors.Is(err, errors.ErrUnsupported) {\n\t\treturn true // R\n\t}\n\treturn false\n}\n", true, schemas.LabelOtherFeature},
	{"go false positive", "a.go", "package a\n\n// Text in a comment: runtime.GOOS, \"\\r\\n\", APPDATA.\nfunc f(x int) int {\n\tif x > 3 {\n\t\treturn x * 2 // R\n\t}\n\treturn x\n}\n", true, schemas.LabelFalsePositive},
	{"go early return guard", "a.go", "package a\n\nimport \"runtime\"\n\nfunc root(p string) string {\n\tif runtime.GOOS != \"windows\" {\n\t\treturn \"/\"\n\t}\n\tn := len(p)\n\treturn p[:n-1] // R\n}\n", true, schemas.LabelConditional},
	{"go early return is not an else without return", "a.go", "package a\n\nimport \"runtime\"\n\nfunc root(p string) string {\n\tif runtime.GOOS != \"windows\" {\n\t\tp = \"/\"\n\t}\n\tn := len(p)\n\treturn p[:n-1] // R\n}\n", true, schemas.LabelFalsePositive},
	{"go errno every OS has", "a.go", "package a\n\nimport \"syscall\"\n\ntype ro struct{}\n\nfunc (ro) Remove(name string) error {\n\treturn syscall.EPERM // R\n}\n", true, schemas.LabelFalsePositive},
	{"go errno under a guard", "a_windows.go", "package a\n\nimport \"syscall\"\n\nfunc f() error {\n\treturn syscall.EPERM // R\n}\n", false, schemas.LabelAPI},
	{"go windows-only syscall in shared code", "a.go", "package a\n\nimport \"syscall\"\n\nfunc f(p *uint16) error {\n\t_, err := syscall.GetFileAttributes(p) // R\n\treturn err\n}\n", true, schemas.LabelAPI},
	{"c ifdef conditional", "a.c", "int f(void)\n{\n#ifdef __linux__\n    return 1; /* R */\n#endif\n    return 0;\n}\n", true, schemas.LabelConditional},
	{"c win32 api", "a.c", "#include <windows.h>\nint f(const char *p)\n{\n#if defined(_WIN32) && !defined(__CYGWIN__)\n    return CreateFileA(p, 0, 0, 0, 0, 0, 0) != 0; /* R */\n#endif\n}\n", true, schemas.LabelAPI},
	{"c posix fork", "a.c", "int f(void)\n{\n#ifndef _WIN32\n    return fork(); /* R */\n#else\n    return -1;\n#endif\n}\n", true, schemas.LabelAPI},
	{"c build probe conditional", "a.c", "int f(void)\n{\n    int n = 0;\n#ifdef HAVE_USELOCALE\n    n = 1; /* R */\n#elif defined(HAVE_SETLOCALE)\n    n = 2;\n#endif\n    return n;\n}\n", true, schemas.LabelConditional},
	{"cpp project platform macro", "a.cc", "int f()\n{\n#if GTEST_OS_WINDOWS\n    return 2; // R\n#else\n    return 1;\n#endif\n}\n", true, schemas.LabelConditional},
	{"c project platform macro", "a.c", "int f(void)\n{\n    int n = 0;\n#if defined(LEVELDB_PLATFORM_POSIX)\n    n = 1; /* R */\n#endif\n    return n;\n}\n", true, schemas.LabelConditional},
	{"c project feature macro is no guard", "a.c", "int f(void)\n{\n    int n = 0;\n#if GTEST_HAS_EXCEPTIONS\n    n = 1; /* R */\n#endif\n    return n;\n}\n", true, schemas.LabelFalsePositive},
	{"c other macro is no guard", "a.c", "int f(void)\n{\n    int n = 0;\n#ifdef ENABLE_DEBUG\n    n = 1; /* R */\n#endif\n    return n;\n}\n", true, schemas.LabelFalsePositive},
	{"c string does not fool", "a.c", "const char *f(int x)\n{\n    if (x)\n        return \"#ifdef _WIN32 GetFileAttributesA fork()\"; /* R */\n    return 0;\n}\n", true, schemas.LabelFalsePositive},
	{"cpp encoding", "a.cpp", "namespace n {\nint f(const char *s, wchar_t *w)\n{\n#if defined(_WIN32)\n    return MultiByteToWideChar(CP_UTF8, 0, s, -1, w, 8); // R\n#endif\n}\n}\n", true, schemas.LabelEncoding},
	{"cpp path", "a.cpp", "bool sep(char c)\n{\n#ifdef _WIN32\n    return c == '\\\\' || c == '/'; // R\n#else\n    return c == '/';\n#endif\n}\n", true, schemas.LabelPath},
	{"cpp false positive", "a.cpp", "int add(int a, int b)\n{\n    int s = a + b; // R\n    return s;\n}\n", true, schemas.LabelFalsePositive},
	{"rust cfg conditional", "a.rs", "pub fn f() -> u32 {\n    #[cfg(target_os = \"linux\")]\n    {\n        return 1; // R\n    }\n    0\n}\n", true, schemas.LabelConditional},
	{"rust cfg api", "a.rs", "#[cfg(unix)]\npub fn mode(p: &std::path::Path) -> u32 {\n    use std::os::unix::fs::PermissionsExt;\n    std::fs::metadata(p).unwrap().permissions().mode() // R\n}\n", true, schemas.LabelAPI},
	{"rust cfg macro encoding", "a.rs", "pub fn eol() -> &'static str {\n    if cfg!(windows) {\n        \"\\r\\n\" // R\n    } else {\n        \"\\n\"\n    }\n}\n", true, schemas.LabelEncoding},
	{"rust else of cfg macro", "a.rs", "pub fn n() -> u8 {\n    if cfg!(windows) {\n        2\n    } else {\n        1 // R\n    }\n}\n", true, schemas.LabelConditional},
	{"rust raw string and lifetime", "a.rs", "pub fn f<'a>(s: &'a str) -> &'a str {\n    let _x = r#\"#[cfg(windows)] \"}\" libc::\"#;\n    s // R\n}\n", true, schemas.LabelFalsePositive},
	{"csharp is windows", "A.cs", "class A {\n    int F() {\n        if (OperatingSystem.IsWindows()) {\n            return 1; // R\n        }\n        return 0;\n    }\n}\n", true, schemas.LabelConditional},
	{"csharp separator", "A.cs", "class A {\n    bool F(char c) {\n        return c == Path.DirectorySeparatorChar; // R\n    }\n}\n", true, schemas.LabelPath},
	{"csharp dllimport", "A.cs", "class A {\n    [DllImport(\"kernel32.dll\")]\n    static extern uint GetTickCount();\n    [SupportedOSPlatform(\"windows\")]\n    uint F() {\n        return GetTickCount(); // R\n    }\n}\n", true, schemas.LabelAPI},
	{"csharp registry", "A.cs", "using Microsoft.Win32;\nclass A {\n    object F() {\n        return Registry.CurrentUser.OpenSubKey(@\"Software\\X\"); // R\n    }\n}\n", true, schemas.LabelAPI},
	{"csharp verbatim string does not fool", "A.cs", "class A {\n    string F() {\n        var s = @\"OperatingSystem.IsWindows() \"\" Registry.X\";\n        return s; // R\n    }\n}\n", true, schemas.LabelFalsePositive},
}

func TestRulesSnippets(t *testing.T) {
	for _, c := range snippetCases {
		t.Run(c.name, func(t *testing.T) {
			line := markedLine(t, c.src)
			in := Input{Path: c.path, Source: []byte(c.src), SourceOS: "linux", TargetOS: "windows",
				Regions: []schemas.Region{{File: c.path, Start: line, End: line, Lines: []int{line}, SourceCompiled: c.sourceCompiled}}}
			vs, err := Rules{}.Verify(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 1 {
				t.Fatalf("%d verdicts, want 1", len(vs))
			}
			v := vs[0]
			if v.Label != c.want {
				t.Errorf("label %s, want %s (%s)", v.Label, c.want, v.Explanation)
			}
			checkVerdictShape(t, v)
			if c.want == schemas.LabelFalsePositive && (v.Confidence > 0.4 || !strings.Contains(v.Explanation, "no platform evidence")) {
				t.Errorf("false positive needs low confidence and a reason: %.2f %q", v.Confidence, v.Explanation)
			}
		})
	}
}

func markedLine(t *testing.T, src string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.HasSuffix(l, "// R") || strings.HasSuffix(l, "/* R */") {
			return i + 1
		}
	}
	t.Fatal("no line marked R")
	return 0
}

var snakeRe = func(s string) bool {
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' && i > 0) {
			return false
		}
	}
	return s != ""
}

func checkVerdictShape(t *testing.T, v schemas.Verdict) {
	t.Helper()
	if !contains(schemas.Labels, v.Label) {
		t.Errorf("label %q is not one of %v", v.Label, schemas.Labels)
	}
	if !snakeRe(v.FeatureGroup) {
		t.Errorf("feature group %q is not snake_case", v.FeatureGroup)
	}
	if v.Confidence < 0 || v.Confidence > 1 || v.FunctionalArea == "" || v.Explanation == "" || v.Verifier != RulesName {
		t.Errorf("incomplete verdict %+v", v)
	}
}

func TestRulesErrors(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"unknown language", Input{Path: "a.txt", Source: []byte("x\n"), Regions: []schemas.Region{{Start: 1, End: 1}}}, "unsupported language"},
		{"region past the end", Input{Path: "a.c", Source: []byte("int x;\n"), Regions: []schemas.Region{{Start: 1, End: 9}}}, "outside the file"},
		{"region backwards", Input{Path: "a.rs", Source: []byte("fn f() {}\n"), Regions: []schemas.Region{{Start: 1, End: 0}}}, "outside the file"},
		{"unparsable go", Input{Path: "a.go", Source: []byte("package\n"), Regions: []schemas.Region{{Start: 1, End: 1}}}, "a.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Rules{}.Verify(context.Background(), tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestRegistryAndLanguage(t *testing.T) {
	v, ok := Lookup(RulesName)
	if !ok {
		t.Fatal("rules verifier is not registered")
	}
	if _, isRules := v.(Rules); !isRules {
		t.Errorf("Lookup(%q) = %T", RulesName, v)
	}
	if !contains(Names(), RulesName) {
		t.Errorf("Names() = %v", Names())
	}
	for file, want := range map[string]string{"a/b.go": LangGo, "x.h": LangC, "x.HPP": LangCPP, "lib.rs": LangRust, "P.cs": LangCSharp, "README": ""} {
		if got := LanguageOf(file); got != want {
			t.Errorf("LanguageOf(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"isHidden": "is_hidden", "HTTPServer": "http_server", "Writer.WriteLine": "writer_write_line", "cpath_is_sep": "cpath_is_sep", "UTF16Ptr": "utf16_ptr", "": ""} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVerdictPerRegionInOrder(t *testing.T) {
	// No early return: the code after the if runs on every platform.
	src := []byte("package a\n\nimport \"runtime\"\n\nfunc f() int {\n\tn := 2\n\tif runtime.GOOS == \"windows\" {\n\t\tn = 1\n\t}\n\treturn n\n}\n")
	regions := []schemas.Region{{Start: 10, End: 10, SourceCompiled: true}, {Start: 8, End: 8, SourceCompiled: true}}
	vs, err := Rules{}.Verify(context.Background(), Input{Path: "a.go", Source: src, Regions: regions})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Label != schemas.LabelFalsePositive || vs[1].Label != schemas.LabelConditional {
		t.Errorf("verdicts %+v, want false-positive then platform-conditional", vs)
	}
}
