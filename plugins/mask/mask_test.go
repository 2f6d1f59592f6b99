package mask

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func region(start, end int) schemas.VerifiedRegion {
	return schemas.VerifiedRegion{Region: schemas.Region{Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}
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
