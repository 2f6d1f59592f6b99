package registry

import (
	"reflect"
	"strings"
	"testing"
)

func TestRegisterLookupNames(t *testing.T) {
	r := New[func() int]("thing")
	r.Register("b", func() int { return 2 })
	r.Register("a", func() int { return 1 })
	if got := r.Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Names = %v", got)
	}
	if f, ok := r.Lookup("b"); !ok || f() != 2 {
		t.Errorf("Lookup(b): ok %v", ok)
	}
	if _, ok := r.Lookup("c"); ok {
		t.Errorf("Lookup(c) found something")
	}
}

func TestRegisterPanicsOnProgrammingErrors(t *testing.T) {
	for name, register := range map[string]func(r *Registry[*int]){
		"duplicate": func(r *Registry[*int]) { one := 1; r.Register("x", &one); r.Register("x", &one) },
		"empty":     func(r *Registry[*int]) { one := 1; r.Register("", &one) },
		"nil":       func(r *Registry[*int]) { r.Register("x", nil) },
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "thing") {
					t.Errorf("%s: panic = %v", name, p)
				}
			}()
			register(New[*int]("thing"))
		}()
	}
}

type versionedPlugin struct{ v string }

func (p versionedPlugin) Version() string { return p.v }

type plainPlugin struct{}

func TestVersion(t *testing.T) {
	r := New[any]("test plugin")
	r.Register("v3", versionedPlugin{"3"})
	r.Register("plain", plainPlugin{})
	for name, want := range map[string]string{"v3": "3", "plain": "1", "missing": "1"} {
		if got := r.Version(name); got != want {
			t.Errorf("Version(%q) = %q, want %q", name, got, want)
		}
	}
}
