package parsers

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
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

// TestEveryParserReportsReadErrors: a failing reader is an error naming
// the cause, never a partial result passed off as complete — for every
// registered parser, so a new one cannot forget it.
func TestEveryParserReportsReadErrors(t *testing.T) {
	for _, name := range Names() {
		p, _ := Lookup(name)
		opts := Options{}
		if name == NameRegex {
			opts.Regex = &RegexOptions{Pattern: `^(?P<status>ok|fail) (?P<id>\S+)$`, Statuses: map[string]string{"ok": "pass", "fail": "fail"}}
		}
		_, err := p.Parse(iotest.ErrReader(errors.New("disk on fire")), opts)
		if err == nil || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("%s: got error %v, want the read error", name, err)
		}
	}
}
