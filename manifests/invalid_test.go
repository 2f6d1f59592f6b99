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

// errorMarker ends a line that must get an error; the text after it is a
// substring of that error's message. A line may carry several markers, one
// per error expected on it.
const errorMarker = "# ERROR:"

// Each file under testdata/invalid marks its offending lines. Loading it must
// report exactly one error per marker, on that line, with the marker's text
// in its message, and nothing else: no missed mistakes, no follow-on noise.
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
			want := errorMarkers(src)
			if len(want) == 0 {
				t.Fatalf("%s marks no errors", file)
			}
			_, diags := Load([]string{file}, testOptions())

			got := make(map[int][]*hcl.Diagnostic)
			for _, d := range diags {
				switch {
				case d.Severity != hcl.DiagError:
					t.Errorf("unexpected warning: %s", d.Error())
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
						t.Errorf("line %d: unexpected error: %s", line, message(d))
					}
				}
			}
			for line, substrings := range want {
				unmatched := append([]*hcl.Diagnostic(nil), got[line]...)
			markers:
				for _, substring := range substrings {
					for i, d := range unmatched {
						if strings.Contains(message(d), substring) {
							unmatched = append(unmatched[:i], unmatched[i+1:]...)
							continue markers
						}
					}
					t.Errorf("line %d: no error containing %q; got %s", line, substring, messages(got[line]))
				}
				for _, d := range unmatched {
					t.Errorf("line %d: unexpected extra error: %s", line, message(d))
				}
			}
		})
	}
}

// errorMarkers maps a line number to the substrings its markers expect.
func errorMarkers(src []byte) map[int][]string {
	markers := make(map[int][]string)
	scanner := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; scanner.Scan(); line++ {
		text := scanner.Text()
		i := strings.Index(text, errorMarker)
		if i < 0 {
			continue
		}
		for _, substring := range strings.Split(text[i+len(errorMarker):], errorMarker) {
			markers[line] = append(markers[line], strings.TrimSpace(substring))
		}
	}
	return markers
}

func message(d *hcl.Diagnostic) string { return d.Summary + "; " + d.Detail }

func messages(diags []*hcl.Diagnostic) string {
	if len(diags) == 0 {
		return "none"
	}
	var all []string
	for _, d := range diags {
		all = append(all, strconv(message(d)))
	}
	return strings.Join(all, ", ")
}

func strconv(s string) string { return "«" + s + "»" }
