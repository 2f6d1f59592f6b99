package diffcov

import (
	"testing"
	"testing/fstest"

	"github.com/osbench/osbench/schemas"
)

// FuzzCompute feeds arbitrary source text and line sets through Compute and
// checks the invariants every region must keep, whatever the input.
func FuzzCompute(f *testing.F) {
	f.Add("a.go", []byte(goSrc), []byte{3, 4, 5, 8}, []byte{3}, []byte{3, 4, 5, 8, 10}, 3)
	f.Add("x/y.rs", []byte("let s = r#\"\n/*\n\"#;\n/* a /* b */ */\nfn f() {}\n"), []byte{1, 5}, []byte{}, []byte{}, 4)
	f.Add("a.cs", []byte("var s = @\"\n\"\"\n\";\n"), []byte{1, 3}, []byte{0}, []byte{1}, -1)
	f.Add("w.c", []byte("#ifdef _WIN32\nint a; /*\n*/\n#endif\n"), []byte{2, 9, 200}, []byte{9}, []byte{2, 9}, 0)
	f.Fuzz(func(t *testing.T, path string, text, targetLines, sourceLines, instrumented []byte, maxGap int) {
		if maxGap > 1000 || maxGap < -1000 {
			return // a huge gap only makes the test slow
		}
		ints := func(b []byte) []int {
			s := make([]int, len(b))
			for i, v := range b {
				s[i] = int(v)
			}
			return s
		}
		source := schemas.Coverage{Platform: "linux", Files: []schemas.FileCoverage{{Path: path, Executed: ints(sourceLines)}}}
		target := schemas.Coverage{Platform: "windows", Files: []schemas.FileCoverage{{Path: path, Executed: ints(targetLines), Instrumented: ints(instrumented)}}}
		fsys := fstest.MapFS{}
		if path != "" && path[len(path)-1] != '/' {
			fsys[path] = &fstest.MapFile{Data: text}
		}
		regions, err := Compute(fsys, source, target, Options{MaxGap: maxGap})
		if err != nil {
			return // bad paths and line 0 are reported, which is all we ask
		}
		diff := map[int]bool{}
		for _, l := range ints(targetLines) {
			diff[l] = true
		}
		for _, l := range ints(sourceLines) {
			delete(diff, l)
		}
		seen := 0
		prevEnd := 0
		for _, r := range regions {
			if r.File != path || IsTestFile(path) {
				t.Fatalf("region in %q from coverage of %q", r.File, path)
			}
			if r.Start > r.End || len(r.Lines) == 0 || r.Lines[0] != r.Start || r.Lines[len(r.Lines)-1] != r.End {
				t.Fatalf("malformed region %+v", r)
			}
			if r.Start <= prevEnd {
				t.Fatalf("regions overlap or are unsorted: %+v", regions)
			}
			prevEnd = r.End
			for i, l := range r.Lines {
				if !diff[l] {
					t.Fatalf("line %d is not differential: %+v", l, r)
				}
				if i > 0 && l <= r.Lines[i-1] {
					t.Fatalf("lines not ascending: %+v", r)
				}
			}
			seen += len(r.Lines)
		}
		if !IsTestFile(path) && seen != len(diff) {
			t.Fatalf("regions hold %d lines, D_t has %d", seen, len(diff))
		}
	})
}
