package parsers

import (
	"reflect"
	"slices"
	"testing"
)

func TestEveryBuiltinRegistered(t *testing.T) {
	want := map[string]Parser{
		NameGoTestJSON: &GoTestJSON{},
		NameLibtest:    &Libtest{},
		NameJUnit:      &JUnit{},
		NameCTest:      &CTest{},
		NameTRX:        &TRX{},
		NameTAP:        &TAP{},
		NameRegex:      &Regex{},
	}
	for name, parser := range want {
		got, ok := Lookup(name)
		if !ok {
			t.Errorf("%q is not registered", name)
			continue
		}
		if reflect.TypeOf(got) != reflect.TypeOf(parser) {
			t.Errorf("%q is a %T, want %T", name, got, parser)
		}
		if !slices.Contains(Names(), name) {
			t.Errorf("Names() lacks %q", name)
		}
	}
}
