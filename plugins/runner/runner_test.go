package runner

import (
	"testing"

	"github.com/osbench/osbench/schemas"
)

// The runners of this test are made up: the registry of this package's
// tests holds nothing else (plugins/runner/all is not imported).
func init() {
	Register(&Runner{Name: "fake-home", Version: "1", Parser: "fake-home-parser", Home: "fakelang",
		Known: KnowsNone, Launch: NoLaunch, Expected: NoExpected, Evidence: fakeEvidence})
	Register(&Runner{Name: "fake-report", Version: "3", Parser: "fake-report-parser",
		Known: KnowsResults, Launch: NoLaunch, Expected: NoExpected, Evidence: NoEvidence})
	Register(&Runner{Name: "fake-home2", Version: "2", Parser: "fake-home2-parser", Home: "fakelang2",
		Known: KnowsNone, Launch: NoLaunch, Expected: NoExpected, Evidence: fakeEvidence})
	Register(&Runner{Name: "fake-linux", Version: "2", VersionPlatforms: []string{"linux"}, Parser: "fake-linux-parser", Home: "fakelang3",
		Known: KnowsNone, Launch: NoLaunch, Expected: NoExpected, Evidence: fakeEvidence})
	Register(&Runner{Name: "fake-split", Version: "2", PlatformVersions: map[string]string{"windows": "3"}, Parser: "fake-split-parser", Home: "fakelang4",
		Known: KnowsNone, Launch: NoLaunch, Expected: NoExpected, Evidence: fakeEvidence})
}

func fakeEvidence(_ Run, results []schemas.TestResult) ([]schemas.TestResult, *schemas.TestDefinitions, error) {
	return results, &schemas.TestDefinitions{Runner: "fake"}, nil
}

// TestFor: a run's runner reads with its parser's parts and proves with
// its language's home's, or with none.
func TestFor(t *testing.T) {
	tests := []struct {
		language, parser string
		name             string
		known, evidenced bool
	}{
		{"fakelang", "fake-home-parser", "fake-home", false, true},
		{"fakelang", "fake-report-parser", "fake-report", true, true},
		{"otherlang", "fake-report-parser", "fake-report", true, false},
		{"", "fake-home-parser", "fake-home", false, false},
	}
	for _, tt := range tests {
		r, err := For(tt.language, tt.parser)
		if err != nil {
			t.Fatal(err)
		}
		_, known := r.Known(KnownRun{Results: []schemas.TestResult{{ID: "a"}}})
		_, defs, _ := r.Evidence(Run{}, nil)
		if r.Name != tt.name || known != tt.known || (defs != nil) != tt.evidenced {
			t.Errorf("For(%q, %q) = %s, known %v, evidence %v; want %s, %v, %v", tt.language, tt.parser, r.Name, known, defs != nil, tt.name, tt.known, tt.evidenced)
		}
	}
	if _, err := For("fakelang", "no-such-parser"); err == nil {
		t.Error("a parser without a runner gave a runner")
	}
	if r, _ := ForParser("fake-home-parser"); r.Evidence == nil || Home("fakelang") != r {
		t.Error("For changed the registered runner")
	}
}

// TestKeyVersion: a runner at version 1 puts nothing in the key (today's
// keys); any other version names the runner, the parser's and the home's.
func TestKeyVersion(t *testing.T) {
	for _, tt := range []struct{ language, parser, platform, want string }{
		{"fakelang", "fake-home-parser", "linux", ""},
		{"", "fake-home-parser", "linux", ""},
		{"fakelang", "fake-report-parser", "linux", "fake-report=3"},
		{"fakelang2", "fake-home2-parser", "windows", "fake-home2=2"},
		{"fakelang2", "fake-report-parser", "linux", "fake-home2=2,fake-report=3"},
		{"fakelang2", "fake-home-parser", "linux", "fake-home2=2"},
		// A version whose change concerns Linux runs only.
		{"fakelang3", "fake-linux-parser", "linux", "fake-linux=2"},
		{"fakelang3", "fake-linux-parser", "windows", ""},
		{"fakelang3", "fake-report-parser", "linux", "fake-linux=2,fake-report=3"},
		{"fakelang3", "fake-report-parser", "windows", "fake-report=3"},
		// A version of its own on one platform.
		{"fakelang4", "fake-split-parser", "linux", "fake-split=2"},
		{"fakelang4", "fake-split-parser", "windows", "fake-split=3"},
		{"fakelang4", "fake-split-parser", "darwin", "fake-split=2"},
	} {
		if got := KeyVersion(tt.language, tt.parser, tt.platform); got != tt.want {
			t.Errorf("KeyVersion(%q, %q, %q) = %q, want %q", tt.language, tt.parser, tt.platform, got, tt.want)
		}
	}
}

// TestRegisterRefusesASharedParser: the step finds a run's runner by its
// parser, so two runners of one parser is a programming error.
func TestRegisterRefusesASharedParser(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second runner of one parser was registered")
		}
	}()
	Register(&Runner{Name: "fake-again", Parser: "fake-home-parser"})
}
