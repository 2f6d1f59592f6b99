package coverage

import (
	"bytes"
	"strings"
	"testing"
)

// llvmExport wraps files (JSON objects) in an export document.
func llvmExport(files ...string) string {
	doc := `{"type": "llvm.coverage.json.export", "version": "2.0.1", "data": [{"files": [`
	for i, f := range files {
		if i > 0 {
			doc += ","
		}
		doc += f
	}
	return doc + `], "functions": [{"name": "main", "regions": [[1, 1, 2, 2, 1, 0, 0, 0]], "filenames": ["/w/repo/a.c"]}], "totals": {"lines": {"count": 3}}}]}`
}

var llvmCases = []importerCase{
	{
		// A function at lines 1-9: an if whose body (2-3) never ran, a gap
		// after it (line 4 closes the body: the gap does not count, so the
		// line takes the body's zero), the else (5-7), and code the
		// preprocessor skipped (8).
		name: "regions, gaps, skipped code and the lines between segments",
		root: "/w/repo",
		report: llvmExport(`{"filename": "/w/repo/a.c", "segments": [
			[1, 12, 5, true, true, false],
			[2, 7, 5, true, true, false],
			[2, 13, 0, true, true, false],
			[4, 4, 5, true, false, true],
			[5, 10, 5, true, true, false],
			[7, 4, 5, true, false, false],
			[8, 1, 0, false, true, false],
			[8, 20, 5, true, false, false],
			[9, 2, 0, false, false, false]],
			"branches": [], "expansions": [], "summary": {}}`),
		want: map[string]cov{"a.c": {
			executed:     []int{1, 2, 5, 6, 7, 9},
			instrumented: []int{1, 2, 3, 4, 5, 6, 7, 9},
		}},
	},
	{
		// Line 3 starts a region that never ran, but the region in force
		// from line 1 ran on it: llvm-cov counts the line as run.
		name: "five-field segments of older exports, unsorted, files outside the root dropped",
		root: `C:\w\repo`,
		report: llvmExport(
			`{"segments": [[3, 1, 0, true, true], [1, 1, 2, true, true], [4, 1, 0, false, false]], "filename": "C:\\w\\repo\\src\\b.rs"}`,
			`{"filename": "C:\\Users\\me\\.cargo\\registry\\src\\lib.rs", "segments": [[1, 1, 1, true, true]]}`,
			`{"filename": "C:\\w\\repo\\src\\none.rs", "segments": []}`),
		want: map[string]cov{
			"src/b.rs":    {executed: []int{1, 2, 3}, instrumented: []int{1, 2, 3, 4}},
			"src/none.rs": {executed: []int{}, instrumented: []int{}},
		},
	},
	{
		name: "flags as 0 and 1; several documents merge",
		root: "/w/repo",
		report: llvmExport(`{"filename": "/w/repo/a.c", "segments": [[1, 1, 0, 1, 1, 0], [2, 1, 0, 0, 0, 0]]}`) + "\n" +
			llvmExport(`{"filename": "a.c", "segments": [[2, 1, 3, 1, 1, 0], [3, 1, 0, 0, 0, 0]]}`),
		want: map[string]cov{"a.c": {executed: []int{2, 3}, instrumented: []int{1, 2, 3}}},
	},
	{
		name:   "empty report",
		report: "",
		want:   map[string]cov{},
	},
}

func TestLLVMJSON(t *testing.T) {
	checkImporterCases(t, &LLVMJSON{}, llvmCases)
}

func TestLLVMJSONErrors(t *testing.T) {
	file := func(segments string) string {
		return llvmExport(`{"filename": "/w/repo/a.c", "segments": ` + segments + `}`)
	}
	checkImporterErrors(t, &LLVMJSON{}, map[string]string{
		file(`[[1, 1, 1, true]]`):                              "segment 0: has 4 fields, want at least 5",
		file(`[[1, 1, 1, true, true], [0, 1, 1, true, true]]`): "segment 1: line number 0: lines start at 1",
		file(`[["1", 1, 1, true, true]]`):                      `line number "<string>"`,
		file(`[[1, -1, 1, true, true]]`):                       `column "-1"`,
		file(`[[1, 1, 1.5, true, true]]`):                      `execution count "1.5" is not an integer`,
		file(`[[1, 1, 1, "yes", true]]`):                       "flag yes is neither a boolean nor 0 or 1",
		file(`[[1, 1, 1, 2, true]]`):                           "flag 2 is neither",
		file(`{}`):                                             `want "[", got "{"`,
		file(`[{}]`):                                           "segment:",
		llvmExport(`{"segments": []}`):                         "a file without a filename",
		llvmExport(`{"filename": "/w/repo/a.c", "summary": {"lines": {"count": 3, "covered": 2}}}`):                "data[0].files[0]: a summary but no \"segments\": the export has no line data",
		llvmExport(`{"filename": "/w/repo/a.c", "segments": []}`, `{"filename": "/elsewhere/b.c", "summary": {}}`): "data[0].files[1]: a summary but no",
		llvmExport(`{"filename": "/w/repo/a.c", "branches": []}`):                                                  `no "segments": the export has no line data`,
		`{"data": [{"files": [`: "llvm-json: JSON at byte",
		`{"data": []} [`:        `want "{", got "["`,
		`{"data": []} }`:        "llvm-json: JSON at byte",
		`[]`:                    `want "{", got "["`,
	})
}

// cstubSummaryOnly is `llvm-cov export -summary-only` of the cstub run
// (recorded by recordCStub): files with a summary and no segments.
const cstubSummaryOnly = "cstub-clang-summary.llvm.json"

// A summary-only export has no line data: importing it must fail with a
// word on how to export instead, never give empty coverage, whether its
// files lie in the repository or not.
func TestLLVMJSONSummaryOnlyIsAnError(t *testing.T) {
	report := readTestdata(t, cstubSummaryOnly)
	if !strings.Contains(string(report), `"summary"`) || strings.Contains(string(report), `"segments"`) {
		t.Fatalf("%s is not a summary-only export", cstubSummaryOnly)
	}
	for _, root := range []string{cstubRoot, "/elsewhere"} {
		got, err := (&LLVMJSON{}).Import(bytes.NewReader(report), Options{Root: root})
		if err == nil || got != nil {
			t.Fatalf("root %s: got %v, error %v; want an error and no coverage", root, got, err)
		}
		for _, want := range []string{"llvm-json: JSON at byte", "data[0].files[0]", "no line data", "without -summary-only"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("root %s: error %q does not say %q", root, err, want)
			}
		}
	}
}

func FuzzLLVMJSON(f *testing.F) {
	// The refused shapes seed it too; the corpus under testdata/fuzz holds
	// the summary-only export's.
	f.Add(llvmExport(`{"filename": "/w/repo/a.c", "summary": {"lines": {"count": 2, "covered": 1, "percent": 50}}}`), "/w/repo")
	f.Add(llvmExport(`{"filename": "/w/repo/a.c", "segments": [[1, 1, 1, true, true]]}`, `{"filename": "/w/repo/b.c"}`), "/w/repo")
	fuzzImporter(f, &LLVMJSON{}, llvmCases)
}
