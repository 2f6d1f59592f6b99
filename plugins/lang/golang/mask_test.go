package golang_test

import (
	"context"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// shared is a region of a function the source platform compiles too.
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
			regions: []schemas.VerifiedRegion{masktest.Region(4, 5)},
			want:    "package p\n\nfunc f() (n int, ok bool) {\n\treturn\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
		{
			name:    "an error result gets the neutral error, errors is imported",
			src:     "package p\n\nfunc f() (n int, err error) {\n\tn = 1\n\treturn n, nil\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(4, 5)},
			want:    "package p\n\nimport \"errors\"\n\nfunc f() (n int, err error) {\n\treturn 0, errors.New(\"not implemented on this platform\")\n}\n",
			kinds:   []string{mask.KindFunctionBody, mask.KindImport},
		},
		{
			name: "shared: a run becomes an early return, a variable used after keeps a zero declaration",
			src: "package p\n\nfunc f(w bool) string {\n\tx := 0\n\tif w {\n\t\ts := \"a\"\n\t\tprintln(x)\n\t\t_ = s\n\t}\n\tx = 3\n\treturn \"\"\n}\n" +
				"\nfunc g(w bool) int {\n\tif w {\n\t\tprintln()\n\t}\n\ty := \"w\"\n\treturn len(y)\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(6, 8), masktest.Shared(18, 18)},
			want: "package p\n\nfunc f(w bool) string {\n\tx := 0\n\tif w {\n\t\t_ = x\n\t\treturn \"\"\n\t}\n\tx = 3\n\treturn \"\"\n}\n" +
				"\nfunc g(w bool) int {\n\tif w {\n\t\tprintln()\n\t}\n\tvar y string\n\treturn 0\n\treturn len(y)\n}\n",
			kinds: []string{mask.KindStatements, mask.KindStatements},
		},
		{
			name:    "shared: a declaration of unknown type is kept, after the early return",
			src:     "package p\n\nfunc f() int {\n\tprintln()\n\ty := h()\n\treturn y\n}\n\nfunc h() int { return 1 }\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(4, 5)},
			want:    "package p\n\nfunc f() int {\n\treturn 0\n\ty := h()\n\treturn y\n}\n\nfunc h() int { return 1 }\n",
			kinds:   []string{mask.KindStatements},
		},
		{
			name:    "shared: switch case bodies are emptied, the clause stays",
			src:     "package p\n\nimport \"os\"\n\nfunc f(s string) string {\n\tswitch s {\n\tcase \"w\":\n\t\treturn os.Getenv(\"A\")\n\tdefault:\n\t\treturn \"\"\n\t}\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(7, 8)},
			want:    "package p\n\nfunc f(s string) string {\n\tswitch s {\n\tcase \"w\":\n\t\treturn \"\"\n\tdefault:\n\t\treturn \"\"\n\t}\n}\n",
			kinds:   []string{mask.KindStatements, mask.KindImport},
		},
		{
			name:    "local types and type parameters",
			src:     "package p\n\ntype S struct{}\n\ntype K int\n\nfunc f[T any]() (S, K, T, [2]int) {\n\tpanic(1)\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(8, 8)},
			want:    "package p\n\ntype S struct{}\n\ntype K int\n\nfunc f[T any]() (S, K, T, [2]int) {\n\treturn S{}, 0, *new(T), [2]int{}\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
		{
			name:    "false positives are never masked; top-level code is not masked",
			src:     "package p\n\nvar v = 1\n\nfunc f() int {\n\treturn 1\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(3, 3), {Region: schemas.Region{Start: 6, End: 6}, Verdict: schemas.Verdict{Label: schemas.LabelFalsePositive}}},
			want:    "package p\n\nvar v = 1\n\nfunc f() int {\n\treturn 1\n}\n",
			kinds:   []string{mask.KindUnmasked, mask.KindSkipped},
		},
		{
			name:    "shared: function literals are functions of their own",
			src:     "package p\n\nfunc f() func() int {\n\tprintln()\n\treturn func() int {\n\t\treturn 2\n\t}\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Shared(6, 6)},
			want:    "package p\n\nfunc f() func() int {\n\tprintln()\n\treturn func() int {\n\t\treturn 0\n\t}\n}\n",
			kinds:   []string{mask.KindFunctionBody},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "p.go", Source: []byte(tc.src), Regions: tc.regions})
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

// FuzzMaskGo: whatever the source, the file beside it and the regions,
// Mask never panics, and a masked file it returns parses.
func FuzzMaskGo(f *testing.F) {
	f.Add([]byte("package p\n\nimport \"os\"\n\nfunc f() (string, error) {\n\tif true {\n\t\treturn os.Getenv(\"X\"), nil\n\t}\n\treturn \"\", nil\n}\n"), []byte(nil), 6, 8, false)
	f.Add([]byte("package p\n\nfunc f() { x := 1; _ = x }\n"), []byte(nil), 3, 3, true)
	f.Add([]byte("package p\nfunc f() int {\n\tswitch {\n\tdefault:\n\t\treturn 1\n\t}\n}\n"), []byte(nil), 5, 5, false)
	f.Add([]byte("package p\n\ntype t struct{ a; *b }\n\nfunc f() (I, bool, error) {\n\treturn nil, false, nil\n}\n"),
		[]byte("package p\n\ntype I interface{ J; M() int }\ntype J interface{ N(x, y int) (z error) }\ntype a struct{}\ntype b struct{}\n\nfunc (a) M() int { return 0 }\nfunc (*b) N(int, int) error { return nil }\n"), 6, 6, true)
	f.Fuzz(func(t *testing.T, src, beside []byte, start, end int, coarse bool) {
		out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "p.go", Source: src, Coarse: coarse,
			Regions: []schemas.VerifiedRegion{masktest.Region(start, end)}, Dir: map[string][]byte{"q.go": beside}})
		if err != nil {
			return
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out.Source, parser.ParseComments); err != nil {
			t.Errorf("masked output does not parse: %v\n%s", err, out.Source)
		}
	})
}
