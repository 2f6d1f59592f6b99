package cfamily_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// The shapes of the corpus's C libraries whose masked repository did not
// build for the target even with whole function bodies masked (cmocka
// windows->linux, json-c linux->windows, jansson windows->linux), each cut
// down to the few lines that broke it. Every masked file must compile for
// the target with -Wall -Werror, and the source's compiler must see
// exactly what it saw before masking.
func TestCorpusShapesBuildMasked(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	for _, tc := range []struct {
		name    string
		src     string
		regions []schemas.VerifiedRegion
		coarse  bool
		target  []string // the target compiler's definitions
		source  []string // the source compiler's
		has     []string // in the masked file
		hasNot  []string // not in it
	}{
		{
			// cmocka's exception_handler: defined in the Linux branch, a
			// nested feature group inside. The body's placeholder and the
			// coarse guard of the nested branch were both applied, leaving
			// an #endif without its #if.
			name: "a function of a masked branch with a nested group inside",
			src: "#include <string.h>\nvoid report(const char *s);\n" +
				"#ifndef _WIN32\nstatic void handler(int sig) {\n    const char *why = \"\";\n\n#ifdef HAVE_STRSIGNAL\n" +
				"    why = strsignal(sig);\n#endif\n\n    report(why);\n}\n#else\nstatic void handler(int sig) { (void)sig; }\n#endif\n" +
				"void install(void) { handler(0); }\n",
			regions: []schemas.VerifiedRegion{masktest.Region(5, 11)},
			coarse:  true,
			target:  []string{"-DHAVE_STRSIGNAL"},
			source:  []string{"-D_WIN32"},
		},
		{
			// json-c's tokenizer: its only use of a static validator is
			// through a macro, so the placeholder must name the validator.
			name: "a static helper used only through a macro",
			src: "static int valid(char c);\n#define PEEK(c, s) (valid(*(s)) ? ((c) = *(s), 1) : 0)\n" +
				"int parse(const char *s)\n{\n    char c = 0;\n    int n = 0;\n#ifdef HAVE_USELOCALE\n    n = 1;\n" +
				"#elif defined(HAVE_SETLOCALE)\n    n = 2;\n    n++;\n#endif\n    while (PEEK(c, s))\n        s++, n++;\n    return n + c;\n}\n" +
				"static int valid(char c) { return c != 0; }\n",
			regions: []schemas.VerifiedRegion{masktest.Region(10, 11)},
			coarse:  true,
			target:  []string{"-DHAVE_SETLOCALE", "-Werror=unused-function"},
			source:  []string{"-DHAVE_USELOCALE"},
		},
		{
			// json-c's random seed: the helpers its coarse placeholder
			// left unused are declared under #ifdef WIN32 and #ifndef
			// HAVE_ARC4RANDOM, so they are named under those conditions;
			// one whose condition's macro is redefined on the way is not.
			name: "statics declared under conditions",
			src: "#ifdef WIN32\nstatic int crypt_seed(int *s) { *s = 4; return 0; }\n#define HAVE_CRYPT 1\n#endif\n" +
				"#ifndef HAVE_ARC4RANDOM\nstatic int time_seed(void) { return 7; }\n#endif\n" +
				"#ifdef HAVE_DEVRANDOM\nstatic int dev_seed(void) { return 9; }\n#endif\n#undef HAVE_DEVRANDOM\n" +
				"int get_seed(void)\n{\n#ifdef HAVE_DEVRANDOM\n    return dev_seed();\n#endif\n#ifdef HAVE_CRYPT\n    {\n        int s = 0;\n" +
				"        if (crypt_seed(&s) == 0)\n            return s;\n    }\n#endif\n#ifndef HAVE_ARC4RANDOM\n    return time_seed();\n#endif\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(19, 20)},
			coarse:  true,
			target:  []string{"-DWIN32"},
			source:  nil,
			has:     []string{"#if defined(WIN32)\n    (void)crypt_seed;\n#endif", "#if !defined(HAVE_ARC4RANDOM)\n    (void)time_seed;"},
			hasNot:  []string{"(void)dev_seed;"},
		},
		{
			// jansson.h: a specifier spelt through a macro is no type,
			// and "(JSON_INLINE int){0}" does not compile.
			name: "a result type with a specifier macro",
			src: "#define JSON_INLINE inline\ntypedef struct { int n; } json_t;\n" +
				"#ifndef _WIN32\nstatic JSON_INLINE int count(json_t *j) {\n    return j->n;\n}\n" +
				"static JSON_INLINE void drop(json_t *j) {\n    j->n--;\n}\n" +
				"static JSON_INLINE json_t *keep(json_t *j) {\n    j->n++;\n    return j;\n}\n#endif\n" +
				"int use(json_t *j) {\n#ifndef _WIN32\n    drop(keep(j));\n    return count(j);\n#else\n    return j->n;\n#endif\n}\n",
			regions: []schemas.VerifiedRegion{masktest.Region(5, 5), masktest.Region(8, 8), masktest.Region(11, 12)},
			target:  nil,
			source:  []string{"-D_WIN32"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "f.c", Source: []byte(tc.src),
				Regions: tc.regions, Coarse: tc.coarse})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			before, after := filepath.Join(dir, "before.c"), filepath.Join(dir, "after.c")
			for f, b := range map[string][]byte{before: []byte(tc.src), after: out.Source} {
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			masked := false
			for _, a := range out.Actions {
				masked = masked || a.Kind != mask.KindUnmasked
			}
			if !masked {
				t.Fatalf("nothing masked: %+v", out.Actions)
			}
			for _, h := range tc.has {
				if !strings.Contains(string(out.Source), h) {
					t.Errorf("the masked file lacks %q:\n%s", h, out.Source)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(string(out.Source), h) {
					t.Errorf("the masked file has %q:\n%s", h, out.Source)
				}
			}
			cc := func(args ...string) (string, error) {
				b, err := exec.Command(gcc, args...).CombinedOutput()
				return string(b), err
			}
			args := append([]string{"-std=gnu99", "-Wall", "-Werror", "-c", "-o", filepath.Join(dir, "f.o"), after}, tc.target...)
			if msg, err := cc(args...); err != nil {
				t.Errorf("the target build of the masked file fails: %v\n%s\n%s", err, msg, out.Source)
			}
			pp := func(file string) string {
				msg, err := cc(append([]string{"-std=gnu99", "-E", "-P", file}, tc.source...)...)
				if err != nil {
					t.Fatalf("preprocessing %s: %v\n%s", file, err, msg)
				}
				return msg
			}
			if a, b := pp(after), pp(before); a != b {
				t.Errorf("the source's compiler sees other code after masking:\n%s\nbefore:\n%s", a, b)
			}
		})
	}
}
