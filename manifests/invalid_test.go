package manifests

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// A marker ends a line that must get a diagnostic of its severity; the text
// after it is a substring of the message. A line may carry several markers,
// one per diagnostic expected on it.
var markers = map[string]hcl.DiagnosticSeverity{
	"# ERROR:":   hcl.DiagError,
	"# WARNING:": hcl.DiagWarning,
}

// expectation is one marker: a diagnostic expected on a line.
type expectation struct {
	severity  hcl.DiagnosticSeverity
	substring string
}

// Each file under testdata/invalid marks its offending lines. Loading it must
// report exactly one diagnostic per marker, on that line, of that severity,
// with the marker's text in its message, and nothing else: no missed
// mistakes, no follow-on noise.
func TestInvalidManifests(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no invalid manifests found: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := expectations(src)
			if len(want) == 0 {
				t.Fatalf("%s marks no diagnostics", file)
			}
			_, diags := Load([]string{file}, testOptions())

			got := make(map[int][]*hcl.Diagnostic)
			for _, d := range diags {
				switch {
				case d.Subject == nil:
					t.Errorf("error without a position: %s", d.Error())
				case d.Subject.Filename != file:
					t.Errorf("error outside the file: %s", d.Error())
				default:
					got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d)
				}
			}
			for line, diags := range got {
				if _, marked := want[line]; !marked {
					for _, d := range diags {
						t.Errorf("line %d: unexpected %s: %s", line, severityName(d.Severity), message(d))
					}
				}
			}
			for line, expected := range want {
				unmatched := append([]*hcl.Diagnostic(nil), got[line]...)
			markers:
				for _, e := range expected {
					for i, d := range unmatched {
						if d.Severity == e.severity && strings.Contains(message(d), e.substring) {
							unmatched = append(unmatched[:i], unmatched[i+1:]...)
							continue markers
						}
					}
					t.Errorf("line %d: no %s containing %q; got %s", line, severityName(e.severity), e.substring, messages(got[line]))
				}
				for _, d := range unmatched {
					t.Errorf("line %d: unexpected extra %s: %s", line, severityName(d.Severity), message(d))
				}
			}
		})
	}
}

// expectations maps a line number to the diagnostics its markers expect.
func expectations(src []byte) map[int][]expectation {
	all := make(map[int][]expectation)
	scanner := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; scanner.Scan(); line++ {
		rest := scanner.Text()
		for {
			marker, at := nextMarker(rest)
			if at < 0 {
				break
			}
			rest = rest[at+len(marker):]
			text := rest
			if _, end := nextMarker(rest); end >= 0 {
				text = rest[:end]
			}
			all[line] = append(all[line], expectation{markers[marker], strings.TrimSpace(text)})
		}
	}
	return all
}

// nextMarker finds the first marker in s, returning it and its index, or -1.
func nextMarker(s string) (string, int) {
	found, at := "", -1
	for marker := range markers {
		if i := strings.Index(s, marker); i >= 0 && (at < 0 || i < at) {
			found, at = marker, i
		}
	}
	return found, at
}

func message(d *hcl.Diagnostic) string { return d.Summary + "; " + d.Detail }

func messages(diags []*hcl.Diagnostic) string {
	if len(diags) == 0 {
		return "none"
	}
	var all []string
	for _, d := range diags {
		all = append(all, severityName(d.Severity)+" «"+message(d)+"»")
	}
	return strings.Join(all, ", ")
}
