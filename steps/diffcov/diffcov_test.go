package diffcov

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/osbench/osbench/schemas"
)

// file builds one FileCoverage; instrumented nil means "the tool reported no
// instrumentation", which switches off the instrumentation rule.
func file(path string, executed, instrumented []int) schemas.FileCoverage {
	return schemas.FileCoverage{Path: path, Executed: executed, Instrumented: instrumented}
}

func cov(platform string, files ...schemas.FileCoverage) schemas.Coverage {
	return schemas.Coverage{Repository: "r", Platform: platform, Format: "test", Files: files}
}

func region(file string, compiled bool, lines ...int) schemas.Region {
	return schemas.Region{File: file, Start: lines[0], End: lines[len(lines)-1], Lines: lines, SourceCompiled: compiled}
}

func seq(from, to int) []int {
	var s []int
	for l := from; l <= to; l++ {
		s = append(s, l)
	}
	return s
}

// goSrc: the Windows branch (lines 4-5) and the shared tail (8-9) are
// separated by a closing brace, an else line and a comment.
const goSrc = `package a

func f() {
	if windows {
		win()
	} else {
		// unix keeps the default
		shared()
	}
	tail()
}
`

func TestCompute(t *testing.T) {
	fsys := fstest.MapFS{
		"a.go":         {Data: []byte(goSrc)},
		"a_test.go":    {Data: []byte(goSrc)},
		"gap.go":       {Data: []byte("package a\nx()\n\n// one\n/* two\n three */\ny()\n")},
		"code.go":      {Data: []byte("package a\nx()\nz()\ny()\n")},
		"win.c":        {Data: []byte("#ifdef _WIN32\nint a;\n#else\nint b;\n#endif\nint c;\n")},
		"tests/x.rs":   {Data: []byte("fn f() {}\n")},
		"lib/paths.rs": {Data: []byte("fn a() {}\n\n/* x\n*/\nfn b() {}\n")},
	}
	tests := []struct {
		name   string
		src    fstest.MapFS
		source schemas.Coverage
		target schemas.Coverage
		opts   Options
		want   []schemas.Region
	}{
		{
			name:   "consecutive lines merge",
			source: cov("linux", file("a.go", []int{3}, seq(3, 10))),
			target: cov("windows", file("a.go", []int{3, 4, 5}, seq(3, 10))),
			want:   []schemas.Region{region("a.go", true, 4, 5)},
		},
		{
			name:   "closing brace, else and comment are bridged",
			source: cov("linux", file("a.go", []int{3}, []int{3, 4, 5, 8, 10})),
			target: cov("windows", file("a.go", []int{3, 4, 5, 8}, []int{3, 4, 5, 8, 10})),
			want:   []schemas.Region{{File: "a.go", Start: 4, End: 8, Lines: []int{4, 5, 8}, SourceCompiled: true}},
		},
		{
			name:   "an instrumented line in the gap splits",
			source: cov("linux", file("a.go", []int{3}, []int{3, 4, 5, 6, 8, 10})),
			target: cov("windows", file("a.go", []int{3, 4, 5, 8}, []int{3, 4, 5, 6, 8, 10})),
			want:   []schemas.Region{region("a.go", true, 4, 5), region("a.go", true, 8)},
		},
		{
			name:   "a gap wider than MaxGap splits",
			src:    fsys,
			source: cov("linux", file("a.go", []int{3}, []int{3, 4, 5, 8, 10})),
			target: cov("windows", file("a.go", []int{3, 4, 5, 8}, []int{3, 4, 5, 8, 10})),
			opts:   Options{MaxGap: 1},
			want:   []schemas.Region{region("a.go", true, 4, 5), region("a.go", true, 8)},
		},
		{
			name:   "negative MaxGap merges only consecutive lines",
			source: cov("linux"),
			target: cov("windows", file("gap.go", []int{2, 3, 7}, []int{2, 7})),
			opts:   Options{MaxGap: -1},
			want:   []schemas.Region{region("gap.go", false, 2, 3), region("gap.go", false, 7)},
		},
		{
			name:   "blank and comment lines bridge without instrumentation data",
			source: cov("linux"),
			target: cov("windows", file("gap.go", []int{2, 7}, nil)),
			opts:   Options{MaxGap: 4},
			want:   []schemas.Region{{File: "gap.go", Start: 2, End: 7, Lines: []int{2, 7}}},
		},
		{
			name:   "default MaxGap is 3",
			source: cov("linux"),
			target: cov("windows", file("gap.go", []int{2, 7}, nil)),
			want:   []schemas.Region{region("gap.go", false, 2), region("gap.go", false, 7)},
		},
		{
			name:   "an uninstrumented code line never bridges without instrumentation data",
			source: cov("linux"),
			target: cov("windows", file("code.go", []int{2, 4}, nil)),
			want:   []schemas.Region{region("code.go", false, 2), region("code.go", false, 4)},
		},
		{
			name:   "a file the source did not compile",
			source: cov("linux", file("other.go", []int{1}, []int{1})),
			target: cov("windows", file("gap.go", []int{2, 7}, []int{2, 7})),
			opts:   Options{MaxGap: 4},
			want:   []schemas.Region{{File: "gap.go", Start: 2, End: 7, Lines: []int{2, 7}}},
		},
		{
			name:   "preprocessor lines gcov does not instrument are bridged",
			source: cov("linux", file("win.c", []int{4, 6}, []int{4, 6})),
			target: cov("windows", file("win.c", []int{2, 6}, []int{2, 6})),
			want:   []schemas.Region{region("win.c", true, 2)},
		},
		{
			name:   "rust comment gap",
			source: cov("linux"),
			target: cov("windows", file("lib/paths.rs", []int{1, 5}, []int{1, 5})),
			want:   []schemas.Region{{File: "lib/paths.rs", Start: 1, End: 5, Lines: []int{1, 5}}},
		},
		{
			name:   "test files never yield regions",
			source: cov("linux"),
			target: cov("windows", file("a_test.go", []int{4, 5}, nil), file("tests/x.rs", []int{1}, nil)),
			want:   nil,
		},
		{
			name:   "lines executed on both are not differential",
			source: cov("linux", file("a.go", []int{3, 4, 5}, seq(3, 10))),
			target: cov("windows", file("a.go", []int{3, 4, 5}, seq(3, 10))),
			want:   nil,
		},
		{
			name:   "a file missing from the tree bridges by instrumentation only",
			src:    fstest.MapFS{},
			source: cov("linux"),
			target: cov("windows", file("gen.go", []int{1, 4}, []int{1, 4})),
			want:   []schemas.Region{{File: "gen.go", Start: 1, End: 4, Lines: []int{1, 4}}},
		},
		{
			name:   "unsorted and repeated input is normalised; files sort by path",
			source: cov("linux", file("b.go", nil, nil), file("a.go", []int{3}, nil), file("a.go", []int{4}, nil)),
			target: cov("windows", file("b.go", []int{2, 1, 2}, []int{1, 2}), file("a.go", []int{5, 3, 4}, seq(3, 10))),
			want:   []schemas.Region{region("a.go", true, 5), region("b.go", true, 1, 2)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if src == nil {
				src = fsys
			}
			got, err := Compute(src, tt.source, tt.target, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("regions:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestComputeRejectsBadCoverage(t *testing.T) {
	tests := []struct {
		name           string
		source, target schemas.Coverage
		want           string
	}{
		{"absolute path", cov("linux"), cov("windows", file("/abs/a.go", []int{1}, nil)), `windows coverage of "r": file "/abs/a.go"`},
		{"escaping path", cov("linux", file("../a.go", []int{1}, nil)), cov("windows"), `linux coverage of "r": file "../a.go"`},
		{"backslash-free but dotted path", cov("linux"), cov("windows", file("./a.go", nil, nil)), `file "./a.go"`},
		{"line zero", cov("linux"), cov("windows", file("a.go", []int{0}, nil)), "windows coverage of \"r\": a.go executed: line 0 out of range"},
		{"negative instrumented line", cov("linux", file("a.go", nil, []int{-2})), cov("windows"), "a.go instrumented: line -2 out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compute(fstest.MapFS{}, tt.source, tt.target, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestRegionsRejectsBadFileLines(t *testing.T) {
	tests := []struct {
		name string
		diff []FileLines
		want string
	}{
		{"line zero", []FileLines{{Path: "a.go", Lines: []int{0, 3}}}, "a.go: line 0 out of range"},
		{"bad path", []FileLines{{Path: "a/../../b.go", Lines: []int{1}}}, `file "a/../../b.go"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Regions(nil, tt.diff, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLines(t *testing.T) {
	source := cov("linux", file("a.go", []int{1, 2}, []int{1, 2, 3}), file("a_test.go", nil, []int{1}))
	target := cov("windows", file("a.go", []int{2, 3}, []int{1, 2, 3}), file("a_test.go", []int{1}, []int{1}), file("w.go", []int{7}, []int{7}))
	got, err := Lines(source, target)
	if err != nil {
		t.Fatal(err)
	}
	want := []FileLines{
		{Path: "a.go", Lines: []int{3}, SourceCompiled: true, Instrumented: []int{1, 2, 3}},
		{Path: "w.go", Lines: []int{7}, SourceCompiled: false, Instrumented: []int{7}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines:\n got %+v\nwant %+v", got, want)
	}
}
