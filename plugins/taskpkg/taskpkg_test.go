package taskpkg

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestInstanceID(t *testing.T) {
	tests := []struct{ repo, source, target, want string }{
		{"pathsep", "linux", "windows", "pathsep__linux-to-windows"},
		{"gofrs-flock", "windows", "linux", "gofrs-flock__windows-to-linux"},
		{"a.b_c", "linux", "darwin", "a.b_c__linux-to-darwin"},
	}
	for _, tt := range tests {
		if got := InstanceID(tt.repo, tt.source, tt.target); got != tt.want {
			t.Errorf("InstanceID(%q, %q, %q) = %q, want %q", tt.repo, tt.source, tt.target, got, tt.want)
		}
	}
}

// region makes a verified region of file spanning lines start..end.
func region(file string, start, end int, label string) schemas.VerifiedRegion {
	r := schemas.VerifiedRegion{
		Region:  schemas.Region{File: file, Start: start, End: end},
		Verdict: schemas.Verdict{Label: label},
	}
	for l := start; l <= end; l++ {
		r.Lines = append(r.Lines, l)
	}
	return r
}

// spread makes n regions of lines lines each, one per file f0.go, f1.go, ...
func spread(n, lines int) []schemas.VerifiedRegion {
	var rs []schemas.VerifiedRegion
	for i := range n {
		rs = append(rs, region("f"+string(rune('0'+i))+".go", 1, lines, schemas.LabelPath))
	}
	return rs
}

func TestDifficulty(t *testing.T) {
	tests := []struct {
		name    string
		regions []schemas.VerifiedRegion
		want    string
	}{
		{"no regions", nil, DifficultyEasy},
		{"one line", spread(1, 1), DifficultyEasy},
		{"30 lines in 2 files", spread(2, 15), DifficultyEasy},
		{"31 lines", spread(1, 31), DifficultyMedium},
		{"3 files of 1 line", spread(3, 1), DifficultyMedium},
		{"100 lines in 5 files", spread(5, 20), DifficultyMedium},
		{"101 lines in 1 file", spread(1, 101), DifficultyHard},
		{"6 files of 1 line", spread(6, 1), DifficultyHard},
		{"regions of one file count it once", []schemas.VerifiedRegion{
			region("a.go", 1, 5, schemas.LabelAPI), region("a.go", 10, 14, schemas.LabelAPI), region("b.go", 1, 5, schemas.LabelAPI),
		}, DifficultyEasy},
		{"span counts gap lines: 1..31 is 31 lines though only 2 are differential", []schemas.VerifiedRegion{{
			Region:  schemas.Region{File: "a.go", Start: 1, End: 31, Lines: []int{1, 31}},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional},
		}}, DifficultyMedium},
		{"false positives do not count", append(spread(1, 10), region("big.go", 1, 500, schemas.LabelFalsePositive)), DifficultyEasy},
		{"an inverted region counts no lines", []schemas.VerifiedRegion{region("a.go", 1, 1, schemas.LabelAPI), {
			Region: schemas.Region{File: "a.go", Start: 200, End: 1}, Verdict: schemas.Verdict{Label: schemas.LabelAPI},
		}}, DifficultyEasy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Difficulty(tt.regions, ""); got != tt.want {
				t.Errorf("Difficulty() = %q, want %q", got, tt.want)
			}
		})
	}
}

// The gold patch's hunks count too: small changes in many places.
func TestDifficultyByHunks(t *testing.T) {
	for hunks, want := range map[int]string{0: DifficultyEasy, 3: DifficultyEasy, 4: DifficultyMedium, 10: DifficultyMedium, 11: DifficultyHard} {
		patch := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n" + strings.Repeat("@@ -1,2 +1,1 @@ func f()\n-a\n b\n", hunks)
		if got := Difficulty(spread(1, 2), patch); got != want {
			t.Errorf("%d hunks: %s, want %s", hunks, got, want)
		}
	}
}

func TestCategories(t *testing.T) {
	tests := []struct {
		name    string
		regions []schemas.VerifiedRegion
		want    []string
	}{
		{"none", nil, []string{}},
		{"only false positives", []schemas.VerifiedRegion{region("a.go", 1, 2, schemas.LabelFalsePositive)}, []string{}},
		{"sorted and distinct", []schemas.VerifiedRegion{
			region("a.go", 1, 2, schemas.LabelPath),
			region("b.go", 1, 2, schemas.LabelAPI),
			region("c.go", 1, 2, schemas.LabelFalsePositive),
			region("d.go", 1, 2, schemas.LabelPath),
			region("e.go", 1, 2, schemas.LabelEncoding),
		}, []string{schemas.LabelAPI, schemas.LabelEncoding, schemas.LabelPath}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Categories(tt.regions); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Categories() = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestInstruction(t *testing.T) {
	tests := []struct {
		name                           string
		repo, source, target, language string
		mustContain                    []string
	}{
		{"go to windows", "pathsep", "linux", "windows", "go",
			[]string{`Go repository "pathsep"`, "for Linux only", "Port it to Windows", "run on Windows, must pass", "passes on Linux", "Do not add, edit or delete test files"}},
		{"c to linux", "cpath", "windows", "linux", "c",
			[]string{`C repository "cpath"`, "for Windows only", "Port it to Linux"}},
		{"macOS and C#", "x", "darwin", "windows", "csharp", []string{"C# repository", "for macOS only"}},
		{"unknown names are kept", "x", "plan9", "linux", "zig", []string{"zig repository", "for plan9 only"}},
		{"c++ as written", "x", "linux", "windows", "C++", []string{"C++ repository"}},
	}
	var all strings.Builder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Instruction(tt.repo, tt.source, tt.target, tt.language)
			for _, want := range tt.mustContain {
				if !strings.Contains(got, want) {
					t.Errorf("instruction lacks %q:\n%s", want, got)
				}
			}
			all.WriteString("== " + tt.name + "\n" + got)
		})
	}
	golden(t, "instruction.golden", []byte(all.String()))
}

func TestTaskJSONHasNoNullLists(t *testing.T) {
	task := schemas.Task{Regions: []schemas.VerifiedRegion{{}}, Environment: map[string]schemas.TestEnvironment{"linux": {}}}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("nil lists encoded as null: %s", b)
	}
	for _, key := range []string{`"FAIL_TO_PASS":[]`, `"PASS_TO_PASS":[]`, `"PASS_ON_SOURCE":[]`, `"categories":[]`, `"lines":[]`, `"test_command":[]`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("%s missing from %s", key, b)
		}
	}
	if task.Regions[0].Lines != nil || task.Environment["linux"].TestCommand != nil {
		t.Error("MarshalJSON changed the task it encoded")
	}
}
