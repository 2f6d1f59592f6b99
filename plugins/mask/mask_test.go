package mask

import (
	"context"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func region(start, end int) schemas.VerifiedRegion {
	return schemas.VerifiedRegion{Region: schemas.Region{Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}
}

// shared is a region of a function the source platform compiles too.
func shared(start, end int) schemas.VerifiedRegion {
	r := region(start, end)
	r.SourceCompiled = true
	return r
}

func TestRegistry(t *testing.T) {
	if got := Names(); !reflect.DeepEqual(got, []string{"rules"}) {
		t.Errorf("Names() = %v", got)
	}
	if m, ok := Lookup("rules"); !ok || m == nil {
		t.Errorf("Lookup(rules) = %v, %v", m, ok)
	}
}

func TestMaskRefuses(t *testing.T) {
	goSrc := []byte("package p\n\nfunc f() int {\n\treturn 1\n}\n")
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"go test file", Input{Path: "p_test.go", Source: goSrc, Regions: []schemas.VerifiedRegion{region(4, 4)}}, "test files"},
		{"c test dir", Input{Path: "tests/main.c", Source: []byte("int x;\n")}, "test files"},
		{"unknown language", Input{Path: "lib.zig", Source: []byte("fn f() void {}\n")}, "no language"},
		{"unsupported language", Input{Path: "x.py", Language: "python", Source: []byte("x = 1\n")}, "does not handle"},
		{"c# test project", Input{Path: "Lib.Tests/PathTests.cs", Source: []byte("class A {}\n")}, "test files"},
		{"region past the end", Input{Path: "p.go", Source: goSrc, Regions: []schemas.VerifiedRegion{region(4, 9)}}, "outside the file"},
		{"region of another file", Input{Path: "p.go", Source: goSrc, Regions: []schemas.VerifiedRegion{{Region: schemas.Region{File: "q.go", Start: 4, End: 4}}}}, "belongs to q.go"},
		{"unparsable Go", Input{Path: "p.go", Source: []byte("package p\nfunc {\n"), Regions: []schemas.VerifiedRegion{region(2, 2)}}, "p.go:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Rules{}.Mask(context.Background(), tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestMaskGo covers the Go rules one at a time on small files.
func TestMaskGo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		regions []schemas.VerifiedRegion
		want    string
		kinds   []string
	}{
		{
			name:    "named results without an error give a bare return",
			src:     "package p\n\nfunc f() (n int, ok bool) {\n\tn = 1\n\treturn n, true\n}\n",
			regions: []schemas.VerifiedRegion{region(4, 5)},
			want:    "package p\n\nfunc f() (n int, ok bool) {\n\treturn\n}\n",
			kinds:   []string{KindFunctionBody},
		},
		{
			name:    "an error result gets the neutral error, errors is imported",
			src:     "package p\n\nfunc f() (n int, err error) {\n\tn = 1\n\treturn n, nil\n}\n",
			regions: []schemas.VerifiedRegion{region(4, 5)},
			want:    "package p\n\nimport \"errors\"\n\nfunc f() (n int, err error) {\n\treturn 0, errors.New(\"not implemented on this platform\")\n}\n",
			kinds:   []string{KindFunctionBody, KindImport},
		},
		{
			name: "shared: a run becomes an early return, a variable used after keeps a zero declaration",
			src: "package p\n\nfunc f(w bool) string {\n\tx := 0\n\tif w {\n\t\ts := \"a\"\n\t\tprintln(x)\n\t\t_ = s\n\t}\n\tx = 3\n\treturn \"\"\n}\n" +
				"\nfunc g(w bool) int {\n\tif w {\n\t\tprintln()\n\t}\n\ty := \"w\"\n\treturn len(y)\n}\n",
			regions: []schemas.VerifiedRegion{shared(6, 8), shared(18, 18)},
			want: "package p\n\nfunc f(w bool) string {\n\tx := 0\n\tif w {\n\t\t_ = x\n\t\treturn \"\"\n\t}\n\tx = 3\n\treturn \"\"\n}\n" +
				"\nfunc g(w bool) int {\n\tif w {\n\t\tprintln()\n\t}\n\tvar y string\n\treturn 0\n\treturn len(y)\n}\n",
			kinds: []string{KindStatements, KindStatements},
		},
		{
			name:    "shared: a declaration of unknown type is kept, after the early return",
			src:     "package p\n\nfunc f() int {\n\tprintln()\n\ty := h()\n\treturn y\n}\n\nfunc h() int { return 1 }\n",
			regions: []schemas.VerifiedRegion{shared(4, 5)},
			want:    "package p\n\nfunc f() int {\n\treturn 0\n\ty := h()\n\treturn y\n}\n\nfunc h() int { return 1 }\n",
			kinds:   []string{KindStatements},
		},
		{
			name:    "shared: switch case bodies are emptied, the clause stays",
			src:     "package p\n\nimport \"os\"\n\nfunc f(s string) string {\n\tswitch s {\n\tcase \"w\":\n\t\treturn os.Getenv(\"A\")\n\tdefault:\n\t\treturn \"\"\n\t}\n}\n",
			regions: []schemas.VerifiedRegion{shared(7, 8)},
			want:    "package p\n\nfunc f(s string) string {\n\tswitch s {\n\tcase \"w\":\n\t\treturn \"\"\n\tdefault:\n\t\treturn \"\"\n\t}\n}\n",
			kinds:   []string{KindStatements, KindImport},
		},
		{
			name:    "local types and type parameters",
			src:     "package p\n\ntype S struct{}\n\ntype K int\n\nfunc f[T any]() (S, K, T, [2]int) {\n\tpanic(1)\n}\n",
			regions: []schemas.VerifiedRegion{region(8, 8)},
			want:    "package p\n\ntype S struct{}\n\ntype K int\n\nfunc f[T any]() (S, K, T, [2]int) {\n\treturn S{}, 0, *new(T), [2]int{}\n}\n",
			kinds:   []string{KindFunctionBody},
		},
		{
			name:    "false positives are never masked; top-level code is not masked",
			src:     "package p\n\nvar v = 1\n\nfunc f() int {\n\treturn 1\n}\n",
			regions: []schemas.VerifiedRegion{region(3, 3), {Region: schemas.Region{Start: 6, End: 6}, Verdict: schemas.Verdict{Label: schemas.LabelFalsePositive}}},
			want:    "package p\n\nvar v = 1\n\nfunc f() int {\n\treturn 1\n}\n",
			kinds:   []string{KindUnmasked, KindSkipped},
		},
		{
			name:    "shared: function literals are functions of their own",
			src:     "package p\n\nfunc f() func() int {\n\tprintln()\n\treturn func() int {\n\t\treturn 2\n\t}\n}\n",
			regions: []schemas.VerifiedRegion{shared(6, 6)},
			want:    "package p\n\nfunc f() func() int {\n\tprintln()\n\treturn func() int {\n\t\treturn 0\n\t}\n}\n",
			kinds:   []string{KindFunctionBody},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Rules{}.Mask(context.Background(), Input{Path: "p.go", Source: []byte(tc.src), Regions: tc.regions})
			if err != nil {
				t.Fatal(err)
			}
			if string(out.Source) != tc.want {
				t.Errorf("masked:\n%s\nwant:\n%s", out.Source, tc.want)
			}
			var kinds []string
			for _, a := range out.Actions {
				kinds = append(kinds, a.Kind)
			}
			if !reflect.DeepEqual(kinds, tc.kinds) {
				t.Errorf("action kinds = %v, want %v (%+v)", kinds, tc.kinds, out.Actions)
			}
		})
	}
}

// FuzzMaskGo: whatever the source and regions, Mask never panics, and a
// masked file it returns parses.
func FuzzMaskGo(f *testing.F) {
	f.Add([]byte("package p\n\nimport \"os\"\n\nfunc f() (string, error) {\n\tif true {\n\t\treturn os.Getenv(\"X\"), nil\n\t}\n\treturn \"\", nil\n}\n"), 6, 8, false)
	f.Add([]byte("package p\n\nfunc f() { x := 1; _ = x }\n"), 3, 3, true)
	f.Add([]byte("package p\nfunc f() int {\n\tswitch {\n\tdefault:\n\t\treturn 1\n\t}\n}\n"), 5, 5, false)
	f.Fuzz(func(t *testing.T, src []byte, start, end int, coarse bool) {
		out, err := Rules{}.Mask(context.Background(), Input{Path: "p.go", Source: src, Coarse: coarse,
			Regions: []schemas.VerifiedRegion{region(start, end)}})
		if err != nil {
			return
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out.Source, parser.ParseComments); err != nil {
			t.Errorf("masked output does not parse: %v\n%s", err, out.Source)
		}
	})
}
