package parsers

import (
	"io"
	"slices"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestBuiltinsRegistered(t *testing.T) {
	p, ok := Lookup(NameGoTestJSON)
	if !ok {
		t.Fatalf("%q is not registered", NameGoTestJSON)
	}
	if _, isGo := p.(*GoTestJSON); !isGo {
		t.Errorf("%q is a %T, want *GoTestJSON", NameGoTestJSON, p)
	}
	if _, ok := Lookup("no-such-parser"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	names := Names()
	if !slices.IsSorted(names) || !slices.Contains(names, NameGoTestJSON) {
		t.Errorf("Names() = %v, want a sorted list containing %q", names, NameGoTestJSON)
	}
}

type nopParser struct{}

func (nopParser) Parse(io.Reader, Options) ([]schemas.TestResult, error) { return nil, nil }

func TestRegisterRejectsProgrammerErrors(t *testing.T) {
	Register("registry-test-once", nopParser{})
	if _, ok := Lookup("registry-test-once"); !ok {
		t.Fatal("a registered parser is not found")
	}
	tests := []struct {
		name   string
		parser Parser
	}{
		{"registry-test-once", nopParser{}}, // duplicate
		{NameGoTestJSON, nopParser{}},       // duplicate of a built-in
		{"", nopParser{}},
		{"registry-test-nil", nil},
	}
	for _, tc := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, %v) did not panic", tc.name, tc.parser)
				}
			}()
			Register(tc.name, tc.parser)
		}()
	}
	if p, _ := Lookup(NameGoTestJSON); p == (nopParser{}) {
		t.Error("a duplicate registration replaced the built-in")
	}
}
