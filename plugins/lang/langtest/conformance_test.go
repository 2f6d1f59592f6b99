package langtest

import (
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/mask"   // Go, C, C++ and Rust mask rules
	_ "github.com/osbench/osbench/plugins/verify" // the judge, attached to every language
)

// fixtureDirs are where each language keeps its conformance fixtures.
var fixtureDirs = map[string]string{
	lang.Go:     "../golang/testdata/conformance",
	lang.C:      "../cfamily/testdata/conformance/c",
	lang.CPP:    "../cfamily/testdata/conformance/cpp",
	lang.Rust:   "../rust/testdata/conformance",
	lang.CSharp: "../csharp/testdata/conformance",
}

func TestConformance(t *testing.T) {
	if err := lang.Default.Check(); err != nil {
		t.Fatal(err)
	}
	for _, name := range lang.Names() {
		t.Run(name, func(t *testing.T) {
			dir, ok := fixtureDirs[name]
			if !ok {
				t.Fatalf("language %q has no conformance fixtures: add its testdata/conformance directory to fixtureDirs", name)
			}
			fixtures, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			Run(t, lang.Default, name, fixtures)
		})
	}
	if got := len(lang.Names()); got != 5 {
		t.Errorf("%d languages registered (%v), want Go, C, C++, Rust and C#", got, lang.Names())
	}
}

// without copies Default but for one part of one language.
func without(name, part string) *lang.Registry {
	r := lang.NewRegistry()
	for _, n := range lang.Names() {
		if l, ok := lang.Lookup(n); ok && !(n == name && part == "language") {
			copied := *l
			if n == name && part == "front end" {
				copied.Evidence = lang.EvidenceReader{}
			}
			if n == name && part == "test code" {
				copied.TestCode = lang.TestCode{}
			}
			r.Register(copied)
		}
		if v, ok := lang.Default.Verify(n); ok && !(n == name && part == "verify") {
			r.AttachVerify(n, v)
		}
		if m, ok := lang.Default.Mask(n); ok && !(n == name && part == "mask") {
			r.AttachMask(n, m)
		}
	}
	return r
}

// A language with a part taken away fails Check with a message naming the
// language and the part, and nothing else.
func TestHalfAddedLanguageNamesWhatIsMissing(t *testing.T) {
	cases := []struct{ name, part, want string }{
		{lang.CSharp, "mask", `language "csharp": no mask rules (lang.AttachMask`},
		{lang.Rust, "mask", `language "rust": no mask rules`},
		{lang.Go, "verify", `language "go": no verify rules (lang.AttachVerify`},
		{lang.Rust, "front end", `language "rust": no verify front end (Language.Evidence`},
		{lang.C, "front end", `language "c": no verify front end (Language.Evidence`},
		{lang.Rust, "test code", `language "rust": no in-source test code rules (Language.TestCode`},
		{lang.Go, "test code", `language "go": no in-source test code rules (Language.TestCode`},
		{lang.CPP, "language", `language "cpp": no Language (a package under plugins/lang registers it`},
	}
	for _, c := range cases {
		t.Run(c.name+"-"+c.part, func(t *testing.T) {
			err := without(c.name, c.part).Check()
			if err == nil {
				t.Fatalf("Check passed a registry without %s's %s", c.name, c.part)
			}
			if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 0 {
				t.Errorf("Check = %q, want exactly one problem containing %q", msg, c.want)
			}
		})
	}
	// A field left out of a Language is named as well.
	r := lang.NewRegistry()
	l, _ := lang.Lookup(lang.CSharp)
	half := *l
	half.Probes, half.Prompt, half.Evidence = nil, lang.Prompt{}, lang.EvidenceReader{}
	r.Register(half)
	msg := r.Check().Error()
	for _, want := range []string{"no toolchain probes for linux", "no toolchain probes for windows", "no LM prompt material", "no verify rules", "no mask rules", "no verify front end"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Check of a half C# = %q, want it to say %q", msg, want)
		}
	}
}
