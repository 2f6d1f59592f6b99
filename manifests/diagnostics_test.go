package manifests

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// The diagnostics of a manifest full of mistakes, as `osbench validate`
// prints them. Regenerate with: go test ./manifests -run Golden -update
func TestWriteDiagnosticsGolden(t *testing.T) {
	set, diags := Load([]string{"testdata/invalid/many.hcl"}, testOptions())
	var out bytes.Buffer
	if err := WriteDiagnostics(&out, set, nil, diags); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden", "many.txt")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("diagnostics differ from %s (run with -update if the change is intended)\ngot:\n%s\nwant:\n%s", golden, out.Bytes(), want)
	}
}

func TestWriteDiagnostics(t *testing.T) {
	src := []byte("a = 1\n\tb = \"héllo\"\r\nc = [\n  1,\n]\n")
	at := func(startByte, startLine, startCol, endByte, endLine, endCol int) *hcl.Range {
		return &hcl.Range{
			Filename: "f.hcl",
			Start:    hcl.Pos{Byte: startByte, Line: startLine, Column: startCol},
			End:      hcl.Pos{Byte: endByte, Line: endLine, Column: endCol},
		}
	}
	tests := []struct {
		name string
		diag *hcl.Diagnostic
		want string
	}{{
		name: "no position",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read manifest", Detail: "no such file"},
		want: "error: Cannot read manifest; no such file\n",
	}, {
		name: "warning without detail",
		diag: &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No manifests", Subject: at(0, 1, 1, 1, 1, 2)},
		want: "f.hcl:1:1: warning: No manifests\na = 1\n^\n",
	}, {
		name: "tab indent and multibyte text, CRLF line",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bad", Detail: "two\nlines", Subject: at(11, 2, 6, 19, 2, 13)},
		want: "f.hcl:2:6: error: Bad; two lines\n\tb = \"héllo\"\n\t    ^~~~~~~\n",
	}, {
		name: "range over several lines marks to the end of the first",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bad", Subject: at(25, 3, 5, 33, 5, 2)},
		want: "f.hcl:3:5: error: Bad\nc = [\n    ^\n",
	}, {
		name: "range outside the source prints no snippet",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Stale", Subject: at(500, 40, 1, 510, 40, 11)},
		want: "f.hcl:40:1: error: Stale\n",
	}, {
		name: "unknown file prints no snippet",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Elsewhere", Subject: &hcl.Range{Filename: "other.hcl"}},
		want: "other.hcl:0:0: error: Elsewhere\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := WriteDiagnostics(&out, nil, map[string][]byte{"f.hcl": src}, hcl.Diagnostics{tt.diag})
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", out.String(), tt.want)
			}
		})
	}
}

// Sources come from the map first and from the set otherwise.
func TestWriteDiagnosticsSourcesFromSet(t *testing.T) {
	set := &Set{Sources: map[string][]byte{"f.hcl": []byte("x = 1\n")}}
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bad", Subject: &hcl.Range{
		Filename: "f.hcl", Start: hcl.Pos{Byte: 4, Line: 1, Column: 5}, End: hcl.Pos{Byte: 5, Line: 1, Column: 6}}}
	var out bytes.Buffer
	if err := WriteDiagnostics(&out, set, nil, hcl.Diagnostics{d}); err != nil {
		t.Fatal(err)
	}
	if want := "f.hcl:1:5: error: Bad\nx = 1\n    ^\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteDiagnosticsReportsWriteErrors(t *testing.T) {
	err := WriteDiagnostics(failingWriter{}, nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "x"}})
	if err == nil {
		t.Fatal("want the writer's error, got nil")
	}
}
