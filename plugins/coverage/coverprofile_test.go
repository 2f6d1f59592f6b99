package coverage

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false,
	"run go test -coverprofile on testdata/covstub to rewrite the recorded profile, then rewrite the golden output")

const (
	stubDir       = "testdata/covstub"
	stubProfile   = "testdata/covstub.coverprofile"
	stubGoldenOut = "testdata/covstub.golden.json"
)

func TestGoCoverprofileGolden(t *testing.T) {
	if *update {
		recordStubProfile(t)
	}
	modules, err := ModulesFromGoMod(os.DirFS(stubDir))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(stubProfile)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	defer f.Close()
	got, err := (&GoCoverprofile{}).Import(f, Options{Root: "/nonexistent/covstub", Modules: modules})
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, got)

	gotJSON, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gotJSON = append(gotJSON, '\n')
	if *update {
		if err := os.WriteFile(stubGoldenOut, gotJSON, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(stubGoldenOut)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(gotJSON, want) {
		t.Errorf("%s differs from %s (run with -update if the change is intended):\n%s", stubProfile, stubGoldenOut, gotJSON)
	}

	// Pin what the stub was written to show, so a wrong golden file cannot
	// be accepted by accident.
	byPath := map[string]schemas.FileCoverage{}
	for _, fc := range got {
		byPath[fc.Path] = fc
	}
	if len(byPath) != 3 {
		t.Errorf("got files %v, want calc/calc.go, report/report.go and tools/lint/lint.go", slices.Sorted(maps.Keys(byPath)))
	}
	calc := byPath["calc/calc.go"]
	// Line 20 runs only in report's test binary, line 7 only in calc's:
	// duplicate blocks from -coverpkg must be merged by "any count > 0".
	for _, line := range []int{7, 20} {
		if !slices.Contains(calc.Executed, line) {
			t.Errorf("calc/calc.go line %d not executed; executed = %v", line, calc.Executed)
		}
	}
	for _, line := range []int{24, 25, 26} { // Unused
		if slices.Contains(calc.Executed, line) || !slices.Contains(calc.Instrumented, line) {
			t.Errorf("calc/calc.go line %d should be instrumented and not executed", line)
		}
	}
	lint := byPath["tools/lint/lint.go"] // nested module
	// Line 9 ends an executed block and starts one that never ran.
	if !slices.Contains(lint.Executed, 9) || slices.Contains(lint.Executed, 10) {
		t.Errorf("tools/lint/lint.go executed = %v, want 9 and not 10", lint.Executed)
	}
}

// recordStubProfile reruns the stub modules' tests: the root module with
// -coverpkg (so calc's blocks are reported by two test binaries), then the
// nested module, and concatenates the profiles as a multi-module run would.
func recordStubProfile(t *testing.T) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("-update needs the go command: %v", err)
	}
	var profile bytes.Buffer
	run := func(dir string, args ...string) {
		out := filepath.Join(t.TempDir(), "cover.out")
		cmd := exec.Command(goTool, append(append([]string{"test", "-count=1"}, args...), "-coverprofile="+out, "./...")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
		if output, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v in %s: %v\n%s", cmd.Args, dir, err, output)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		profile.Write(data)
	}
	run(stubDir, "-coverpkg=./...")
	run(filepath.Join(stubDir, "tools"), "-covermode=count")
	if err := os.WriteFile(stubProfile, profile.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cov is a compact expectation for one file.
type cov struct {
	executed, instrumented []int
}

var goModules = map[string]string{
	"example.com/m":       "",
	"example.com/m/tools": "internal/tools", // nested module in a directory of another name
}

func TestGoCoverprofile(t *testing.T) {
	tests := []struct {
		name    string
		root    string
		modules map[string]string
		profile string
		want    map[string]cov
	}{
		{
			name:    "import paths through the longest module",
			modules: goModules,
			profile: "mode: set\n" +
				"example.com/m/a.go:3.10,5.2 2 1\n" +
				"example.com/m/tools/t.go:1.1,1.20 1 0\n" +
				"example.com/m/toolsx/u.go:2.1,2.9 1 1\n",
			want: map[string]cov{
				"a.go":                {executed: []int{3, 4, 5}, instrumented: []int{3, 4, 5}},
				"internal/tools/t.go": {executed: []int{}, instrumented: []int{1}},
				"toolsx/u.go":         {executed: []int{2}, instrumented: []int{2}},
			},
		},
		{
			name:    "dependencies and files outside the root are dropped",
			root:    "/tmp/w/repo",
			modules: goModules,
			profile: "mode: count\n" +
				"github.com/other/lib/z.go:1.1,2.2 1 4\n" +
				"/usr/local/go/src/fmt/print.go:1.1,2.2 1 4\n" +
				"example.com/m/../escape.go:1.1,2.2 1 4\n" +
				"/tmp/w/repo/cmd/main.go:7.1,7.9 1 4\n",
			want: map[string]cov{"cmd/main.go": {executed: []int{7}, instrumented: []int{7}}},
		},
		{
			name: "windows absolute paths, parsed from the right",
			root: `c:\w\repo`,
			profile: "mode: atomic\r\n" +
				`C:\w\repo\pkg\a.go:3.2,4.3 1 1` + "\r\n" +
				`\\?\C:\w\repo\pkg\b.go:8.2,8.30 1 0` + "\r\n",
			want: map[string]cov{
				"pkg/a.go": {executed: []int{3, 4}, instrumented: []int{3, 4}},
				"pkg/b.go": {executed: []int{}, instrumented: []int{8}},
			},
		},
		{
			name:    "a path with spaces and colons",
			root:    `C:\Users\John Doe\repo`,
			profile: "mode: set\n" + `C:\Users\John Doe\repo\odd: name.go:1.1,2.5 1 1` + "\n",
			want:    map[string]cov{"odd: name.go": {executed: []int{1, 2}, instrumented: []int{1, 2}}},
		},
		{
			name:    "wine reports Z: paths for a unix root",
			root:    "/tmp/w/repo",
			profile: "mode: set\n" + `Z:\tmp\w\repo\x.go:5.1,5.9 1 1` + "\n",
			want:    map[string]cov{"x.go": {executed: []int{5}, instrumented: []int{5}}},
		},
		{
			name:    "duplicate and overlapping blocks merge, executed wins",
			modules: goModules,
			profile: "mode: set\n" +
				"example.com/m/a.go:10.5,12.3 1 0\n" +
				"example.com/m/a.go:10.5,12.3 1 1\n" +
				"example.com/m/a.go:12.3,15.2 2 0\n" +
				"example.com/m/a.go:20.1,20.9 1 0\n" +
				"example.com/m/a.go:20.1,20.9 1 0\n",
			want: map[string]cov{"a.go": {
				executed:     []int{10, 11, 12},
				instrumented: []int{10, 11, 12, 13, 14, 15, 20},
			}},
		},
		{
			name:    "a block ending at column 1 does not reach its last line",
			modules: goModules,
			profile: "mode: set\nexample.com/m/a.go:3.5,5.1 1 1\nexample.com/m/a.go:7.1,7.1 0 1\n",
			want:    map[string]cov{"a.go": {executed: []int{3, 4, 7}, instrumented: []int{3, 4, 7}}},
		},
		{
			name:    "repeated headers and blank lines, as in concatenated profiles",
			modules: goModules,
			profile: "mode: set\n\nexample.com/m/a.go:1.1,1.5 1 1\nmode: count\n  \nexample.com/m/b.go:2.1,2.5 1 3\n",
			want: map[string]cov{
				"a.go": {executed: []int{1}, instrumented: []int{1}},
				"b.go": {executed: []int{2}, instrumented: []int{2}},
			},
		},
		{
			// Profiles merged by tools, or written for packages named by
			// directory, name files relative to where go ran; every other
			// form must keep working next to them.
			name:    "./-relative paths next to the other forms",
			root:    "/tmp/w/repo",
			modules: goModules,
			profile: "mode: count\n" +
				"./pkg/a.go:3.1,4.2 1 1\n" +
				"./pkg/a.go:6.1,6.9 1 0\n" +
				"./pkg/../pkg/sub/b.go:1.1,1.5 1 2\n" +
				`.\win\c.go:2.1,2.8 1 1` + "\n" +
				"../outside/d.go:1.1,1.5 1 1\n" +
				"./../outside/e.go:1.1,1.5 1 1\n" +
				"./:1.1,1.5 1 1\n" +
				"example.com/m/imp.go:5.1,5.9 1 1\n" +
				"example.com/m/tools/t.go:1.1,1.9 1 0\n" +
				"/tmp/w/repo/abs.go:7.1,7.9 1 1\n" +
				`Z:\tmp\w\repo\wine.go:8.1,8.9 1 1` + "\n" +
				"github.com/other/lib/z.go:1.1,2.2 1 4\n",
			want: map[string]cov{
				"pkg/a.go":            {executed: []int{3, 4}, instrumented: []int{3, 4, 6}},
				"pkg/sub/b.go":        {executed: []int{1}, instrumented: []int{1}},
				"win/c.go":            {executed: []int{2}, instrumented: []int{2}},
				"imp.go":              {executed: []int{5}, instrumented: []int{5}},
				"internal/tools/t.go": {executed: []int{}, instrumented: []int{1}},
				"abs.go":              {executed: []int{7}, instrumented: []int{7}},
				"wine.go":             {executed: []int{8}, instrumented: []int{8}},
			},
		},
		{
			name:    "./-relative paths under osbench's $WORK root",
			root:    "$WORK",
			profile: "mode: set\n./a.go:1.1,2.1 1 1\n$WORK/b.go:3.1,3.4 1 0\n",
			want: map[string]cov{
				"a.go": {executed: []int{1}, instrumented: []int{1}},
				"b.go": {executed: []int{}, instrumented: []int{3}},
			},
		},
		{
			name:    "empty profile",
			profile: "",
			want:    map[string]cov{},
		},
		{
			name:    "header only",
			profile: "mode: set\n",
			want:    map[string]cov{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&GoCoverprofile{}).Import(strings.NewReader(tc.profile), Options{Root: tc.root, Modules: tc.modules})
			if err != nil {
				t.Fatal(err)
			}
			checkCoverage(t, got)
			gotMap := map[string]cov{}
			for _, fc := range got {
				gotMap[fc.Path] = cov{executed: fc.Executed, instrumented: fc.Instrumented}
			}
			if !reflect.DeepEqual(gotMap, tc.want) {
				t.Errorf("got  %v\nwant %v", gotMap, tc.want)
			}
		})
	}
}

// A compiled file that never ran must say so with [], not null: "absent"
// means "not compiled on this platform", a different finding.
func TestGoCoverprofileNotExecutedIsEmptyList(t *testing.T) {
	got, err := (&GoCoverprofile{}).Import(strings.NewReader("mode: set\nexample.com/m/a.go:1.1,2.1 1 0\n"),
		Options{Modules: goModules})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"path":"a.go","executed":[],"instrumented":[1]}]`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
}

func TestGoCoverprofileErrors(t *testing.T) {
	tests := []struct {
		name    string
		profile string
		want    string // substring of the error
	}{
		{"no header", "example.com/m/a.go:1.1,2.1 1 1\n", "line 1: want a \"mode: set|count|atomic\" header"},
		{"unknown mode", "mode: fancy\n", "line 1: unknown mode \"fancy\""},
		{"garbage line", "mode: set\n\ngarbage\n", "line 3:"},
		{"missing count", "mode: set\nexample.com/m/a.go:1.1,2.1 1\n", "line 2:"},
		{"missing file", "mode: set\n:1.1,2.1 1 1\n", "line 2: missing \"file:\""},
		{"range without comma", "mode: set\na.go:1.1 1 1\n", "is not \"line.col,line.col\""},
		{"position without dot", "mode: set\na.go:1,2.1 1 1\n", "position \"1\""},
		{"letters in a line", "mode: set\na.go:x.1,2.1 1 1\n", "line \"x\""},
		{"negative count", "mode: set\na.go:1.1,2.1 1 -1\n", "execution count \"-1\""},
		{"signed count", "mode: set\na.go:1.1,2.1 1 +1\n", "execution count \"+1\""},
		{"huge count", "mode: set\na.go:1.1,2.1 1 99999999999999999999999\n", "out of range"},
		{"line zero", "mode: set\na.go:0.1,2.1 1 1\n", "lines start at 1"},
		{"end before start", "mode: set\na.go:5.1,2.1 1 1\n", "ends before it starts"},
		{"end column before start column", "mode: set\na.go:5.9,5.2 1 1\n", "ends before it starts"},
		{"line beyond the limit", fmt.Sprintf("mode: set\na.go:1.1,%d.1 1 1\n", maxReportedLines+1), "beyond the supported"},
		{"overlong line", "mode: set\n" + strings.Repeat("x", maxProfileLine+1) + "\n", "line 2: longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := (&GoCoverprofile{}).Import(strings.NewReader(tc.profile), Options{Modules: goModules})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestGoCoverprofileRefusesHugeReports(t *testing.T) {
	var profile strings.Builder
	profile.WriteString("mode: set\n")
	span := maxReportedLines / 2
	for i := range 3 {
		fmt.Fprintf(&profile, "/repo/f%d.go:1.1,%d.2 1 1\n", i, span)
	}
	_, err := (&GoCoverprofile{}).Import(strings.NewReader(profile.String()), Options{Root: "/repo"})
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("got error %v, want a refusal", err)
	}
}

func TestGoCoverprofileReadError(t *testing.T) {
	_, err := (&GoCoverprofile{}).Import(iotest.ErrReader(errors.New("disk on fire")), Options{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got error %v, want the read error", err)
	}
}

// checkCoverage asserts the promises every importer makes about its output.
func checkCoverage(t *testing.T, files []schemas.FileCoverage) {
	t.Helper()
	for i, fc := range files {
		if i > 0 && files[i-1].Path >= fc.Path {
			t.Errorf("files not sorted and unique: %q then %q", files[i-1].Path, fc.Path)
		}
		if fc.Path == "" || path.Clean(fc.Path) != fc.Path || path.IsAbs(fc.Path) || escapes(fc.Path) || strings.Contains(fc.Path, `\`) {
			t.Errorf("path %q is not a clean repo-relative path", fc.Path)
		}
		if fc.Executed == nil || fc.Instrumented == nil {
			t.Errorf("%s: nil line list", fc.Path)
		}
		for name, lines := range map[string][]int{"executed": fc.Executed, "instrumented": fc.Instrumented} {
			for j, line := range lines {
				if line < 1 || (j > 0 && lines[j-1] >= line) {
					t.Errorf("%s: %s lines not positive, ascending and unique: %v", fc.Path, name, lines)
					break
				}
			}
		}
		for _, line := range fc.Executed {
			if _, found := slices.BinarySearch(fc.Instrumented, line); !found {
				t.Errorf("%s: line %d executed but not instrumented", fc.Path, line)
			}
		}
	}
}

func FuzzGoCoverprofile(f *testing.F) {
	seed, err := os.ReadFile(stubProfile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("mode: atomic\r\n" + `C:\w\repo\pkg\a.go:3.2,4.3 1 1` + "\r\n" + `\\?\C:\w\repo\b.go:8.2,8.30 1 0` + "\n")
	f.Add("mode: set\nexample.com/m/tools/t.go:1.1,3.1 1 1\nexample.com/m/a.go:1.1,1.1 0 0\n$WORK/x.go:2.2,9.9 1 1\n")
	f.Add("mode: count\n./pkg/a.go:3.1,4.2 1 1\n" + `.\w\b.go:1.1,1.2 1 0` + "\n../c.go:1.1,1.2 1 1\n./:1.1,1.2 1 1\n")
	opts := Options{Root: `C:\w\repo`, Modules: map[string]string{"example.com/m": "", "example.com/m/tools": "tools", "example.com/covstub": ""}}
	f.Fuzz(func(t *testing.T, profile string) {
		got, err := (&GoCoverprofile{}).Import(strings.NewReader(profile), opts)
		if err != nil {
			if got != nil {
				t.Errorf("error %v came with results", err)
			}
			return
		}
		checkCoverage(t, got)
	})
}
