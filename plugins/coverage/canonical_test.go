package coverage

import (
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalProfile(t *testing.T) {
	// Two packages' profiles in the two orders `go test -coverpkg=./...`
	// can append them in.
	pkgA := "m/a/a.go:3.10,5.2 1 1\nm/b/b.go:4.1,6.2 2 0\n"
	pkgB := "m/a/a.go:3.10,5.2 1 0\nm/b/b.go:4.1,6.2 2 1\n"
	aFirst := "mode: set\n" + pkgA + "mode: set\n" + pkgB
	bFirst := "mode: set\n" + pkgB + "mode: set\n" + pkgA
	want := "mode: set\nm/a/a.go:3.10,5.2 1 0\nm/a/a.go:3.10,5.2 1 1\nm/b/b.go:4.1,6.2 2 0\nm/b/b.go:4.1,6.2 2 1\n"

	tests := []struct {
		name, in, want string
	}{
		{"package a finished first", aFirst, want},
		{"package b finished first", bFirst, want},
		{"CRLF line ends", strings.ReplaceAll(aFirst, "\n", "\r\n"), want},
		{"already canonical", want, want},
		{"header only", "mode: count\n", "mode: count\n"},
		{"not a coverprofile", "SF:a.c\nDA:1,1\nend_of_record\n", "SF:a.c\nDA:1,1\nend_of_record\n"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(CanonicalProfile([]byte(tt.in)))
			if got != tt.want {
				t.Errorf("CanonicalProfile:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestCanonicalProfileImportsTheSame: sorting is invisible to the importer.
func TestCanonicalProfileImportsTheSame(t *testing.T) {
	raw := "mode: set\nm/b/b.go:4.1,6.2 2 1\nm/a/a.go:3.10,5.2 1 0\nmode: set\nm/a/a.go:3.10,5.2 1 1\n"
	opts := Options{Modules: map[string]string{"m": ""}}
	imp := &GoCoverprofile{}
	before, err := imp.Import(strings.NewReader(raw), opts)
	if err != nil {
		t.Fatal(err)
	}
	after, err := imp.Import(strings.NewReader(string(CanonicalProfile([]byte(raw)))), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 || !reflect.DeepEqual(before, after) {
		t.Errorf("imports differ:\nraw       %+v\ncanonical %+v", before, after)
	}
}
