package coverage

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// coverletWindows is a hand-written report in coverlet's shape, from a C#
// project built in C:\w\repo (no .NET here).
const coverletWindows = "coverlet-windows.cobertura.xml"

func TestCoberturaGolden(t *testing.T) {
	got := importFile(t, &Cobertura{}, coverletWindows, Options{Root: `C:\w\repo`})
	checkCoverage(t, got)
	checkCoverageGolden(t, got, coverletWindows+".golden.json")
	want := map[string]cov{
		"src/Calc/PathUtil.cs":                  {executed: []int{8, 9, 10}, instrumented: []int{8, 9, 10, 12, 13}},
		"src/Calc/Math.cs":                      {executed: []int{6, 7, 8}, instrumented: []int{6, 7, 8, 20}},
		"obj/Debug/net8.0/Calc.AssemblyInfo.cs": {executed: []int{3}, instrumented: []int{3}},
	}
	gotMap := map[string]cov{}
	for _, fc := range got {
		gotMap[fc.Path] = cov{executed: fc.Executed, instrumented: fc.Instrumented}
	}
	if !reflect.DeepEqual(gotMap, want) {
		t.Errorf("got  %v\nwant %v", gotMap, want)
	}
}

// The same report written on Linux gives the same coverage.
func TestCoberturaSameOnLinux(t *testing.T) {
	windows := importFile(t, &Cobertura{}, coverletWindows, Options{Root: `C:\w\repo`})
	raw := readTestdata(t, coverletWindows)
	linuxReport := bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte(`C:\w\repo`), []byte("/w/repo")), []byte(`\`), []byte("/"))
	linux, err := (&Cobertura{}).Import(bytes.NewReader(linuxReport), Options{Root: "/w/repo"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(windows, linux) {
		t.Errorf("windows %v\nlinux %v", windows, linux)
	}
}

// class wraps <line> elements in a class of filename.
func class(filename string, lines ...string) string {
	return `<class name="c" filename="` + filename + `"><lines>` + strings.Join(lines, "") + `</lines></class>`
}

func line(number, hits string) string {
	return `<line number="` + number + `" hits="` + hits + `" branch="false"/>`
}

func coverage(sources []string, classes ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" ?><coverage version="1"><sources>`)
	for _, s := range sources {
		b.WriteString("<source>" + s + "</source>")
	}
	b.WriteString(`</sources><packages><package name="p"><classes>`)
	b.WriteString(strings.Join(classes, ""))
	b.WriteString(`</classes></package></packages></coverage>`)
	return b.String()
}

var coberturaCases = []importerCase{
	{
		name: "the first source under the root wins; absolute filenames stand alone",
		root: "/w/repo",
		report: coverage([]string{"/elsewhere", " /w/repo/src ", "/w/repo/lib"},
			class("a.c", line("1", "1"), line("2", "0")),
			class("/w/repo/tools/t.c", line("3", "2")),
			class("/opt/lib/x.c", line("4", "1"))),
		want: map[string]cov{
			"src/a.c":   {executed: []int{1}, instrumented: []int{1, 2}},
			"tools/t.c": {executed: []int{3}, instrumented: []int{3}},
		},
	},
	{
		name:   "gcovr's \".\" source and no sources are relative to the root",
		root:   `C:\w\repo`,
		report: coverage([]string{"."}, class(`src\a.c`, line("1", "1"))) + coverage(nil, class("b.c", line("2", "0"))),
		want: map[string]cov{
			"src/a.c": {executed: []int{1}, instrumented: []int{1}},
			"b.c":     {executed: []int{}, instrumented: []int{2}},
		},
	},
	{
		name: "concatenated reports each use their own sources; a file merges",
		root: "/w/repo",
		report: coverage([]string{"/w/repo/a"}, class("x.c", line("1", "0"))) + "\n" +
			coverage([]string{"/w/repo/b"}, class("x.c", line("1", "5"))) +
			coverage([]string{"/w/repo/a"}, class("x.c", line("1", "7"))),
		want: map[string]cov{
			"a/x.c": {executed: []int{1}, instrumented: []int{1}},
			"b/x.c": {executed: []int{1}, instrumented: []int{1}},
		},
	},
	{
		name: "method lines repeat class lines; lines outside classes and classes without files are ignored",
		root: "/w/repo",
		report: `<coverage><sources><source>/w/repo<!-- a comment -->/</source></sources><packages><package><classes>` +
			`<class filename="m.cs"><methods><method><lines>` + line("5", "1") + `</lines></method></methods><lines>` +
			line("5", "1") + line("6", "0") + `</lines></class>` +
			`<class filename=""><lines>` + line("9", "1") + `</lines></class>` +
			`</classes></package></packages>` + line("7", "1") + `</coverage>`,
		want: map[string]cov{"m.cs": {executed: []int{5}, instrumented: []int{5, 6}}},
	},
	{
		name:   "classes with no coverage element around them",
		root:   "/w/repo",
		report: class("a.c", line("1", "1")),
		want:   map[string]cov{"a.c": {executed: []int{1}, instrumented: []int{1}}},
	},
	{
		name:   "empty report",
		report: "",
		want:   map[string]cov{},
	},
}

func TestCobertura(t *testing.T) {
	checkImporterCases(t, &Cobertura{}, coberturaCases)
}

func TestCoberturaErrors(t *testing.T) {
	checkImporterErrors(t, &Cobertura{}, map[string]string{
		"<coverage>\n" + class("a.c", line("x", "1")) + "</coverage>":  `cobertura: line 2: line number "x"`,
		"<coverage>\n" + class("a.c", line("0", "1")) + "</coverage>":  "lines start at 1",
		"<coverage>\n\n" + class("a.c", line("1", "")) + "</coverage>": `cobertura: line 3: execution count "" is not an integer`,
		"<coverage>\n<class filename='a.c'>\n</coverage>":              "cobertura: line 3:",
		"<coverage><sources><source>/w</sources></coverage>":           "cobertura: line 1:",
		`<?xml version="1.0" encoding="UTF-16"?><coverage/>`:           `unsupported encoding "UTF-16"`,
	})
}

func FuzzCobertura(f *testing.F) {
	fuzzImporter(f, &Cobertura{}, coberturaCases)
}
