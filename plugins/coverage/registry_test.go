package coverage

import (
	"io"
	"slices"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestBuiltinsRegistered(t *testing.T) {
	i, ok := Lookup(NameGoCoverprofile)
	if !ok {
		t.Fatalf("%q is not registered", NameGoCoverprofile)
	}
	if _, isGo := i.(*GoCoverprofile); !isGo {
		t.Errorf("%q is a %T, want *GoCoverprofile", NameGoCoverprofile, i)
	}
	if _, ok := Lookup("no-such-format"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	names := Names()
	if !slices.IsSorted(names) || !slices.Contains(names, NameGoCoverprofile) {
		t.Errorf("Names() = %v, want a sorted list containing %q", names, NameGoCoverprofile)
	}
}

type nopImporter struct{}

func (nopImporter) Import(io.Reader, Options) ([]schemas.FileCoverage, error) { return nil, nil }

func TestRegisterRejectsProgrammerErrors(t *testing.T) {
	Register("registry-test-once", nopImporter{})
	if _, ok := Lookup("registry-test-once"); !ok {
		t.Fatal("a registered importer is not found")
	}
	tests := []struct {
		name     string
		importer Importer
	}{
		{"registry-test-once", nopImporter{}}, // duplicate
		{NameGoCoverprofile, nopImporter{}},   // duplicate of a built-in
		{"", nopImporter{}},
		{"registry-test-nil", nil},
	}
	for _, tc := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, %v) did not panic", tc.name, tc.importer)
				}
			}()
			Register(tc.name, tc.importer)
		}()
	}
	if i, _ := Lookup(NameGoCoverprofile); i == (nopImporter{}) {
		t.Error("a duplicate registration replaced the built-in")
	}
}
