package lm

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden prompts under testdata/prompts")

// fixtureRepos is the root of the fixture repositories (testdata/repos).
const fixtureRepos = "../../testdata/repos"

func readFixture(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRepos, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// promptCases are real files of the fixtures with their target-only
// regions, one per language and direction.
var promptCases = []struct {
	golden string
	in     verify.Input
}{
	{"pathsep_go_windows", verify.Input{Path: "pathsep.go", SourceOS: "linux", TargetOS: "windows", Regions: pathsepRegions}},
	{"probe_c_linux", verify.Input{Path: "src/probe.c", SourceOS: "windows", TargetOS: "linux", Regions: []schemas.Region{
		{File: "src/probe.c", Start: 23, End: 27, Lines: []int{23, 25, 26, 27}},
		{File: "src/probe.c", Start: 55, End: 59, Lines: []int{55, 57, 58, 59}},
	}}},
	{"eol_cpp_windows", verify.Input{Path: "src/eol.cpp", SourceOS: "linux", TargetOS: "windows", Regions: []schemas.Region{
		{File: "src/eol.cpp", Start: 8, End: 8, Lines: []int{8}},
	}}},
	{"paths_rs_windows", verify.Input{Path: "src/paths.rs", SourceOS: "linux", TargetOS: "windows", Regions: []schemas.Region{
		{File: "src/paths.rs", Start: 22, End: 22},
		{File: "src/paths.rs", Start: 35, End: 40},
	}}},
}

func promptCaseSource(t testing.TB, golden string, in verify.Input) []byte {
	t.Helper()
	repo := map[string]string{"pathsep_go_windows": "pathsep", "probe_c_linux": "cpath", "eol_cpp_windows": "cppenc", "paths_rs_windows": "rsplat"}[golden]
	return readFixture(t, repo+"/"+in.Path)
}

func TestPromptsGolden(t *testing.T) {
	for _, tc := range promptCases {
		t.Run(tc.golden, func(t *testing.T) {
			in := tc.in
			in.Source = promptCaseSource(t, tc.golden, in)
			lang, lines, err := checkInput(in)
			if err != nil {
				t.Fatal(err)
			}
			got := "=== system\n" + systemPrompt(lang, in.SourceOS, in.TargetOS) + "=== user\n" + userPrompt(in, lines)
			path := filepath.Join("testdata", "prompts", tc.golden+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("prompt differs from %s (rerun with -update after checking the change):\n%s", path, got)
			}
		})
	}
}

func TestUserPromptMarksTargetLines(t *testing.T) {
	src := "a\r\nb\r\n\r\nc\r\nd\r\n"
	in := verify.Input{Path: "x.go", Source: []byte(src), SourceOS: "windows", TargetOS: "linux",
		Regions: []schemas.Region{{Start: 2, End: 4, Lines: []int{2, 4}}}}
	_, lines, err := checkInput(in)
	if err != nil {
		t.Fatal(err)
	}
	got := userPrompt(in, lines)
	for _, want := range []string{"1     a\n", "2 [L] b\n", "3     \n", "4 [L] c\n", "5     d\n",
		"- start 2, end 4 (not compiled on Windows)"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\r") || strings.Contains(got, "[W]") {
		t.Errorf("prompt keeps CR or marks Windows lines:\n%s", got)
	}
}

func TestSystemPromptPerLanguage(t *testing.T) {
	for lang, want := range map[string]string{
		verify.LangGo:     "runtime.GOOS",
		verify.LangC:      "#ifdef _WIN32",
		verify.LangCPP:    "#if defined(_WIN32)",
		verify.LangRust:   "#[cfg(windows)]",
		verify.LangCSharp: "OperatingSystem.IsWindows()",
	} {
		got := systemPrompt(lang, "linux", "windows")
		if !strings.Contains(got, want) {
			t.Errorf("%s system prompt lacks %q", lang, want)
		}
		for _, label := range schemas.Labels {
			if !strings.Contains(got, "- "+label+": ") {
				t.Errorf("%s system prompt does not define %s", lang, label)
			}
		}
	}
}

func TestSplitLines(t *testing.T) {
	for src, want := range map[string][]string{
		"":           nil,
		"\n":         {""},
		"a":          {"a"},
		"a\nb\n":     {"a", "b"},
		"a\r\nb":     {"a", "b"},
		"a\n\nb\n\n": {"a", "", "b", ""},
	} {
		if got := splitLines([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("splitLines(%q) = %q, want %q", src, got, want)
		}
	}
}
