package coverage

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// gz compresses s as one gzip member.
func gz(s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(s)) // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return buf.String()
}

const gcovJSONDoc = `{"format_version": "1", "gcc_version": "12.2.0",
 "files": [
  {"lines": [{"branches": [], "count": 1, "line_number": 5, "unexecuted_block": false, "function_name": "add"},
             {"branches": [], "count": 0, "line_number": 9, "unexecuted_block": true, "function_name": "add"}],
   "functions": [{"blocks": 2, "name": "add", "start_line": 5}],
   "file": "calc/calc.c"},
  {"file": "/usr/include/stdlib.h", "lines": [{"count": 4, "line_number": 1}]},
  {"file": "decl.h", "lines": []}
 ],
 "current_working_directory": "/w/repo",
 "data_file": "build/calc.gcda"}`

var gcovCases = []importerCase{
	{
		name: "text: counts, markers, block and branch lines, headers",
		root: "/w/repo",
		report: strings.Join([]string{
			"        -:    0:Source:/w/repo/src/a.c",
			"        -:    0:Graph:a.gcno",
			"        -:    0:Data:a.gcda",
			"        -:    0:Runs:1",
			"        -:    1:#include <stdio.h>",
			"function main called 1 returned 100% blocks executed 80%",
			"        1:    2:int main(void) {",
			"        1:    2-block  0",
			"branch  0 taken 50% (fallthrough)",
			"call    0 returned 100%",
			"       5*:    3:    for (;;) { x: y; }",
			"    #####:    4:        never();",
			"    %%%%%:    4-block  0",
			"    =====:    5:    } catch (...) {",
			"    $$$$$:    5-block  0",
			"     1.2k:    6:    hot();",
			"       3M:    7:    hotter();",
			"        0:    8:    zero();",
			"------------------",
			"_Z3fooIiEvv:",
			"        2:    9:template specialisation",
			"------------------",
			"        -:   10:}",
			"",
		}, "\n"),
		want: map[string]cov{"src/a.c": {executed: []int{2, 3, 6, 7, 9}, instrumented: []int{2, 3, 4, 5, 6, 7, 8, 9}}},
	},
	{
		name: "text: several files, outside ones dropped, a header reported twice merges",
		root: `C:\w\repo`,
		report: "        -:    0:Source:C:\\w\\repo\\inc\\h.h\r\n        1:    3:inline\r\n" +
			"        -:    0:Source:C:/mingw64/include/stdio.h\r\n        9:    1:x\r\n" +
			"        -:    0:Source:inc/h.h\r\n    #####:    3:inline\r\n    #####:    4:more\r\n" +
			"        -:    0:Source:src/empty.c\r\n        -:    1:// nothing\r\n",
		want: map[string]cov{
			"inc/h.h":     {executed: []int{3}, instrumented: []int{3, 4}},
			"src/empty.c": {executed: []int{}, instrumented: []int{}},
		},
	},
	{
		name:   "json: order of keys, relative files under the working directory, outside files dropped",
		root:   "/w/repo",
		report: gcovJSONDoc,
		want: map[string]cov{
			"calc/calc.c": {executed: []int{5}, instrumented: []int{5, 9}},
			"decl.h":      {executed: []int{}, instrumented: []int{}},
		},
	},
	{
		name:   "json: several gzip members, each a document",
		root:   "/w/repo",
		report: gz(gcovJSONDoc) + gz(`{"current_working_directory": "/w/repo/build", "files": [{"file": "../calc/calc.c", "lines": [{"line_number": 9, "count": 2}]}]}`),
		want: map[string]cov{
			"calc/calc.c": {executed: []int{5, 9}, instrumented: []int{5, 9}},
			"decl.h":      {executed: []int{}, instrumented: []int{}},
		},
	},
	{
		name:   "json: windows working directory, stdout form with blanks before it",
		root:   `C:\w\repo`,
		report: "\n  " + `{"current_working_directory": "C:\\w\\repo\\build", "files": [{"file": "..\\src\\a.c", "lines": [{"line_number": 1, "count": 1}]}]}` + "\n",
		want:   map[string]cov{"src/a.c": {executed: []int{1}, instrumented: []int{1}}},
	},
	{
		name: "text: C++ names with colons in function and specialisation lines",
		root: `C:\w\repo`,
		report: strings.Join([]string{
			`        -:    0:Source:C:\w\repo\src\ns.cpp`,
			"        -:    0:Graph:ns.gcno",
			"function ns::Klass::method(int) called 3 returned 100% blocks executed 100%",
			"        3:    4:int ns::Klass::method(int n) { return n; }",
			"function ns::Klass::name[abi:cxx11]() const called 0 returned 0% blocks executed 0%",
			"    #####:    5:std::string ns::Klass::name() const { return \"k\"; }",
			"function ns::f(std::map<int, int>::iterator)::{lambda(int)#1}::operator()(int) const called 1 returned 100%",
			"        1:    6:    auto g = [](int x) { return x; };",
			"        2:    7:template <typename T> T twice(T v) { return v + v; }",
			"------------------",
			"int ns::twice<int>(int):",
			"        1:    7:template <typename T> T twice(T v) { return v + v; }",
			"------------------",
			"(anonymous namespace)::helper<double>(double):",
			"        1:    7:template <typename T> T twice(T v) { return v + v; }",
			"------------------",
			"_ZN2ns5twiceIcEET_S1_:",
			"    #####:    7:template <typename T> T twice(T v) { return v + v; }",
			"------------------",
			"ns::Klass::~Klass():",
			"        1:    8:ns::Klass::~Klass() { log(\"a::b:c\"); }",
		}, "\n"),
		want: map[string]cov{"src/ns.cpp": {executed: []int{4, 6, 7, 8}, instrumented: []int{4, 5, 6, 7, 8}}},
	},
	{
		name:   "empty report",
		report: "",
		want:   map[string]cov{},
	},
}

func TestGcov(t *testing.T) {
	checkImporterCases(t, &Gcov{}, gcovCases)
}

func TestGcovErrors(t *testing.T) {
	checkImporterErrors(t, &Gcov{}, map[string]string{
		"        1:    2:x\n":                                                       `gcov: line 1: a count before any "Source:" header`,
		"        -:    0:Source:a.c\n    ?????:    2:x\n":                           `gcov: line 2: count "?????" is neither a number nor a gcov marker`,
		"        -:    0:Source:a.c\n        1:   x:x\n":                            `line number "x"`,
		"        -:    0:Source:a.c\n        1:   -3:x\n":                           `line number "-3"`,
		"        -:    0:Source:a.c\n        1::x\n":                                `line number ""`,
		"function ns::f() called 1\n        1:    2:x\n":                            `gcov: line 2: a count before any "Source:" header`,
		`{"files": [{"file": "a.c", "lines": [{"line_number": 0, "count": 1}]}]}`:   "gcov: JSON at byte",
		`{"files": [{"file": "a.c", "lines": [{"line_number": 1, "count": 1.5}]}]}`: `execution count "1.5" is not an integer`,
		`{"files": [{"file": "a.c", "lines": [{"line_number": 1}]}]}`:               `execution count "" is not an integer`,
		`{"files": [{"lines": []}]}`:                                                "a file without a name",
		`{"files": [{"file": 7}]}`:                                                  "want a string",
		`{"files": {}}`:                                                             `files: want "[", got "{"`,
		`{"files": []} [1]`:                                                         `want "{", got "["`,
		`{"files": []} }`:                                                           "gcov: JSON at byte",
		`{"files": [`:                                                               "gcov: JSON at byte",
		"\x1f\x8b garbage":                                                          "gcov: gzip",
		gz(`{"files": []}`) + "trailing":                                            "gcov: JSON at byte",
	})
}

func FuzzGcov(f *testing.F) {
	fuzzImporter(f, &Gcov{}, gcovCases)
}
