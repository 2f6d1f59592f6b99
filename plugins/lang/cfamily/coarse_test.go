package cfamily_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/cfamily"
	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/lang/srcedit"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// TestMaskCCoarse covers the guarded placeholder body of shared C
// functions: the guard spells the masked branch's condition, whatever
// directive opened it, and the source's branches stay as they were.
func TestMaskCCoarse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		regions []schemas.VerifiedRegion
		coarse  bool
		want    string
		kinds   []string
	}{
		{
			name: "fine masking removes a declaration the shared code reads",
			src: "int count(const char *p)\n{\n#ifdef _WIN32\n    const char sep = '\\\\';\n#else\n    const char sep = '/';\n#endif\n" +
				"    int n = 0;\n    for (; *p; p++)\n        n += *p == sep;\n    return n;\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(4, 4)},
			want: "int count(const char *p)\n{\n#ifdef _WIN32\n#else\n    const char sep = '/';\n#endif\n" +
				"    int n = 0;\n    for (; *p; p++)\n        n += *p == sep;\n    return n;\n}\n",
			kinds: []string{mask.KindStatements},
		},
		{
			name: "coarse masking guards the whole body instead",
			src: "int count(const char *p)\n{\n#ifdef _WIN32\n    const char sep = '\\\\';\n#else\n    const char sep = '/';\n#endif\n" +
				"    int n = 0;\n    for (; *p; p++)\n        n += *p == sep;\n    return n;\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(4, 4)},
			coarse:  true,
			want: "int count(const char *p)\n{\n#if defined(_WIN32)\n    (void)p;\n    return 0;\n#else\n#ifdef _WIN32\n#else\n    const char sep = '/';\n#endif\n" +
				"    int n = 0;\n    for (; *p; p++)\n        n += *p == sep;\n    return n;\n#endif\n}\n",
			kinds: []string{mask.KindFunctionBody},
		},
		{
			name: "an #elif branch is guarded by its own test and the negation of those before it",
			src: "void put(char *s)\n{\n#if defined(__linux__) || defined(__APPLE__)\n    s[0] = '/';\n#elif defined(_WIN32) /* and Cygwin? */\n" +
				"    char c = '\\\\';\n    s[0] = c;\n#endif\n    s[1] = 0;\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(6, 7)},
			coarse:  true,
			want: "void put(char *s)\n{\n#if !(defined(__linux__) || defined(__APPLE__)) && defined(_WIN32)\n    (void)s;\n    return;\n#else\n" +
				"#if defined(__linux__) || defined(__APPLE__)\n    s[0] = '/';\n#elif defined(_WIN32) /* and Cygwin? */\n#endif\n    s[1] = 0;\n#endif\n}\n",
			kinds: []string{mask.KindFunctionBody},
		},
		{
			name:    "the #else of #ifndef, and a nested group, make one guard",
			src:     "long size(int fd)\n{\n    long n = 0;\n#ifndef _WIN32\n    n = 1;\n#else\n    n = 2;\n#if _MSC_VER > 1900\n    n = 3;\n#endif\n    n++;\n#endif\n    return n;\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(7, 11)},
			coarse:  true,
			want: "long size(int fd)\n{\n#if (defined(_WIN32)) || (defined(_WIN32) && (_MSC_VER > 1900))\n    (void)fd;\n    return 0;\n#else\n" +
				"    long n = 0;\n#ifndef _WIN32\n    n = 1;\n#else\n#endif\n    return n;\n#endif\n}\n",
			kinds: []string{mask.KindFunctionBody, mask.KindFunctionBody},
		},
		{
			name:    "a body whose brace shares a line with code is not guarded",
			src:     "int f(int x) { int y = x;\n#ifdef _WIN32\n    y = 2;\n    y++;\n#endif\n    return y;\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(3, 3)},
			coarse:  true,
			want:    "int f(int x) { int y = x;\n#ifdef _WIN32\n#endif\n    return y;\n}\n",
			kinds:   []string{mask.KindPreprocessorBlock},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "f.c", Source: []byte(tc.src), Regions: tc.regions, Coarse: tc.coarse})
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
			if tc.kinds[0] == mask.KindPreprocessorBlock && !strings.Contains(out.Actions[0].Detail, "coarse declined") {
				t.Errorf("the fallback is not recorded: %+v", out.Actions)
			}
		})
	}
}

// TestMaskCCoarseEveryLine masks each line of the C and C++ fixture
// sources on its own, and all of them at once, coarsely: the edits never
// overlap (applyEdits would report it) and the result keeps the file's
// preprocessor groups balanced.
func TestMaskCCoarseEveryLine(t *testing.T) {
	for _, file := range []string{"cpath/src/pathrules.c", "cpath/src/probe.c", "cppenc/src/wide.cpp", "cppenc/src/textfile.cpp", "cppenc/src/eol.cpp"} {
		src, err := os.ReadFile(filepath.Join(masktest.Dir(""), file))
		if err != nil {
			t.Fatal(err)
		}
		lines := srcedit.CountLines(src)
		var all []schemas.VerifiedRegion
		for l := 1; l <= lines; l++ {
			all = append(all, masktest.Region(l, l))
		}
		for _, regions := range append([][]schemas.VerifiedRegion{all}, splitEach(all)...) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: path.Base(file), Source: src, Regions: regions, Coarse: true})
			if err != nil {
				t.Fatalf("%s lines %d-%d: %v", file, regions[0].Start, regions[len(regions)-1].End, err)
			}
			if opens, closes := cfamily.CountDirectives(out.Source); opens != closes {
				t.Fatalf("%s lines %d-%d: %d groups opened, %d closed:\n%s", file, regions[0].Start, regions[len(regions)-1].End, opens, closes, out.Source)
			}
		}
	}
}

func splitEach(rs []schemas.VerifiedRegion) [][]schemas.VerifiedRegion {
	var out [][]schemas.VerifiedRegion
	for _, r := range rs {
		out = append(out, []schemas.VerifiedRegion{r})
	}
	return out
}

func TestMaskCUnguardedIsLeftAlone(t *testing.T) {
	src := "int f(int x)\n{\n    return x + 1;\n}\n"
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "f.c", Source: []byte(src), Regions: []schemas.VerifiedRegion{masktest.Region(3, 3)}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Source) != src || len(out.Actions) != 1 || out.Actions[0].Kind != mask.KindUnmasked {
		t.Errorf("got %q, actions %+v", out.Source, out.Actions)
	}
}
