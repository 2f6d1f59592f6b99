package evalreport

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, firstDifference(want, got))
	}
}

// firstDifference shows the first line that differs, which is all a reader
// needs to find a change in a long generated file.
func firstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + wl + "\n got: " + gl
		}
	}
	return "(trailing bytes)"
}

func fixtureReports(t *testing.T) []schemas.EvalReport {
	t.Helper()
	reports, err := Load(fixtureRun)
	if err != nil {
		t.Fatal(err)
	}
	return reports
}

func TestWriteGolden(t *testing.T) {
	out := t.TempDir()
	s, err := Write(out, fixtureReports(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != 3 {
		t.Fatalf("summary has %d models, want 3", len(s.Models))
	}
	for _, name := range []string{SummaryJSON, SummaryMarkdown, ReportHTML} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, b)
	}
	var table bytes.Buffer
	if err := Table(&table, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.txt", table.Bytes())

	// Nothing but the three files is left behind: no temporary files.
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "report.html summary.json summary.md" {
		t.Errorf("output dir holds %s", got)
	}
}

// TestWriteIsDeterministic writes the reports in two different orders: the
// bytes must not depend on the input order or on map iteration.
func TestWriteIsDeterministic(t *testing.T) {
	reports := fixtureReports(t)
	reversed := make([]schemas.EvalReport, len(reports))
	for i, r := range reports {
		reversed[len(reports)-1-i] = r
	}
	a, b := t.TempDir(), t.TempDir()
	if _, err := Write(a, reports); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, reversed); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{SummaryJSON, SummaryMarkdown, ReportHTML} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between input orders", name)
		}
	}
}

func TestOutputsMatchSchemas(t *testing.T) {
	reportSchema := schematest.Compile(t, "eval-report")
	summarySchema := schematest.Compile(t, "eval-summary")
	reports, err := filepath.Glob(filepath.Join(fixtureRun, "*", "*", ReportFile))
	if err != nil || len(reports) == 0 {
		t.Fatalf("no fixture reports: %v", err)
	}
	for _, p := range reports {
		schematest.ValidateFile(t, reportSchema, p)
	}
	out := t.TempDir()
	if _, err := Write(out, fixtureReports(t)); err != nil {
		t.Fatal(err)
	}
	schematest.ValidateFile(t, summarySchema, filepath.Join(out, SummaryJSON))
	// And a run with no reports at all.
	empty := t.TempDir()
	if _, err := Write(empty, nil); err != nil {
		t.Fatal(err)
	}
	schematest.ValidateFile(t, summarySchema, filepath.Join(empty, SummaryJSON))
}

// TestUntrustedNamesAreEscaped checks each output for the raw spelling of
// a model name that holds markup.
func TestUntrustedNamesAreEscaped(t *testing.T) {
	out := t.TempDir()
	s, err := Write(out, fixtureReports(t))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(out, ReportHTML))
	md, _ := os.ReadFile(filepath.Join(out, SummaryMarkdown))
	for _, raw := range []string{"<script>", "coder-<v2>", `"agent"`, "R&D"} {
		if bytes.Contains(page, []byte(raw)) {
			t.Errorf("report.html holds %q unescaped", raw)
		}
	}
	// Quotes are harmless in Markdown; markup and entities are not.
	for _, raw := range []string{"<script>", "coder-<v2>", "R&D"} {
		if bytes.Contains(md, []byte(raw)) {
			t.Errorf("summary.md holds %q unescaped", raw)
		}
	}
	if !bytes.Contains(page, []byte("acme/coder-&lt;v2&gt;")) {
		t.Error("report.html does not show the escaped model name")
	}

	var table bytes.Buffer
	s.Models = append(s.Models, schemas.ModelSummary{Model: "tab\there\x1b[31m"})
	if err := Table(&table, s); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(table.String(), "\x1b") || !strings.Contains(table.String(), `"tab\there\x1b[31m"`) {
		t.Errorf("table does not quote a name with control characters:\n%s", table.String())
	}
}

func TestMarkdownEscapesTableBreakers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a|b", `a\|b`},
		{"line\nbreak", "line break"},
		{"<img src=x>", `\<img src=x\>`},
		{"[x](http://e)", `\[x\](http://e)`},
		{"org/model_v1*", `org/model\_v1\*`},
		{`back\slash`, `back\\slash`},
	} {
		if got := mdText(tc.in); got != tc.want {
			t.Errorf("mdText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWriteIntoAFileFails(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(notDir, fixtureReports(t)); err == nil || !strings.Contains(err.Error(), notDir) {
		t.Errorf("Write into a file = %v, want an error naming it", err)
	}
}
