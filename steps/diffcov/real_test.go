package diffcov

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// The coverage under testdata/coverage was produced by osbench itself
// (`osbench build manifests/examples/{fsapi,pathsep}.hcl`, Windows under
// Wine) over the fixtures in testdata/repos; regenerate it when a fixture
// changes.
const fixtures = "../../testdata/repos"

func loadCoverage(t *testing.T, repo, platform string) schemas.Coverage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "coverage", repo+"-"+platform+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c schemas.Coverage
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// lineOf is the line number of the only line of a fixture file holding text.
func lineOf(t *testing.T, repo, file, text string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, repo, file))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, text) {
			if found != 0 {
				t.Fatalf("%s/%s: %q is on lines %d and %d", repo, file, text, found, i+1)
			}
			found = i + 1
		}
	}
	if found == 0 {
		t.Fatalf("%s/%s: no line holds %q", repo, file, text)
	}
	return found
}

// covered reports whether a region lists the line as differential.
func covered(regions []schemas.Region, file string, line int) bool {
	for _, r := range regions {
		if r.File == file {
			for _, l := range r.Lines {
				if l == line {
					return true
				}
			}
		}
	}
	return false
}

type anchor struct{ file, text string }

func TestRealCoverage(t *testing.T) {
	tests := []struct {
		repo, source, target string
		// inside must each be a differential line; outside never; files
		// lists files whose regions must all say "not compiled on source".
		inside, outside []anchor
		notCompiled     string
	}{
		{
			repo: "fsapi", source: "linux", target: "windows",
			inside: []anchor{
				{"attrs_windows.go", "func attributes("},
				{"attrs_windows.go", "syscall.GetFileAttributes(p)"},
				{"attrs_windows.go", "func isHidden("},
				{"attrs_windows.go", "attrs |= syscall.FILE_ATTRIBUTE_HIDDEN"},
				{"attrs_windows.go", "syscall.SetFileAttributes(p, attrs)"},
				{"attrs_windows.go", "func isWritable("},
				{"attrs_windows.go", `syscall.Getenv("USERPROFILE")`},
			},
			notCompiled: "attrs_windows.go",
		},
		{
			repo: "fsapi", source: "windows", target: "linux",
			inside: []anchor{
				{"attrs_unix.go", "func isHidden("},
				{"attrs_unix.go", "func homeDir("},
			},
			outside:     []anchor{{"attrs_windows.go", "func isHidden("}},
			notCompiled: "attrs_unix.go",
		},
		{
			repo: "pathsep", source: "linux", target: "windows",
			inside: []anchor{
				{"pathsep.go", `return c == '\\' || c == '/'`},
				{"pathsep.go", `b[i] = '\\'`},
				{"pathsep.go", "return upperASCII(p[0]), true"},
				{"pathsep.go", "return splitQuotedList(list)"},
				{"pathsep.go", "case c == ';' && !quoted:"},
				{"join.go", "func checkWindowsName("},
			},
			outside: []anchor{
				{"pathsep.go", "\treturn c == '/'"},
				{"pathsep.go", `strings.Split(list, ":")`},
			},
		},
		{
			repo: "pathsep", source: "windows", target: "linux",
			inside: []anchor{
				{"pathsep.go", "\treturn c == '/'"},
				{"pathsep.go", `strings.Split(list, ":")`},
			},
			outside: []anchor{
				{"pathsep.go", `return c == '\\' || c == '/'`},
				{"pathsep.go", "return splitQuotedList(list)"},
			},
		},
	}
	for _, tt := range tests {
		name := tt.repo + "-" + tt.source + "-" + tt.target
		t.Run(name, func(t *testing.T) {
			regions, err := Compute(os.DirFS(filepath.Join(fixtures, tt.repo)),
				loadCoverage(t, tt.repo, tt.source), loadCoverage(t, tt.repo, tt.target), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range tt.inside {
				if l := lineOf(t, tt.repo, a.file, a.text); !covered(regions, a.file, l) {
					t.Errorf("%s:%d (%s) is in no region", a.file, l, a.text)
				}
			}
			for _, a := range tt.outside {
				if l := lineOf(t, tt.repo, a.file, a.text); covered(regions, a.file, l) {
					t.Errorf("%s:%d (%s) is in a region", a.file, l, a.text)
				}
			}
			for _, r := range regions {
				if IsTestFile(r.File) {
					t.Errorf("region in test file %s", r.File)
				}
				if r.SourceCompiled == (r.File == tt.notCompiled) {
					t.Errorf("%s:%d-%d: SourceCompiled = %v", r.File, r.Start, r.End, r.SourceCompiled)
				}
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".json"), regions)
		})
	}
}

func checkGolden(t *testing.T, path string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, got)
	}
}
