package coverage

import (
	"reflect"
	"slices"
	"testing"
)

func TestEveryBuiltinRegistered(t *testing.T) {
	want := map[string]Importer{
		NameGoCoverprofile: &GoCoverprofile{},
		NameLcov:           &Lcov{},
		NameGcov:           &Gcov{},
		NameCobertura:      &Cobertura{},
		NameLLVMJSON:       &LLVMJSON{},
	}
	for name, importer := range want {
		got, ok := Lookup(name)
		if !ok {
			t.Errorf("%q is not registered", name)
			continue
		}
		if reflect.TypeOf(got) != reflect.TypeOf(importer) {
			t.Errorf("%q is a %T, want %T", name, got, importer)
		}
		if !slices.Contains(Names(), name) {
			t.Errorf("Names() lacks %q", name)
		}
	}
}
