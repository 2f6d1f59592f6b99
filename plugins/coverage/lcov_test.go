package coverage

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// importerCase is one edge case of an importer; the cases also seed its
// fuzz target.
type importerCase struct {
	name   string
	root   string
	report string
	want   map[string]cov
}

// checkImporterCases runs the edge cases of one importer.
func checkImporterCases(t *testing.T, imp Importer, cases []importerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := imp.Import(strings.NewReader(tc.report), Options{Root: tc.root})
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

// checkImporterErrors asserts that each bad report is refused with an
// error containing the given text, and no results.
func checkImporterErrors(t *testing.T, imp Importer, cases map[string]string) {
	t.Helper()
	for report, want := range cases {
		got, err := imp.Import(strings.NewReader(report), Options{Root: "/w/repo"})
		if err == nil || !strings.Contains(err.Error(), want) || got != nil {
			t.Errorf("%q: got %v, error %v; want no results and an error containing %q", clip(report), got, err, want)
		}
	}
	_, err := imp.Import(iotest.ErrReader(errors.New("disk on fire")), Options{Root: "/w/repo"})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got error %v, want the read error", err)
	}
}

// fuzzImporter is the body shared by the importers' fuzz targets: whatever
// the report, Import never panics, and either refuses it with an error and
// no results or returns clean, sorted, repo-relative coverage.
func fuzzImporter(f *testing.F, imp Importer, cases []importerCase) {
	for _, tc := range cases {
		f.Add(tc.report, tc.root)
	}
	f.Fuzz(func(t *testing.T, report, root string) {
		got, err := imp.Import(strings.NewReader(report), Options{Root: root})
		if err != nil {
			if got != nil {
				t.Errorf("error %v came with results", err)
			}
			return
		}
		checkCoverage(t, got)
	})
}

var lcovCases = []importerCase{
	{
		name: "records, other lines ignored, outside files dropped",
		root: "/w/repo",
		report: "TN:\nSF:/w/repo/src/a.c\nFN:3,main\nFNDA:1,main\nFNF:1\nFNH:1\n" +
			"BRDA:4,0,0,1\nDA:3,1\nDA:4,0\nDA:5,12,Zm9v\nLF:3\nLH:2\nend_of_record\n" +
			"SF:/usr/include/stdio.h\nDA:1,5\nend_of_record\n" +
			"SF:src/rel.c\nDA:2,1\nend_of_record\n",
		want: map[string]cov{
			"src/a.c":   {executed: []int{3, 5}, instrumented: []int{3, 4, 5}},
			"src/rel.c": {executed: []int{2}, instrumented: []int{2}},
		},
	},
	{
		name: "concatenated tracefiles merge; executed wins; negative counts ran",
		root: "/w/repo",
		report: "SF:/w/repo/a.c\nDA:1,0\nDA:2,0\nend_of_record\n" +
			"SF:/w/repo/a.c\nDA:1,3\nDA:3,-1\nDA:4,18446744073709551616\nend_of_record\n",
		want: map[string]cov{"a.c": {executed: []int{1, 3, 4}, instrumented: []int{1, 2, 3, 4}}},
	},
	{
		name:   "windows paths, CRLF, a record cut short, a file with no lines",
		root:   `C:\w\repo`,
		report: "SF:C:\\w\\repo\\inc\\decl.h\r\nend_of_record\r\nSF:c:/w/repo/src/a.c\r\nDA:7,1\r\n",
		want: map[string]cov{
			"inc/decl.h": {executed: []int{}, instrumented: []int{}},
			"src/a.c":    {executed: []int{7}, instrumented: []int{7}},
		},
	},
	{
		name:   "wine's Z: view of a unix root",
		root:   "/tmp/w/repo",
		report: "SF:Z:\\tmp\\w\\repo\\a.c\nDA:1,1\nend_of_record\n",
		want:   map[string]cov{"a.c": {executed: []int{1}, instrumented: []int{1}}},
	},
	{
		name:   "empty report",
		report: "",
		want:   map[string]cov{},
	},
}

func TestLcov(t *testing.T) {
	checkImporterCases(t, &Lcov{}, lcovCases)
}

func TestLcovErrors(t *testing.T) {
	checkImporterErrors(t, &Lcov{}, map[string]string{
		"DA:1,1\n":                        "lcov: line 1: DA outside a file record",
		"SF:a.c\nend_of_record\nDA:1,1\n": "lcov: line 3: DA outside a file record",
		"SF:\n":                           "lcov: line 1: SF names no file",
		"SF:a.c\nDA:1\n":                  `line 2: want "DA:<line>,<count>[,<checksum>]"`,
		"SF:a.c\nDA:1,2,3,4\n":            `line 2: want "DA:<line>,<count>[,<checksum>]"`,
		"SF:a.c\nDA:x,1\n":                `line number "x" is not a non-negative number`,
		"SF:a.c\nDA:0,1\n":                "lines start at 1",
		"SF:a.c\nDA:1,one\n":              `execution count "one" is not an integer`,
		"SF:a.c\nDA:1,1.5\n":              `execution count "1.5" is not an integer`,
		"SF:a.c\nDA:1,-\n":                `execution count "-" is not an integer`,
		fmt.Sprintf("SF:a.c\nDA:%d,1\n", maxReportedLines+1): "beyond the supported",
		"SF:a.c\n" + strings.Repeat("x", maxReportLine+1):    "lcov: line 2: longer than",
	})
}

// A report that repeats lines past the limit is refused as it is read.
func TestReportCollectorRefusesFloods(t *testing.T) {
	c := newReportCollector()
	if c.limit != maxReportEntries {
		t.Fatalf("limit %d, want maxReportEntries", c.limit)
	}
	c.limit = 3
	for i := 1; i <= 4; i++ {
		err := c.addLines("a.c", 1, 1, true)
		if refused := err != nil; refused != (i == 4) {
			t.Fatalf("entry %d: error %v", i, err)
		}
		if err != nil && !strings.Contains(err.Error(), "more than 3 lines; refusing") {
			t.Errorf("got %v, want a refusal", err)
		}
	}
}

func TestCountRan(t *testing.T) {
	tests := []struct {
		in      string
		ran, ok bool
	}{
		{"0", false, true}, {"000", false, true}, {"1", true, true}, {"-3", true, true},
		{"99999999999999999999999", true, true}, {"", false, false}, {"-", false, false},
		{"+1", false, false}, {"1e3", false, false}, {" 1", false, false},
	}
	for _, tc := range tests {
		ran, err := countRan(tc.in)
		if ran != tc.ran || (err == nil) != tc.ok {
			t.Errorf("countRan(%q) = %v, %v; want %v, ok=%v", tc.in, ran, err, tc.ran, tc.ok)
		}
	}
}

func FuzzLcov(f *testing.F) {
	fuzzImporter(f, &Lcov{}, lcovCases)
}
